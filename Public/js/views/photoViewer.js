// A photo sent in a conversation, seen whole: in the transcript it is at most 260 px a
// side, sent at up to 2048. A tap on it opens it over the page as large as the screen
// lets it be, with who sent it and when, and Save; Close, Escape or a tap beside it put
// it away, and the focus goes back to the photo (the dialog's own). The conversation's
// other photos are a swipe, an arrow key or Previous and Next away, as in Messages.

import { h, icon, ICONS } from "./dom.js";
import { dayAndTime } from "../state/format.js";

/** How far a finger must move sideways, more than up or down, for a swipe (px). */
const SWIPE_PX = 50;

/**
 * @typedef {{src: string, name?: string, who: string, at?: number, conversationId?: string, seq?: number}} Photo
 *   `conversationId` and `seq`: which message it is (none while it is still sending)
 */

export class PhotoViewer {
  /**
   * @param {object} [how]
   * @param {(photo: Photo, step: -1 | 1) => Photo | null} [how.beside]  the conversation's
   *   photo before (-1) or after (1) this one, among the messages held
   * @param {(conversationId: string, seq: number) => boolean} [how.deleted]  whether that
   *   message is deleted now
   */
  constructor({ beside = () => null, deleted = () => false } = {}) {
    this.beside = beside;
    this.deleted = deleted;
    this.image = h("img", { class: "photo-viewer-image", alt: "" });
    this.who = h("h2");
    this.when = h("p");
    this.save = h("a", { class: "button small", download: "" }, "Save");
    // the focus starts on Close (not Save): what most who open it want next
    const close = h("button", { class: "icon-button", type: "button", "aria-label": "Close", autofocus: true, onclick: () => this.dialog.close() }, icon(ICONS.close));
    this.previous = h("button", { class: "icon-button photo-viewer-step", type: "button", "aria-label": "Previous photo", onclick: () => this.step(-1) }, icon(ICONS.back));
    this.next = h("button", { class: "icon-button photo-viewer-step", type: "button", "aria-label": "Next photo", onclick: () => this.step(1) }, icon(ICONS.next));
    const stage = h("div", { class: "photo-viewer-stage" }, this.image);
    // a tap beside the photo closes it, as on a phone's own viewer (not the tap a swipe ends in)
    stage.addEventListener("click", (e) => {
      if (this.swiped) this.swiped = false;
      else if (e.target !== this.image) this.dialog.close();
    });
    this.body = h("div", { class: "photo-viewer-body" }, this.previous, stage, this.next);
    this.dialog = h("dialog", { id: "photo-viewer", class: "photo-viewer" },
      h("div", { class: "photo-viewer-bar" }, h("div", { class: "photo-viewer-who" }, this.who, this.when), this.save, close),
      this.body);
    this.dialog.addEventListener("keydown", (e) => {
      if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
      e.preventDefault();
      this.step(e.key === "ArrowLeft" ? -1 : 1);
    });
    this.followSwipes(stage);
    // a closed viewer holds no picture (a phone's memory, a photo deleted meanwhile)
    this.dialog.addEventListener("close", () => this.image.removeAttribute("src"));
    document.body.append(this.dialog);
  }

  /** @param {Photo} photo */
  show(photo) {
    this.photo = photo;
    const { src, name, who, at } = photo;
    this.image.src = src;
    this.image.alt = name || "Photo";
    this.who.textContent = who;
    this.dialog.setAttribute("aria-label", who === "You" ? "Your photo" : `Photo from ${who}`);
    this.when.textContent = at ? dayAndTime(at) : "";
    this.when.hidden = !at;
    this.save.href = src;
    // without its extension: "beach.png" was sent drawn again as a JPEG, and the browser
    // names the file by the type the server gives it
    this.save.download = (name || "photo").replace(/\.[a-z0-9]{1,5}$/i, "") || "photo";
    this.save.setAttribute("aria-label", `Save ${name || "photo"}`);
    this.previous.hidden = !this.beside(photo, -1);
    this.next.hidden = !this.beside(photo, 1);
    // a conversation's only photo takes the whole width
    this.body.classList.toggle("alone", this.previous.hidden && this.next.hidden);
    if (!this.dialog.open) this.dialog.showModal();
  }

  /** The photo before (-1) or after (1), if there is one; the focus stays where it was
   * unless its button went (the first or the last photo reached). */
  step(direction) {
    const to = this.photo && this.beside(this.photo, direction);
    if (!to) return;
    const button = direction < 0 ? this.previous : this.next;
    this.show(to);
    if (button.hidden && document.activeElement === button) (direction < 0 ? this.next : this.previous).focus();
  }

  followSwipes(stage) {
    let start = null;
    stage.addEventListener("pointerdown", (e) => {
      // a swipe is followed by a click in some browsers, not in others: the next press starts afresh
      this.swiped = false;
      start = e.pointerType === "mouse" ? null : { x: e.clientX, y: e.clientY };
    });
    stage.addEventListener("pointerup", (e) => {
      if (!start) return;
      const dx = e.clientX - start.x;
      const dy = e.clientY - start.y;
      start = null;
      this.swiped = Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > 2 * Math.abs(dy);
      if (this.swiped) this.step(dx < 0 ? 1 : -1);
    });
    stage.addEventListener("pointercancel", () => { start = null; });
  }

  /**
   * Puts the photo away once its message is deleted (by its sender, or an admin taking
   * it down everywhere); true if it did.
   */
  closeIfDeleted() {
    const of = this.photo;
    if (!this.dialog.open || !of?.seq || !of.conversationId || !this.deleted(of.conversationId, of.seq)) return false;
    this.dialog.close();
    return true;
  }
}
