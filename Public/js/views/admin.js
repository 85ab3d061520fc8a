// The admin page, for the server's admins only (the sidebar shows its button
// when the user object says admin): people (make or unmake admin, deactivate),
// registration links (make one; the server lists them with the invites),
// every invite (revoke), and deleting a message or an image by its id.

import { h } from "./dom.js";
import { copyText, inviteLine } from "./dialogs.js";
import { errorText } from "../state/errors.js";
import { clashingNames } from "../state/sameNames.js";
import { clockTime } from "../state/format.js";

export class AdminDialog {
  /**
   * @param {object} api requests, each made on a click
   * @param {() => Promise<object[]>} api.users
   * @param {(userId: string, admin: boolean) => Promise<void>} api.setAdmin
   * @param {(userId: string) => Promise<void>} api.deactivate
   * @param {(userId: string) => Promise<{code: string, expiresAt: number}>} api.reactivate
   * @param {() => Promise<string>} api.createRegistrationLink resolves with the link to share
   * @param {() => Promise<object[]>} api.invites
   * @param {(inviteId: string) => Promise<void>} api.revokeInvite
   * @param {(conversationId: string, seq: number) => Promise<void>} api.deleteMessage
   * @param {(hash: string) => Promise<number>} api.deleteImage
   * @param {() => string} api.selfId
   * @param {{el: HTMLElement, refresh: () => Promise<void>}} [api.reports] the Reports section (views/reports.js)
   */
  constructor(api) {
    this.api = api;
    this.users = h("ul", { class: "admin-list", id: "admin-users", "aria-label": "People" });
    this.invites = h("ul", { class: "admin-list", id: "admin-invites", "aria-label": "Invites and registration links" });
    this.status = h("p", { role: "status", "aria-live": "polite", id: "admin-status" });
    this.error = h("p", { class: "form-error", role: "alert" });
    this.regLink = h("input", { id: "admin-registration-link", readonly: true, hidden: true, "aria-label": "Registration link" });
    const msgConv = h("input", { id: "admin-message-conversation", placeholder: "c…", autocomplete: "off" });
    const msgSeq = h("input", { id: "admin-message-seq", inputmode: "numeric", placeholder: "41", autocomplete: "off" });
    const imageHash = h("input", { id: "admin-image-hash", placeholder: "sha256", autocomplete: "off", spellcheck: "false" });
    const deleteMessage = h("form", { class: "inline-form" },
      h("label", { class: "field", for: "admin-message-conversation" }, "Conversation id", msgConv),
      h("label", { class: "field narrow", for: "admin-message-seq" }, "Message #", msgSeq),
      h("button", { class: "button small danger", type: "submit" }, "Delete message"));
    deleteMessage.addEventListener("submit", async (e) => {
      e.preventDefault();
      const seq = Number(msgSeq.value.trim());
      if (!msgConv.value.trim() || !Number.isSafeInteger(seq) || seq < 1) {
        this.error.textContent = "Give a conversation id and a message number.";
        return;
      }
      if (await this.run(api.deleteMessage, msgConv.value.trim(), seq)) this.status.textContent = `Message ${seq} deleted.`;
    });
    const deleteImage = h("form", { class: "inline-form" },
      h("label", { class: "field", for: "admin-image-hash" }, "Image (its hash, from /blobs/…)", imageHash),
      h("button", { class: "button small danger", type: "submit" }, "Delete image"));
    deleteImage.addEventListener("submit", async (e) => {
      e.preventDefault();
      const hash = imageHash.value.trim().replace(/^.*\/blobs\//, "");
      const n = await this.run(api.deleteImage, hash);
      if (n !== undefined) this.status.textContent = `Image deleted, with the ${n === 1 ? "message" : `${n} messages`} showing it.`;
    });
    this.dialog = h("dialog", { id: "admin", class: "wide page", "aria-labelledby": "admin-title" },
      h("div", { class: "dialog-body" },
        h("h2", { id: "admin-title" }, "Server admin"),
        this.status, this.error,
        api.reports?.el ?? null,
        h("section", { "aria-labelledby": "admin-users-title" }, h("h3", { id: "admin-users-title" }, "People"), this.users),
        h("section", { "aria-labelledby": "admin-reg-title" },
          h("h3", { id: "admin-reg-title" }, "Registration links"),
          h("p", null, "A registration link lets one new person make an account, whatever the server's registration mode."),
          h("div", { class: "row-actions" }, h("button", { class: "button small primary", type: "button", onclick: () => this.makeLink() }, "New registration link")),
          this.regLink),
        h("section", { "aria-labelledby": "admin-inv-title" }, h("h3", { id: "admin-inv-title" }, "Invites and registration links that still work"), this.invites),
        h("section", { "aria-labelledby": "admin-del-title" }, h("h3", { id: "admin-del-title" }, "Delete content"), deleteMessage, deleteImage),
        h("div", { class: "dialog-actions" }, h("button", { class: "button", type: "button", onclick: () => this.dialog.close() }, "Done"))));
    document.body.append(this.dialog);
  }

  async run(fn, ...args) {
    this.error.textContent = "";
    try {
      const r = await fn(...args);
      return r === undefined ? true : r;
    } catch (e) {
      this.error.textContent = errorText(e);
      return undefined;
    }
  }

  async show() {
    this.status.textContent = "";
    this.error.textContent = "";
    this.regLink.hidden = true;
    if (!this.dialog.open) this.dialog.showModal();
    await Promise.all([this.refreshUsers(), this.refreshInvites(), this.api.reports?.refresh()]);
  }

  async refreshUsers() {
    const users = await this.run(this.api.users);
    if (!Array.isArray(users)) return;
    const self = this.api.selfId();
    // two people of the same name (one an impersonator) are told apart as in the
    // conversation itself, "Sam (e1f9)", before Deactivate is pressed on one
    const labels = clashingNames(users.map((u) => ({ userId: u.id, name: u.name })));
    this.users.replaceChildren(...users.map((x) => ({ ...x, name: labels.get(x.id) ?? x.name })).map((u) => h("li", { class: "admin-user", dataset: { userId: u.id } },
      h("span", { class: "member-name" }, u.name),
      u.admin ? h("span", { class: "tag" }, "Admin") : null,
      // deleted by its person: nothing to give back, so no Reactivate
      u.deletedAt ? h("span", { class: "tag muted" }, "Deleted") : u.deactivatedAt ? h("span", { class: "tag muted" }, "Deactivated") : null,
      h("span", { class: "muted small" }, `${u.devices ?? 0} device${u.devices === 1 ? "" : "s"}`),
      u.id === self || u.deactivatedAt ? null : h("button", { class: "button small", type: "button", "aria-label": `${u.admin ? "Unmake" : "Make"} ${u.name} admin`, onclick: async () => {
        await this.run(this.api.setAdmin, u.id, !u.admin);
        await this.refreshUsers();
      } }, u.admin ? "Unmake admin" : "Make admin"),
      u.id === self || u.deactivatedAt ? null : h("button", { class: "button small danger", type: "button", "aria-label": `Deactivate ${u.name}`, onclick: async () => {
        // asked first, as deleting a message is: what it revokes is not given back
        const yes = await this.api.confirm({
          title: `Deactivate ${u.name}?`,
          text: `${u.name} is signed out on every device and their devices, recovery key and the invites they shared are revoked for good (the links stop working for everyone). Their messages stay. You can let them back in later with Reactivate.`,
          yes: "Deactivate",
        });
        if (!yes) return;
        if (await this.run(this.api.deactivate, u.id)) this.status.textContent = `${u.name} is deactivated and signed out everywhere.`;
        await this.refreshUsers();
      } }, "Deactivate"),
      // the way back in is a one-time code for a new device, which the admin hands over
      u.deactivatedAt && !u.deletedAt ? h("button", { class: "button small", type: "button", "aria-label": `Reactivate ${u.name}`, onclick: async () => {
        const link = await this.run(this.api.reactivate, u.id);
        if (link?.code) {
          this.status.textContent = `${u.name} can sign in again: give them the code ${link.code}. They choose “Sign in with a code from another device” and type it, before ${clockTime(link.expiresAt)}.`;
        }
        await this.refreshUsers();
      } }, "Reactivate") : null,
      // for a person who asked to be removed: what deleting their own account does
      u.id === self || u.deletedAt ? null : h("button", { class: "button small danger", type: "button", "aria-label": `Delete ${u.name}'s account`, onclick: async () => {
        const yes = await this.api.confirm({
          title: `Delete ${u.name}'s account?`,
          text: `For a person who asked to be removed: their name leaves every conversation, and what they sent stays, shown as from “Deleted account”. They can never sign in with it again. This cannot be undone.`,
          yes: "Delete account",
        });
        if (!yes) return;
        if (await this.run(this.api.deleteUser, u.id)) this.status.textContent = `${u.name}'s account is deleted.`;
        await this.refreshUsers();
      } }, "Delete account"))));
  }

  async refreshInvites() {
    const invites = await this.run(this.api.invites);
    if (!Array.isArray(invites)) return;
    if (invites.length === 0) {
      this.invites.replaceChildren(h("li", { class: "muted" }, "None."));
      return;
    }
    this.invites.replaceChildren(...invites.map((i) => h("li", { class: "invite-item", dataset: { inviteId: i.id } },
      h("span", null, `${capitalized(invitedTo(i))} · ${inviteLine(i)}`),
      h("button", { class: "button small danger", type: "button", "aria-label": `Revoke the ${invitedTo(i)}`, onclick: async () => {
        await this.run(this.api.revokeInvite, i.id);
        await this.refreshInvites();
      } }, "Revoke"))));
  }

  async makeLink() {
    const link = await this.run(this.api.createRegistrationLink);
    if (typeof link !== "string") return;
    this.regLink.value = link;
    this.regLink.hidden = false;
    this.status.textContent = (await copyText(link, this.regLink)) ? "Registration link copied." : "Select the link and copy it.";
    await this.refreshInvites();
  }
}

/**
 * What an invite lets people into and who shared it, as an admin who is not in the
 * conversation knows it (its id said nothing): "invite to “Book club” by Ben",
 * "registration link by Ana" (one made with `parlor admin` has no maker to name).
 * @param {{conversationId?: string, conversationTitle?: string, createdByName?: string}} i
 */
function invitedTo(i) {
  const what = i.conversationId ? `invite to “${i.conversationTitle ?? "a conversation"}”` : "registration link";
  return i.createdByName ? `${what} by ${i.createdByName}` : what;
}

const capitalized = (text) => text.charAt(0).toUpperCase() + text.slice(1);
