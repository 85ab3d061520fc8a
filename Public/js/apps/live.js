// Live bubbles: a message with a LiveLayout is drawn by its app, inside the
// bubble, in the "transcript" presentation style, for viewers who have the
// app. The frame only draws: tapping the bubble opens the app expanded, and
// the only calls it may make are to size itself and read its storage.

import { h } from "../views/dom.js";
import { AppFrame } from "./frame.js";
import { appIcon } from "../views/appIcon.js";
import { appMessageSnapshot, conversationSnapshot } from "./snapshot.js";

const MIN_HEIGHT = 60;
const MAX_HEIGHT = 420;

const refused = (code, message) => Object.assign(new Error(message), { code });

export class LiveBubbles {
  /**
   * @param {object} deps
   * @param {import("../store.js").Store} deps.store
   * @param {import("../sync.js").Sync} deps.sync
   * @param {import("./registry.js").AppCatalog} deps.catalog
   * @param {(message: object) => void} deps.open  opens the app expanded on the message
   */
  constructor({ store, sync, catalog, open }) {
    Object.assign(this, { store, sync, catalog, open });
    /** @type {Map<string, {message: object, el: HTMLElement, frame: AppFrame}>} */
    this.live = new Map();
  }

  /**
   * The bubble for a live message, or null when the app is unknown here.
   * @param {string} conversationId
   * @param {object} message
   * @param {string} label what the bubble says, for screen readers
   * @param {() => HTMLElement | null} [standIn] the template's picture, shown until the app has drawn
   */
  view(conversationId, message, label, standIn = () => null) {
    const app = this.catalog.get(message.appId);
    if (!app) return null;
    const key = `${conversationId}:${message.seq}`;
    const known = this.live.get(key);
    if (known && known.message === message) return known.el;
    if (known) known.frame.destroy();
    const frame = new AppFrame({
      app, style: "transcript",
      handle: (method, args, f) => this.handle(f, method, args, message.appId),
      // the bubble moved into a row made again (a member joined, a name changed): its
      // page loaded again, blank until started
      onRestart: () => this.activate(conversationId, message, frame),
      // the app's page is gone from the frame (it navigated away): its picture again
      onLost: () => {
        if (picture && !picture.isConnected) el.prepend(picture);
        el.classList.add("drawing");
      },
    });
    frame.iframe.className = "live-frame";
    frame.iframe.setAttribute("tabindex", "-1");
    const picture = standIn();
    const el = h("div", { class: ["bubble", "app-bubble", "live-bubble", "drawing"], dataset: { live: "" } },
      picture,
      frame.iframe,
      h("div", { class: "app-footer" }, appIcon(app, "small"), h("span", null, app.name)),
      h("button", { class: "live-open", type: "button", "aria-label": `Open ${label}`, onclick: () => this.open(message) }));
    this.live.set(key, { message, el, frame });
    this.activate(conversationId, message, frame).then((drawn) => {
      if (!drawn) return; // an app that does not start: its picture stays
      picture?.remove();
      el.classList.remove("drawing");
    });
    return el;
  }

  /** Starts the app in the bubble; true once it has drawn and been sized. */
  async activate(conversationId, message, frame) {
    try {
      await frame.ready;
      const participants = await this.sync.participants(conversationId, message.appId);
      const c = this.store.conversation(conversationId);
      const selected = appMessageSnapshot(message, { origin: location.origin });
      const conversation = conversationSnapshot(participants, this.store.state.user.id, c ? c.members : [], selected);
      await frame.hook("willBecomeActive", { style: "transcript", conversation });
      await frame.hook("didBecomeActive", {});
      const size = await frame.hook("contentSizeThatFits", { width: frame.iframe.clientWidth || 300 });
      if (!size || typeof size.height !== "number") return false;
      this.resize(frame, size.height);
      return true;
    } catch {
      return false; // the tap still opens it
    }
  }

  resize(frame, height) {
    frame.iframe.style.height = `${Math.max(MIN_HEIGHT, Math.min(MAX_HEIGHT, Math.ceil(height)))}px`;
  }

  async handle(frame, method, args, appId) {
    switch (method) {
      case "contentSize":
        this.resize(frame, args.height);
        return null;
      case "storage.get": {
        const data = await this.sync.appData(appId);
        return Object.prototype.hasOwnProperty.call(data, args.key) ? data[args.key] : null;
      }
      case "storage.keys":
        return Object.keys(await this.sync.appData(appId));
      default:
        throw refused("not_in_transcript", `${method} is not available to a live bubble; open the app first`);
    }
  }

  /** Ends the frames whose bubbles left the page. */
  sweep() {
    for (const [key, entry] of this.live) {
      if (!entry.el.isConnected) {
        entry.frame.destroy();
        this.live.delete(key);
      }
    }
  }
}
