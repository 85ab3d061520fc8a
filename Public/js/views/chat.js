// The conversation column: header, transcript, composer, drawer and the app
// pane, or a friendly empty state when no conversation is open.

import { h } from "./dom.js";
import { HeaderView } from "./header.js";
import { TranscriptView } from "./transcript.js";
import { ComposerView } from "./composer.js";
import { DrawerView } from "./drawer.js";
import { StickerPeel } from "./peel.js";

export class ChatView {
  /**
   * @param {HTMLElement} el the <main> column
   * @param {object} handlers the callbacks of the header, transcript, composer and drawer
   */
  constructor(el, handlers) {
    this.el = el;
    this.empty = h("div", { class: "chat-empty" },
      h("div", { class: "big", "aria-hidden": "true" }, "💬"),
      h("h2", null, "Pick a conversation"),
      h("p", null, "Or start a new one with +, and invite friends with a link."));
    this.headerEl = h("header", { class: "chat-header" });
    this.transcriptEl = h("div", { class: "transcript", id: "transcript", role: "log", "aria-label": "Messages", "aria-live": "off", tabindex: "0" });
    this.composerEl = h("div", { class: "composer-area" });
    // floats over the transcript's foot, taking no room: a line that came and went
    // would move the conversation up and down as someone typed. A status (polite):
    // a screen reader hears "Ben is typing…" as others see it; its wrapper stays
    // shown, as a live region that appears with its text is not read out
    this.typingLine = h("p", { class: "typing-line", hidden: true });
    this.typingEl = h("div", { class: "typing-anchor", role: "status" }, this.typingLine);
    this.leftNote = h("div", { class: "left-banner", id: "left-banner", role: "status", hidden: true });
    // a direct conversation with someone this user blocked: a send would be refused
    this.blockedText = h("p", { role: "status" });
    this.unblockButton = h("button", { class: "button small", type: "button", onclick: () => this.blocked && handlers.onUnblock(this.blocked) }, "Unblock");
    this.blockedNote = h("div", { class: "left-banner blocked-banner", id: "blocked-banner", hidden: true }, this.blockedText, this.unblockButton);
    /** {userId, name} of the person blocked, while the open conversation is with them */
    this.blocked = null;
    this.drawerEl = h("div", { class: "drawer", role: "region" });
    this.paneEl = h("section", { class: "pane", id: "app-pane", role: "region" });
    this.header = new HeaderView(this.headerEl, handlers);
    this.transcript = new TranscriptView(this.transcriptEl, handlers);
    const peel = new StickerPeel({ transcript: this.transcriptEl, onStick: handlers.onStick, announce: handlers.announce });
    this.composer = new ComposerView(this.composerEl, { ...handlers, peel });
    this.drawer = new DrawerView(this.drawerEl, handlers);
    this.live = [this.headerEl, this.transcriptEl, this.typingEl, this.composerEl, this.drawerEl, this.paneEl];
    el.replaceChildren(this.empty, ...this.live, this.leftNote, this.blockedNote);
    this.showConversation(false);
    this.takeDroppedPictures(el);
  }

  /**
   * A picture dragged from the computer onto the conversation goes in the message box,
   * as the Photo button's would (a file that is no picture is refused there, saying so).
   * Dropped anywhere else, a file does nothing: the browser would leave Parlor to show it.
   */
  takeDroppedPictures(el) {
    const files = (e) => e.dataTransfer?.types.includes("Files");
    const open = () => !this.composerEl.hidden && !this.composer.photoButton.hidden;
    el.addEventListener("dragover", (e) => {
      if (!files(e) || !open()) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
      el.classList.add("dropping");
    });
    el.addEventListener("dragleave", (e) => {
      if (!el.contains(/** @type {Node | null} */ (e.relatedTarget))) el.classList.remove("dropping");
    });
    el.addEventListener("drop", (e) => {
      el.classList.remove("dropping");
      const file = files(e) && open() ? e.dataTransfer.files[0] : null;
      if (!file) return;
      e.preventDefault();
      this.composer.takePhoto(file);
    });
    for (const type of ["dragover", "drop"]) {
      document.addEventListener(type, (e) => files(e) && e.preventDefault());
    }
  }

  /**
   * A conversation this user left or was removed from: its transcript stays
   * readable, the composer gives way to a line saying why nothing can be sent.
   * @param {string | null} text
   */
  setLeft(text) {
    this.leftNote.textContent = text || "";
    this.leftNote.hidden = !text;
    this.placeComposer();
  }

  /**
   * A direct conversation with someone this user blocked: the composer gives way to
   * "You blocked Ben." and Unblock, which brings it back. Null: no block.
   * @param {{userId: string, name: string} | null} person
   */
  setBlocked(person) {
    const had = this.blocked;
    this.blocked = person;
    if (person && (had?.userId !== person.userId || had?.name !== person.name)) {
      this.blockedText.textContent = `You blocked ${person.name}.`;
      this.unblockButton.setAttribute("aria-label", `Unblock ${person.name}`);
    }
    if (!person) this.blockedText.textContent = "";
    this.placeComposer();
  }

  /** The composer, or the line saying why nothing can be sent (having left says more than a block). */
  placeComposer() {
    const left = !this.leftNote.hidden;
    const hadFocus = this.blockedNote.contains(document.activeElement);
    this.blockedNote.hidden = left || !this.blocked || this.empty.hidden === false;
    this.composerEl.hidden = left || !!this.blocked || this.empty.hidden === false;
    // unblocked: the focus, left on a button that went, goes to the message box that came
    if (hadFocus && this.blockedNote.hidden && !this.composerEl.hidden) this.composer.input.focus();
  }

  /** "Ben is typing…", or nothing. */
  setTyping(text) {
    this.typingLine.textContent = text;
    this.typingLine.hidden = !text;
  }

  showConversation(on) {
    this.empty.hidden = on;
    for (const part of this.live) {
      if (part === this.paneEl || part === this.drawerEl) continue; // these show themselves
      part.hidden = !on;
    }
    if (!on) this.drawer.open = false;
    if (!on) this.leftNote.hidden = true;
    if (!on) this.blockedNote.hidden = true;
  }
}
