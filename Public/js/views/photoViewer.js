// A photo sent in a conversation, seen whole: in the transcript it is at most 260 px a
// side, sent at up to 2048. A tap on it opens it over the page as large as the screen
// lets it be, with who sent it and when, and Save; Close, Escape or a tap beside it put
// it away, and the focus goes back to the photo (the dialog's own).

import { h, icon, ICONS } from "./dom.js";
import { dayAndTime } from "../state/format.js";

export class PhotoViewer {
  constructor() {
    this.image = h("img", { class: "photo-viewer-image", alt: "" });
    this.who = h("h2");
    this.when = h("p");
    this.save = h("a", { class: "button small", download: "" }, "Save");
    // the focus starts on Close (not Save): what most who open it want next
    const close = h("button", { class: "icon-button", type: "button", "aria-label": "Close", autofocus: true, onclick: () => this.dialog.close() }, icon(ICONS.close));
    this.dialog = h("dialog", { id: "photo-viewer", class: "photo-viewer" },
      h("div", { class: "photo-viewer-bar" }, h("div", { class: "photo-viewer-who" }, this.who, this.when), this.save, close),
      // a tap beside the photo closes it, as on a phone's own viewer
      h("div", { class: "photo-viewer-stage", onclick: (e) => e.target !== this.image && this.dialog.close() }, this.image));
    // a closed viewer holds no picture (a phone's memory, a photo deleted meanwhile)
    this.dialog.addEventListener("close", () => this.image.removeAttribute("src"));
    document.body.append(this.dialog);
  }

  /**
   * @param {{src: string, name?: string, who: string, at?: number, conversationId?: string, seq?: number}} photo
   *   `conversationId` and `seq`: which message it is (none while it is still sending)
   */
  show({ src, name, who, at, conversationId, seq }) {
    this.of = seq ? { conversationId, seq } : null;
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
    this.dialog.showModal();
  }

  /**
   * Puts the photo away once its message is deleted (by its sender, or an admin taking
   * it down everywhere); true if it did.
   * @param {(of: {conversationId: string, seq: number}) => boolean} deleted
   */
  closeIfDeleted(deleted) {
    if (!this.dialog.open || !this.of || !deleted(this.of)) return false;
    this.dialog.close();
    return true;
  }
}
