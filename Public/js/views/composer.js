// The composer: what an app staged (with a remove button each), the text box
// and Send. Enter sends, Shift+Enter starts a new line. The draft is saved as
// it is typed, so nothing typed is lost to a reconnect or a reload.

import { h, icon, ICONS } from "./dom.js";
import { blobURL } from "./bubble.js";
import { isBlank } from "../state/composer.js";

export class ComposerView {
  /**
   * @param {HTMLElement} el
   * @param {object} opts
   * @param {(text: string) => boolean} opts.onSend       returns true when something was sent
   * @param {(key: string) => void} opts.onRemove
   * @param {(text: string) => void} opts.onDraft
   * @param {() => void} opts.onToggleDrawer
   * @param {import("./peel.js").StickerPeel} opts.peel carries a staged sticker onto a bubble
   * @param {() => void} [opts.onCancelReply] the reply strip's close button, or Escape in the box
   */
  constructor(el, { onSend, onRemove, onDraft, onToggleDrawer, peel, onCancelReply = () => {} }) {
    this.el = el;
    this.onRemove = onRemove;
    this.onCancelReply = onCancelReply;
    // above the box while the next Send answers a message: whom, one line of it, and a close button
    this.replyEl = h("div", { class: "reply-strip", hidden: true });
    this.peel = peel;
    this.staged = [];
    this.notice = h("div", { class: "notice", role: "alert", hidden: true });
    this.stagedEl = h("div", { class: "staged", "aria-label": "Ready to send", role: "list" });
    this.input = h("textarea", {
      id: "composer-input",
      rows: 1,
      dir: "auto",
      placeholder: "Message",
      "aria-label": "Message",
      maxlength: 10000,
      oninput: () => {
        this.autosize();
        onDraft(this.input.value);
        this.updateSend();
      },
      onkeydown: (e) => {
        if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
          e.preventDefault();
          this.submit();
        } else if (e.key === "Escape" && !this.replyEl.hidden && !e.isComposing) {
          e.preventDefault();
          e.stopPropagation(); // the reply's, not the app pane's or the drawer's
          this.onCancelReply();
        }
      },
    });
    this.appsButton = h("button", {
      class: "icon-button", type: "button", "aria-label": "Apps", "aria-expanded": "false", "aria-controls": "drawer",
      onclick: onToggleDrawer,
    }, icon(ICONS.apps));
    this.sendButton = h("button", { class: "send-button", type: "button", "aria-label": "Send", disabled: true, onclick: () => this.submit() }, icon(ICONS.send));
    this.onSend = onSend;
    el.replaceChildren(this.notice, this.replyEl, this.stagedEl, h("div", { class: "composer" }, this.appsButton, this.input, this.sendButton));
  }

  /**
   * The strip that says which message the next Send answers, or none (null).
   * @param {{who: string, line: string} | null} reply
   */
  showReply(reply) {
    this.replyEl.hidden = !reply;
    if (!reply) {
      this.replyEl.replaceChildren();
      return;
    }
    const whom = reply.who === "You" ? "yourself" : reply.who;
    this.replyEl.replaceChildren(
      h("div", { class: "reply-strip-text" },
        h("strong", null, `Replying to ${whom}`),
        h("span", { class: "reply-strip-line", dir: "auto" }, reply.line)),
      h("button", { class: "icon-button", type: "button", "aria-label": "Cancel reply", onclick: () => this.onCancelReply() }, icon(ICONS.close)));
  }

  submit() {
    if (this.onSend(this.input.value)) {
      this.input.value = "";
      this.autosize();
      this.updateSend();
    }
    this.input.focus();
  }

  setDraft(text) {
    this.input.value = text || "";
    this.autosize();
    this.updateSend();
  }

  insertText(text) {
    const v = this.input.value;
    this.input.value = !v ? text : /\s$/.test(v) ? v + text : `${v} ${text}`;
    this.input.dispatchEvent(new Event("input"));
  }

  autosize() {
    this.input.style.height = "auto";
    this.input.style.height = `${Math.min(this.input.scrollHeight + 2, 160)}px`;
  }

  updateSend() {
    this.sendButton.disabled = isBlank(this.input.value) && this.staged.length === 0;
  }

  setDrawerOpen(open) {
    this.appsButton.setAttribute("aria-expanded", String(open));
  }

  showNotice(text) {
    if (!text) {
      this.notice.hidden = true;
      this.notice.replaceChildren();
      return;
    }
    this.notice.hidden = false;
    this.notice.replaceChildren(h("span", null, text), h("button", { class: "icon-button", type: "button", "aria-label": "Dismiss", onclick: () => this.showNotice(null) }, icon(ICONS.close)));
  }

  /**
   * @param {object[]} staged
   * @param {import("./bubble.js").BubbleContext} ctx
   */
  renderStaged(staged, ctx) {
    this.staged = staged;
    this.stagedEl.replaceChildren(...staged.map((s) => this.stagedItem(s, ctx)));
    this.updateSend();
  }

  stagedItem(s, ctx) {
    const m = s.message;
    let preview;
    let title;
    let sub;
    if (m.kind === "app") {
      const app = ctx.app(m.appId);
      title = ctx.names(m.layout?.caption || m.summaryText || app?.name || m.appId, m.appId);
      sub = app?.name || m.appId;
      const src = m.layout?.image ? blobURL(m.layout.image) : (s.imageKey && ctx.pendingImage?.(s.imageKey)) || app?.icon;
      preview = src ? h("img", { class: "thumb", src, alt: "" }) : null;
    } else {
      title = m.kind === "sticker" ? "Sticker" : m.name || "Image";
      sub = m.kind === "sticker" ? m.description || "" : "Attachment";
      preview = h("img", { class: "thumb", src: blobURL(m.image), alt: "" });
    }
    const item = h("div", { class: "staged-item", role: "listitem", dataset: { key: s.key, kind: m.kind } },
      preview,
      h("div", { class: "staged-text" }, h("strong", null, title), h("span", null, sub)),
      h("button", { class: "icon-button", type: "button", "aria-label": `Remove ${title}`, onclick: () => this.onRemove(s.key) }, icon(ICONS.close)));
    if (m.kind === "sticker" && this.peel) {
      item.setAttribute("aria-label", `Sticker${m.description ? `: ${m.description}` : ""}. Enter to stick it onto a message`);
      this.peel.attach(item, s.key, blobURL(m.image), m.description);
    }
    return item;
  }
}

