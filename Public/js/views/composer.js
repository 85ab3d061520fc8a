// The composer: what an app staged (with a remove button each), the text box
// and Send. Enter sends, Shift+Enter starts a new line; on a touch screen return
// starts a new line and Send sends. The draft is saved as it is typed, so nothing
// typed is lost to a reconnect or a reload.

import { h, icon, ICONS } from "./dom.js";
import { blobURL } from "./bubble.js";
import { isBlank } from "../state/composer.js";
import { VoiceRecorder } from "./recorder.js";

// A phone's keyboard has no Shift+Enter: return sent a message half written where
// someone wanted a new line. As in Messages, return starts a line there; Send sends.
const returnStartsALine = () => matchMedia("(pointer: coarse)").matches;

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
   * @param {(seq: number, text: string) => Promise<boolean>} [opts.onSaveEdit] Enter while editing one's
   *   message: resolves true once saved (the box then goes back to the draft), false to stay editing
   * @param {(seq: number | null) => void} [opts.onEditing] the message being edited, or none any more
   * @param {(blob: Blob, durationMs: number) => void} [opts.onVoice] a voice message recorded (views/recorder.js)
   * @param {(file: File) => Promise<void>} [opts.onPhoto] a picture picked to send: staged, or a
   *   rejection whose message says why not (views/photo.js)
   */
  constructor(el, { onSend, onRemove, onDraft, onToggleDrawer, peel, onCancelReply = () => {}, onSaveEdit = async () => false, onEditing = () => {}, onVoice = null, onPhoto = null }) {
    this.el = el;
    this.onRemove = onRemove;
    this.onCancelReply = onCancelReply;
    // above the box while the next Send answers a message: whom, one line of it, and a close button
    this.replyEl = h("div", { class: "reply-strip", hidden: true });
    // above the box while it holds a new text for one of one's messages, as in Messages:
    // "Editing message", what it said, and Cancel (or Escape); the draft waits meanwhile
    this.editEl = h("div", { class: "edit-strip", hidden: true });
    /** @type {{seq: number, draft: string, saving?: boolean} | null} */
    this.editing = null;
    this.onSaveEdit = onSaveEdit;
    this.onEditing = onEditing;
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
        if (!this.editing) onDraft(this.input.value); // an edit is not the draft, nor typing
        this.updateSend();
      },
      onkeydown: (e) => {
        if (e.key === "Enter" && !e.shiftKey && !e.isComposing && !returnStartsALine()) {
          e.preventDefault();
          this.submit();
        } else if (e.key === "Escape" && this.editing && !e.isComposing) {
          e.preventDefault();
          e.stopPropagation(); // the edit's, not the app pane's or the drawer's
          this.cancelEdit();
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
    this.voice = new VoiceRecorder({ onRecorded: (blob, ms) => onVoice?.(blob, ms), showNotice: (t) => this.showNotice(t), onChange: () => this.updateSend() });
    if (!onVoice) this.voice.button.hidden = true;
    // a phone offers its camera and its photos for it; a computer its files
    this.photoInput = h("input", { type: "file", accept: "image/*", hidden: true, onchange: () => {
      const file = this.photoInput.files?.[0];
      this.photoInput.value = ""; // the same picture again is a change too
      if (file) this.takePhoto(file);
    } });
    /** A picture picked, pasted or dropped: staged (or refused, saying why). */
    this.takePhoto = (file) => onPhoto?.(file).then(() => this.input.focus(), (error) => this.showNotice(error.message));
    // a screenshot or a copied picture pasted into the box goes as the Photo button's
    // would; text pastes as text
    this.input.addEventListener("paste", (e) => {
      const file = onPhoto && [...(e.clipboardData?.files ?? [])].find((f) => f.type.startsWith("image/"));
      if (!file) return;
      e.preventDefault();
      this.takePhoto(file);
    });
    this.photoButton = h("button", { class: "icon-button", type: "button", "aria-label": "Add a photo", hidden: !onPhoto,
      onclick: () => this.photoInput.click() }, icon(ICONS.photo));
    // Escape anywhere in the composer while recording throws the recording away
    el.addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || !this.voice.recording || e.isComposing) return;
      e.preventDefault();
      e.stopPropagation();
      this.voice.dispatch("cancel");
      this.voice.button.focus();
    }, true);
    el.replaceChildren(this.notice, this.voice.said, this.replyEl, this.editEl, this.voice.strip, this.stagedEl,
      h("div", { class: "composer" }, this.appsButton, this.photoButton, this.photoInput, this.voice.button, this.input, this.sendButton));
  }

  /**
   * The strip that says which message the next Send answers, or none (null).
   * @param {{who: string, line: string, picture?: string} | null} reply  `picture`: a photo's hash
   */
  showReply(reply) {
    this.reply = reply;
    this.replyEl.hidden = !reply || !!this.editing;
    if (!reply) {
      this.replyEl.replaceChildren();
      return;
    }
    const whom = reply.who === "You" ? "yourself" : reply.who;
    this.replyEl.replaceChildren(
      h("div", { class: "reply-strip-text" },
        h("strong", null, `Replying to ${whom}`),
        h("span", { class: "reply-strip-line", dir: "auto" }, reply.line)),
      reply.picture ? h("img", { class: "reply-picture", src: blobURL(reply.picture), alt: "" }) : null,
      h("button", { class: "icon-button", type: "button", "aria-label": "Cancel reply", onclick: () => this.onCancelReply() }, icon(ICONS.close)));
  }

  /**
   * Edit: the box holds the message's text for Enter to save; what was typed before
   * waits (it is put back after) and the reply strip with it.
   * @param {{seq: number, text: string, line: string}} m `line`: one line of what it says
   */
  startEdit({ seq, text, line }) {
    this.editing = { seq, draft: this.editing ? this.editing.draft : this.input.value };
    this.replyEl.hidden = true;
    this.editEl.hidden = false;
    this.editEl.replaceChildren(
      h("div", { class: "reply-strip-text" },
        h("strong", null, "Editing message"),
        h("span", { class: "reply-strip-line", dir: "auto" }, line)),
      h("button", { class: "icon-button", type: "button", "aria-label": "Cancel edit", onclick: () => this.cancelEdit() }, icon(ICONS.close)));
    this.input.value = text;
    this.input.setAttribute("aria-label", "Edit message");
    this.sendButton.setAttribute("aria-label", "Save edit");
    this.autosize();
    this.updateSend();
    this.input.focus();
    this.input.setSelectionRange(text.length, text.length);
    this.onEditing(seq);
  }

  /** The seq of the message the box is editing, or null. */
  get editingSeq() {
    return this.editing?.seq ?? null;
  }

  /** Cancel (or Escape): the box gets back what was typed before. */
  cancelEdit() {
    if (!this.editing) return;
    const { draft } = this.editing;
    this.stopEditing();
    this.setDraft(draft);
    this.input.focus();
  }

  /** Out of editing, leaving the box as it is (another conversation's draft comes next). */
  stopEditing() {
    if (!this.editing) return;
    this.editing = null;
    this.editEl.hidden = true;
    this.editEl.replaceChildren();
    this.input.setAttribute("aria-label", "Message");
    this.sendButton.setAttribute("aria-label", "Send");
    this.replyEl.hidden = !this.reply;
    this.onEditing(null);
  }

  async saveEdit() {
    const e = this.editing;
    if (!e || e.saving || isBlank(this.input.value)) return;
    e.saving = true;
    let saved = false;
    try {
      saved = await this.onSaveEdit(e.seq, this.input.value);
    } finally {
      e.saving = false;
    }
    if (saved && this.editing === e) this.cancelEdit();
  }

  submit() {
    if (this.voice.recording) {
      this.voice.dispatch("stop"); // Send while recording sends the recording
      return;
    }
    if (this.editing) {
      this.saveEdit();
      return;
    }
    if (this.onSend(this.input.value)) {
      this.input.value = "";
      this.autosize();
      this.updateSend();
    }
    this.input.focus();
  }

  setDraft(text) {
    this.stopEditing();
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
    this.sendButton.disabled = isBlank(this.input.value) && (this.staged.length === 0 || !!this.editing) && !this.voice?.recording;
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
    // a picture of one's own (a drawing, a photo) waits in this browser until Send uploads it
    const waiting = s.imageKey && ctx.pendingImage?.(s.imageKey);
    let src;
    let title;
    let sub;
    if (m.kind === "app") {
      const app = ctx.app(m.appId);
      title = ctx.names(m.layout?.caption || m.summaryText || app?.name || m.appId, m.appId);
      sub = app?.name || m.appId;
      src = m.layout?.image ? blobURL(m.layout.image) : waiting || app?.icon;
    } else {
      title = m.kind === "sticker" ? "Sticker" : m.name || "Image";
      sub = m.kind === "sticker" ? m.description || "" : "Picture";
      src = m.image ? blobURL(m.image) : waiting;
    }
    const preview = src ? h("img", { class: "thumb", src, alt: "" }) : null;
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

