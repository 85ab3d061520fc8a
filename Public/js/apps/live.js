// Live bubbles: a message with a LiveLayout is drawn by its app, inside the
// bubble, in the "transcript" presentation style, for viewers who have the
// app. The frame only draws: tapping the bubble opens the app expanded, and
// the only calls it may make are to size itself and read its storage.

import { h } from "../views/dom.js";
import { AppFrame } from "./frame.js";
import { appIcon } from "../views/appIcon.js";
import { appMessageSnapshot, conversationSnapshot } from "./snapshot.js";
import { rowsMoved } from "../views/rowOrder.js";

const MIN_HEIGHT = 60;
const MAX_HEIGHT = 420;

const refused = (code, message) => Object.assign(new Error(message), { code });

/**
 * Moving a frame keeps its page (Chromium 133+, Firefox 144+). Elsewhere (Safari) a frame
 * moved in the page loads its page again, so there the frame stays where it is and the
 * row around it takes the newer row's content (keepInPlace).
 */
const CAN_MOVE = typeof Element !== "undefined" && typeof Element.prototype.moveBefore === "function";

let parked = null;
/** Where a frame waits, in the page and out of sight, while its bubble is made again. */
function parking() {
  if (!parked?.isConnected) {
    parked = h("div", { class: "live-parking", "aria-hidden": "true" });
    document.body.append(parked);
  }
  return parked;
}

/**
 * @typedef {object} LiveEntry
 * @property {string} conversationId
 * @property {object} message  the message the frame draws
 * @property {HTMLElement} el  its bubble
 * @property {AppFrame} frame
 * @property {HTMLElement | null} picture  the template's picture, shown until drawn
 * @property {boolean} drawn
 * @property {HTMLElement | null} moving  where the frame goes in a new bubble (until sweep)
 * @property {HTMLElement | null} staying  the stand-in for the bubble in its row made again, where the bubble stays (until keepInPlace)
 * @property {boolean} newer  the frame moved on to a newer message, not yet told of it
 * @property {(() => HTMLElement | null) | undefined} standIn  makes the message's template picture (stay)
 * @property {Promise<void> | null} selecting  the frame being told of newer messages, in order
 */

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
    /** @type {Map<string, LiveEntry>} */
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
    const prior = known ?? this.priorOfSession(conversationId, message);
    // its row made again (a member joined, a name changed) or a newer message of its
    // session: a frame that has drawn goes on, where a new one would start blank
    if (prior?.drawn && prior.el.isConnected) {
      return CAN_MOVE ? this.adopt(key, app, message, label, prior) : this.stay(key, message, label, prior, standIn);
    }
    if (known && known.message === message) return known.el;
    if (known) known.frame.destroy();
    /** @type {LiveEntry} */
    const entry = { conversationId, message, el: null, frame: null, picture: standIn(), drawn: false, moving: null, staying: null, newer: false, selecting: null };
    const frame = new AppFrame({
      app, style: "transcript",
      handle: (method, args, f) => this.handle(f, method, args, message.appId),
      // the frame moved in the page and loaded its page again (a browser without
      // moveBefore, the bubble's row not kept: unstay): the app starts over
      onRestart: () => this.start(entry),
      // the app's page is gone from the frame (it navigated away): its picture again
      onLost: () => showPicture(entry),
    });
    frame.iframe.className = "live-frame";
    frame.iframe.setAttribute("tabindex", "-1");
    entry.frame = frame;
    entry.el = this.bubble(app, label, entry, [entry.picture, frame.iframe], true);
    this.live.set(key, entry);
    this.start(entry);
    return entry.el;
  }

  /** Starts the app on the entry's message; its picture shows until it has drawn, and for good if it cannot start. */
  start(entry) {
    this.activate(entry.conversationId, entry.message, entry.frame).then((drawn) => {
      if (!drawn) return;
      entry.drawn = true;
      entry.picture?.remove();
      entry.el.classList.remove("drawing");
    });
  }

  /** The bubble: what it draws, the app's name, and a button over it all that opens the entry's message. */
  bubble(app, label, entry, content, drawing) {
    return h("div", { class: ["bubble", "app-bubble", "live-bubble", drawing && "drawing"], dataset: { live: "" } },
      ...content,
      h("div", { class: "app-footer" }, appIcon(app, "small"), h("span", null, app.name)),
      h("button", { class: "live-open", type: "button", "aria-label": `Open ${label}`, onclick: () => this.open(entry.message) }));
  }

  /** The live bubble drawn for an earlier message of the same session, if any. */
  priorOfSession(conversationId, message) {
    const id = message.session?.id;
    if (!id || message.seq === undefined) return null;
    let prior = null;
    for (const e of this.live.values()) {
      if (e.conversationId !== conversationId || e.message.appId !== message.appId || e.message.session?.id !== id) continue;
      if (e.message.seq < message.seq && (!prior || e.message.seq > prior.message.seq)) prior = e;
    }
    return prior;
  }

  /**
   * A newer message of a session drawn live (or its row made again): its frame, already
   * drawn, goes on in the new bubble and is told of the message, so the bubble changes
   * in place, where a new frame would show the template's picture until it had started.
   * The frame waits in a parking place that is in the page (moveBefore keeps a frame's
   * page only between two places in it) until the new row is (sweep).
   */
  adopt(key, app, message, label, prior) {
    this.rekey(key, message, prior);
    const slot = h("div", { class: "live-slot" });
    slot.style.height = prior.frame.iframe.style.height;
    parking().moveBefore(prior.frame.iframe, null);
    prior.picture = null;
    prior.moving = slot;
    prior.el = this.bubble(app, label, prior, [slot], false);
    return prior.el;
  }

  /**
   * The same, where a frame cannot move without loading again: the bubble stays where it
   * is, and its new row gets a stand-in, which keepInPlace swaps for the bubble by keeping
   * the old row and giving it the new row's content.
   */
  stay(key, message, label, prior, standIn) {
    if (prior.message !== message) prior.picture = null; // the newer message's, if it must start again (unstay)
    this.rekey(key, message, prior);
    // the same button (it may have the focus), for the newer message
    prior.el.querySelector(":scope > .live-open")?.setAttribute("aria-label", `Open ${label}`);
    prior.staying = h("div", { class: "live-slot" });
    prior.standIn = standIn;
    return prior.staying;
  }

  rekey(key, message, entry) {
    this.live.delete(`${entry.conversationId}:${entry.message.seq}`);
    entry.newer ||= entry.message !== message;
    entry.message = message;
    this.live.set(key, entry);
  }

  /**
   * Before the transcript puts its rows in place: each row made around a bubble that
   * stays (stay) is replaced in `wanted` by the bubble's own row, given the new row's
   * content around the bubble. Only where the transcript's reconcile would then move no
   * kept row and no other frame (rows move there by insertBefore); else the bubble goes
   * into its new row and its page loads again. Returns [made, kept] pairs.
   * @param {HTMLElement[]} wanted  the transcript's rows, in order
   * @param {HTMLElement} container  the transcript element
   */
  keepInPlace(wanted, container) {
    const swaps = [];
    for (const entry of this.live.values()) {
      if (!entry.staying) continue;
      const made = entry.staying.parentElement;
      const kept = entry.el.parentElement;
      const at = made ? wanted.indexOf(made) : -1;
      if (at >= 0 && kept?.parentElement === container && !wanted.includes(kept)) swaps.push({ entry, made, kept, at });
    }
    const ok = swaps.length > 0 && keepsFrames(swaps, wanted, container);
    for (const { entry, made, kept, at } of ok ? swaps : []) {
      takeContent(kept, made, entry.staying, entry.el);
      wanted[at] = kept;
      entry.staying = null;
      if (entry.newer) this.reselect(entry);
    }
    for (const entry of this.live.values()) this.unstay(entry);
    return ok ? swaps.map(({ made, kept }) => [made, kept]) : [];
  }

  /**
   * A bubble whose row could not be kept goes into its new row: its page loads again, and
   * the app starts on the message (onRestart), the message's picture shown meanwhile.
   */
  unstay(entry) {
    if (!entry.staying) return;
    entry.picture ??= entry.standIn?.() ?? null;
    showPicture(entry);
    entry.staying.replaceWith(entry.el);
    entry.staying = null;
    entry.newer = false;
  }

  /** Tells a frame that moved on to a newer message about it: its app draws that one. */
  reselect(entry) {
    const { frame } = entry;
    entry.newer = false;
    entry.selecting = (entry.selecting ?? Promise.resolve()).then(async () => {
      await frame.hook("willResignActive", {});
      await frame.hook("didResignActive", {});
      if (!frame.closed) await this.activate(entry.conversationId, entry.message, frame);
    });
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

  /** Puts frames that moved on into their new bubbles; ends the frames whose bubbles left the page. */
  sweep() {
    for (const entry of this.live.values()) {
      this.unstay(entry); // a row made outside the transcript's render
      if (!entry.moving) continue;
      if (entry.el.isConnected) {
        entry.el.moveBefore(entry.frame.iframe, entry.moving);
        if (entry.newer) this.reselect(entry);
      }
      entry.moving.remove();
      entry.moving = null;
    }
    for (const [key, entry] of this.live) {
      if (!entry.el.isConnected) {
        entry.frame.destroy();
        this.live.delete(key);
      }
    }
  }
}

/** Whether the rows kept (`swaps`) would stay, and no other frame would move, as the transcript puts `wanted` in place. */
function keepsFrames(swaps, wanted, container) {
  const trial = [...wanted];
  for (const { kept, at } of swaps) trial[at] = kept;
  const moved = rowsMoved(trial, container);
  return !swaps.some(({ kept }) => moved.has(kept)) && ![...moved].some((row) => row.querySelector("iframe"));
}

function showPicture(entry) {
  if (entry.picture && !entry.picture.isConnected) entry.el.prepend(entry.picture);
  entry.el.classList.add("drawing");
}

/** `kept` becomes `made` (its attributes and content), all but `bubble`, which stays put and takes what was put on `slot` (stickers). */
function takeContent(kept, made, slot, bubble) {
  for (const name of kept.getAttributeNames()) if (!made.hasAttribute(name)) kept.removeAttribute(name);
  for (const name of made.getAttributeNames()) kept.setAttribute(name, made.getAttribute(name));
  for (const child of [...kept.childNodes]) if (child !== bubble) child.remove();
  const content = [...made.childNodes];
  const at = content.indexOf(slot);
  bubble.before(...content.slice(0, at));
  bubble.after(...content.slice(at + 1));
  for (const stuck of bubble.querySelectorAll(":scope > .stuck")) stuck.remove();
  bubble.append(...slot.childNodes);
}
