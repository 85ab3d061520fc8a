// Reporting a message to the server's admins: the member's question (a native
// <dialog>: what is reported, an optional reason, Report / Cancel), the admin
// button's count of open reports, and the admin page's Reports section. Everything
// a person wrote is set as text.

import { h } from "./dom.js";
import { shortWhen } from "../state/format.js";
import { shorten } from "../../sdk/text.js";
import { reportWords, groupReports, reportFiles } from "../state/reports.js";
import { blobURL } from "./bubble.js";

/** The most a reason may hold (the server's bound). */
export const REASON_CHARS = 300;

export class ReportDialog {
  /**
   * @param {object} o
   * @param {(conversationId: string, seq: number, reason: string) => Promise<void>} o.report  throws with the server's error
   * @param {(e: object) => string} o.errorText
   * @param {(text: string) => void} o.announce  the confirmation, said and shown
   */
  constructor({ report, errorText, announce }) {
    this.report = report;
    this.errorText = errorText;
    this.announce = announce;
    this.quote = h("p", { class: "report-quote", id: "report-quote", dir: "auto" });
    this.reason = h("textarea", { id: "report-reason", name: "reason", rows: 3, maxlength: REASON_CHARS, autocomplete: "off" });
    this.error = h("p", { class: "form-error", role: "alert" });
    this.button = h("button", { class: "button primary danger-fill", type: "submit" }, "Report");
    const form = h("form", { class: "dialog-body", method: "dialog" },
      h("h2", { id: "report-title" }, "Report this message to the server's admins?"),
      this.quote,
      h("p", { id: "report-text", class: "muted small" }, "The admins see the message, who sent it and who reported it. They keep a copy until they have looked at it, even if it is deleted."),
      h("label", { class: "field", for: "report-reason" }, "Why (optional)", this.reason),
      this.error,
      h("div", { class: "dialog-actions" },
        this.cancel = h("button", { class: "button", type: "button", onclick: () => this.dialog.close() }, "Cancel"),
        this.button));
    this.dialog = h("dialog", { id: "report", "aria-labelledby": "report-title", "aria-describedby": "report-quote report-text" }, form);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
    document.body.append(this.dialog);
  }

  /** Asks about message `m` of `conversationId`; `who` and `words` say which. */
  show(conversationId, m, who, words) {
    this.target = { conversationId, seq: m.seq };
    this.quote.textContent = `${who}: “${shorten(words, 140)}”`;
    this.reason.value = "";
    this.error.textContent = "";
    this.button.disabled = false;
    // the reason box first where a keyboard is at hand; on a touch screen Cancel, so
    // no on-screen keyboard comes up over the question and its Report button
    const touch = !!globalThis.matchMedia?.("(pointer: coarse)").matches;
    this.reason.autofocus = !touch;
    this.cancel.autofocus = touch;
    this.dialog.showModal();
  }

  async submit() {
    const { conversationId, seq } = this.target ?? {};
    if (!conversationId) return;
    this.button.disabled = true;
    this.error.textContent = "";
    try {
      await this.report(conversationId, seq, this.reason.value.trim());
      this.dialog.close();
      this.announce("Reported. The admins will look at it.");
    } catch (e) {
      this.error.textContent = e.code === "not_found" ? "This message is no longer there." : e.code === "forbidden" ? "You cannot report your own message." : this.errorText(e);
    } finally {
      this.button.disabled = false;
    }
  }
}

/** The Admin button says how many reports wait ("Admin 3"; read "Admin, 3 open reports"). */
export function showOpenReports(button, open) {
  let badge = button.querySelector(".report-count");
  if (!open) {
    badge?.remove();
    button.removeAttribute("aria-label");
    return;
  }
  if (!badge) {
    badge = h("span", { class: "badge report-count", "aria-hidden": "true" });
    button.append(badge);
  }
  badge.textContent = open > 99 ? "99+" : String(open);
  button.setAttribute("aria-label", `Admin, ${open} open report${open === 1 ? "" : "s"}`);
}

/**
 * The admin page's Reports section: open reports, newest first, one item per message
 * (however many reported it), each with what it said as a copy, and the actions.
 */
export class ReportsSection {
  /**
   * @param {object} api
   * @param {() => Promise<{reports: object[], open: number}>} api.list
   * @param {(reportId: string) => Promise<void>} api.resolve
   * @param {(conversationId: string, seq: number) => Promise<void>} api.deleteMessage
   * @param {(userId: string) => Promise<void>} api.deactivate
   * @param {(hash: string) => Promise<number>} api.deleteImage  every message showing it goes too
   * @param {(o: object) => Promise<boolean>} api.confirm
   * @param {(conversationId: string) => boolean} api.isMember  this admin can open it
   * @param {(conversationId: string, seq: number) => void} api.open
   * @param {(fn: Function, ...args: any[]) => Promise<any>} api.run  runs a request, showing its error
   * @param {(text: string) => void} api.status
   * @param {(appId: string) => string} [api.appName]
   */
  constructor(api) {
    this.api = api;
    this.list = h("ul", { class: "admin-list report-list", id: "admin-reports", "aria-label": "Open reports" });
    /** pictures deleted from this page: the browser's cache would still show them */
    this.deletedImages = new Set();
    this.el = h("section", { "aria-labelledby": "admin-reports-title" },
      h("h3", { id: "admin-reports-title" }, "Reports"), this.list);
  }

  async refresh() {
    const r = await this.api.run(this.api.list);
    if (!r || !Array.isArray(r.reports)) return;
    const groups = groupReports(r.reports);
    if (groups.length === 0) {
      this.list.replaceChildren(h("li", { class: "muted" }, "No open reports."));
      return;
    }
    this.list.replaceChildren(...groups.map((g) => this.item(g)));
  }

  item(g) {
    const { first } = g;
    const sender = first.sender.name ?? "Someone";
    const reporters = g.reporters.length === 1 ? g.reporters[0].name ?? "Someone" : `${g.reporters[0].name ?? "Someone"} and ${g.count - 1} other${g.count === 2 ? "" : "s"}`;
    const where = first.conversationTitle ?? first.conversationId;
    const deleted = first.messageDeletedAt != null;
    const member = this.api.isMember(first.conversationId);
    const id = `report-${first.id}`;
    const { image } = reportFiles(first.message);
    // one reporter: their reason on the same line; several: one line each
    const reasons = g.reporters.length > 1 ? g.reporters.filter((x) => x.reason) : [];
    const reason = g.reporters.length === 1 && g.reporters[0].reason ? `: “${g.reporters[0].reason}”` : "";
    return h("li", { class: "report-item", dataset: { reportId: first.id, conversationId: first.conversationId, seq: first.seq }, "aria-labelledby": `${id}-who` },
      h("div", { class: "report-head" },
        h("span", { class: "report-who", id: `${id}-who` }, `${sender} in “${where}”`),
        h("time", { class: "muted small", datetime: new Date(first.message.createdAt).toISOString() }, shortWhen(first.message.createdAt)),
        deleted ? h("span", { class: "tag muted" }, "Deleted") : null),
      h("blockquote", { class: "report-copy", dir: "auto" }, reportWords(first.message, this.api.appName)),
      reportedFile(first.message, sender, this.deletedImages),
      h("p", { class: "small report-by", dir: "auto" }, `Reported by ${reporters}${reason}`),
      ...reasons.map((x) => h("p", { class: "small report-reason", dir: "auto" }, `${x.name ?? "Someone"}: ${x.reason}`)),
      h("div", { class: "row-actions" },
        member
          ? h("button", { class: "button small", type: "button", "aria-label": `Open the conversation “${where}” at the message`, onclick: () => this.api.open(first.conversationId, first.seq) }, "Open conversation")
          : h("span", { class: "muted small" }, "You are not in this conversation."),
        deleted ? null : h("button", { class: "button small danger", type: "button", "aria-label": `Delete ${sender}'s message`, onclick: async () => {
          const yes = await this.api.confirm({ title: "Delete this message?", text: `${sender}'s message is deleted for everyone in “${where}”. The report stays until you resolve it.`, yes: "Delete" });
          if (!yes) return;
          if (await this.api.run(this.api.deleteMessage, first.conversationId, first.seq)) this.api.status(`${sender}'s message is deleted.`);
          await this.refresh();
        } }, "Delete message"),
        image && !this.deletedImages.has(image) ? h("button", { class: "button small danger", type: "button", "aria-label": `Delete ${sender}'s picture everywhere`, onclick: async () => {
          const yes = await this.api.confirm({ title: "Delete this picture everywhere?", text: `The picture is no longer served, and every message showing it is deleted, in every conversation. The report stays until you resolve it.`, yes: "Delete" });
          if (!yes) return;
          const n = await this.api.run(this.api.deleteImage, image);
          if (n !== undefined) {
            this.deletedImages.add(image);
            this.api.status(`The picture is deleted, with the ${n === 1 ? "message" : `${n} messages`} showing it.`);
          }
          await this.refresh();
        } }, "Delete picture") : null,
        h("button", { class: "button small danger", type: "button", "aria-label": `Deactivate ${sender}`, onclick: async () => {
          const yes = await this.api.confirm({
            title: `Deactivate ${sender}?`,
            text: `${sender} is signed out on every device and their devices, recovery key and the invites they shared are revoked for good. Their messages stay. You can let them back in later with Reactivate.`,
            yes: "Deactivate",
          });
          if (!yes) return;
          if (await this.api.run(this.api.deactivate, first.sender.id)) this.api.status(`${sender} is deactivated and signed out everywhere.`);
        } }, "Deactivate sender"),
        h("button", { class: "button small primary", type: "button", "aria-label": `Resolve the report of ${sender}'s message`, onclick: async () => {
          if (await this.api.run(this.api.resolve, first.id)) this.api.status("Report resolved.");
          await this.refresh();
        } }, "Resolve")));
  }
}

/**
 * The picture or recording of a reported message, while the server still stores it: an
 * admin outside the conversation saw only a picture's name. Gone (deleted with its
 * last message, or everywhere), it says so.
 */
function reportedFile(m, sender, deletedImages) {
  const { image, audio } = reportFiles(m);
  const gone = (what) => h("p", { class: "small muted report-gone" }, `The ${what} is no longer stored.`);
  if (image && deletedImages.has(image)) return gone("picture");
  if (image) {
    const img = h("img", { class: "report-picture", src: blobURL(image), alt: `The picture ${sender} sent${m.name ? `: ${m.name}` : ""}`, loading: "lazy" });
    img.addEventListener("error", () => img.replaceWith(gone("picture")), { once: true });
    return img;
  }
  if (audio) {
    const player = h("audio", { class: "report-audio", controls: true, preload: "none", src: blobURL(audio), "aria-label": `The voice message ${sender} sent` });
    player.addEventListener("error", () => player.replaceWith(gone("recording")), { once: true });
    return player;
  }
  return null;
}
