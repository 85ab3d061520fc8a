// The base class of every app, like MSMessagesAppViewController. Subclass it,
// override the hooks you need, and call `YourApp.start()` once.
//
// Order of the hooks (the host guarantees it; each waits for the previous one,
// including a promise it returns):
//   opening:     willBecomeActive → (pane shown) → didBecomeActive
//   resizing:    willTransition(to) → (pane resized) → didTransition(to)
//   closing:     willResignActive → (pane hidden) → didResignActive
//   while active: didSelect, didReceive, didStartSending, didCancelSending,
//                 didFailSending, didSendWhileClosed, storageDidChange
//                 (after didBecomeActive or didSelect)

import { AppBridge } from "./bridge.js";
import { Conversation, SessionConflictError } from "./conversation.js";
import { Message } from "./model.js";
import { AppStorage } from "./storage.js";
import { STYLES } from "./protocol.js";

export class MessagesAppViewController {
  constructor() {
    /** @type {"compact" | "expanded" | "transcript" | null} */
    this.presentationStyle = null;
    /** @type {Conversation | null} */
    this.activeConversation = null;
    /** @type {AppStorage | null} per-user storage for this app (set by start) */
    this.storage = null;
    this._bridge = null;
  }

  // ---- hooks: override what you need --------------------------------------

  /** The app is about to be shown; `presentationStyle` and `conversation.selectedMessage` are set. Build your UI here. */
  willBecomeActive(conversation) {}
  /** The app is on screen. */
  didBecomeActive(conversation) {}
  /** The app is about to be hidden. Save what must survive. */
  willResignActive(conversation) {}
  /** The app is hidden; its frame is removed shortly after. */
  didResignActive(conversation) {}
  /** The pane is about to change to `style` ("compact" or "expanded"). Switch views here. */
  willTransition(style) {}
  /** The pane now has `style`. */
  didTransition(style) {}
  /** A message of this app arrived in the conversation while the app is active. */
  didReceive(message, conversation) {}
  /** The user tapped one of this app's bubbles while the app is active. */
  didSelect(message, conversation) {}
  /** The user pressed Send with this app's staged message; it is no longer pending. */
  didStartSending(message, conversation) {}
  /** The user removed this app's staged message from the composer. */
  didCancelSending(message, conversation) {}
  /**
   * A message this app staged was sent while the app was closed (the pane
   * closed after the insert, then Send): handed over once, when the app is
   * next active in that conversation, after didBecomeActive. Drop what you
   * kept of that move (a draft) as if you had seen it go.
   */
  didSendWhileClosed(message, conversation) {}
  /**
   * This user's storage of this app changed on another of their devices (or tabs)
   * while the app is active: `key` now holds `value` (null: removed). What
   * `storage.get` reads is already the new value. Show it; a value you keep in
   * memory and write back whole (a list, a set) should merge with it, not
   * overwrite it. Not called for this app's own writes.
   */
  storageDidChange(key, value) {}
  /**
   * A move of this app was refused because someone moved its session first,
   * and the app was not there to hear it (closed before the refusal came
   * back, e.g. sent offline): handed over once the app is active again in
   * that conversation, on that session (or opened from the drawer). `message`
   * is the refused move as it was composed (`baseVersion`: the version it was
   * based on); `error` is a SessionConflictError: `current` is the session's
   * message that won, `base` the one the move was based on (or null). Merge
   * as after a refused insert. Return false to leave the move to the person
   * (its grey copy stays and it is offered again); the default does.
   * @returns {boolean | void | Promise<boolean | void>}
   */
  didFailSending(message, error, conversation) {
    return false;
  }
  /**
   * Live layouts only (presentation style "transcript"): the size of the
   * bubble for a given width. The default measures the document.
   * @param {{width: number}} size
   * @returns {{width: number, height: number}}
   */
  contentSizeThatFits(size) {
    const body = document.body;
    const style = getComputedStyle(body);
    const height = body.getBoundingClientRect().height + parseFloat(style.marginTop) + parseFloat(style.marginBottom);
    return { width: size.width, height: Math.ceil(height) };
  }

  // ---- what an app can ask for ----------------------------------------------

  /** Asks the host for "compact" or "expanded"; resolves after didTransition. */
  requestPresentationStyle(style) {
    return this._bridge.call("requestPresentationStyle", { style });
  }

  /** Closes the app (willResignActive and didResignActive follow). */
  dismiss() {
    return this._bridge.call("dismiss", {});
  }

  /** Connects an instance to the host and starts the lifecycle. */
  static start(...args) {
    return start(new this(...args));
  }
}

/**
 * Connects a controller to the host.
 * @param {MessagesAppViewController} controller
 * @param {Window} [win]
 */
export function start(controller, win = globalThis.window) {
  const bridge = new AppBridge(win);
  controller._bridge = bridge;
  controller.storage = new AppStorage(bridge);
  let conversation = null;

  const message = (snap) => {
    if (conversation && snap && snap.ref && conversation._staged.has(snap.ref)) return conversation._staged.get(snap.ref);
    return Message.fromSnapshot(snap);
  };

  bridge.onEvent = async (name, data) => {
    switch (name) {
      case "willBecomeActive":
        conversation = new Conversation(bridge, data.conversation);
        controller.activeConversation = conversation;
        controller.presentationStyle = data.style;
        markStyle(data.style);
        return controller.willBecomeActive(conversation);
      case "didBecomeActive": {
        const done = await controller.didBecomeActive(conversation);
        if (controller.presentationStyle === "transcript") followContentSize(controller, bridge);
        return done;
      }
      case "willResignActive":
        return controller.willResignActive(conversation);
      case "didResignActive":
        await controller.didResignActive(conversation);
        return undefined;
      case "willTransition":
        return controller.willTransition(data.style);
      case "didTransition":
        controller.presentationStyle = data.style;
        markStyle(data.style);
        return controller.didTransition(data.style);
      case "didSelect": {
        conversation._update(data.conversation);
        return controller.didSelect(conversation.selectedMessage, conversation);
      }
      case "didReceive":
        conversation._update(data.conversation);
        return controller.didReceive(message(data.message), conversation);
      case "didStartSending": {
        const m = message(data.message);
        m.isPending = false;
        return controller.didStartSending(m, conversation);
      }
      case "didCancelSending":
        return controller.didCancelSending(message(data.message), conversation);
      case "didSendWhileClosed":
        return controller.didSendWhileClosed(Message.fromSnapshot(data.message), conversation);
      case "didFailSending": {
        conversation._update(data.conversation);
        const refused = Message.fromSnapshot(data.message);
        refused.isPending = false;
        refused.baseVersion = refused.sessionVersion; // never stored: it holds no version of its own
        refused.sessionVersion = null;
        // the winner after the refused move: the shared Session's version moves up to it
        const error = new SessionConflictError("someone else updated this first", Message.fromSnapshot(data.current));
        error.base = data.base ? Message.fromSnapshot(data.base) : null;
        const taken = await controller.didFailSending(refused, error, conversation);
        return { taken: taken !== false };
      }
      case "conversationDidChange":
        conversation?._update(data.conversation);
        return undefined;
      case "storageDidChange":
        return controller.storageDidChange(data.key, data.value ?? null);
      case "contentSizeThatFits":
        return controller.contentSizeThatFits({ width: data.width });
      default:
        return undefined;
    }
  };
  bridge.call("ready", {}).catch(() => {});
  return controller;
}

const following = new WeakSet();

/**
 * A live bubble follows its content: what is drawn after it was first measured (an
 * image that loaded, a stored value read) or a new width measures it again, and the
 * host is told the new height (it was cut off at the first one).
 */
function followContentSize(controller, bridge) {
  // once: a live bubble told of its session's next message becomes active again
  if (!globalThis.ResizeObserver || !globalThis.document?.body || following.has(controller)) return;
  following.add(controller);
  let last = null;
  new ResizeObserver(() => {
    const size = controller.contentSizeThatFits({ width: document.documentElement.clientWidth });
    const height = size && Number.isFinite(size.height) ? Math.ceil(size.height) : null;
    if (height === null || height === last) return;
    last = height;
    bridge.call("contentSize", { height }).catch(() => {});
  }).observe(document.body);
}

/** Lets an app's CSS follow the style: html[data-presentation-style="expanded"]. */
function markStyle(style) {
  if (globalThis.document) document.documentElement.dataset.presentationStyle = style;
}

export const PresentationStyle = STYLES;
