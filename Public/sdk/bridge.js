// The app side of the postMessage bridge. An app frame is sandboxed with an
// opaque origin, so it talks to exactly one party: its parent window, the
// Parlor host. Replies and events are accepted only from that window.

import { BRIDGE_VERSION, BridgeError, checkHostMessage } from "./protocol.js";

export class AppBridge {
  /**
   * @param {Window} win  the app's window (for tests: anything with
   *   addEventListener and a `parent` with postMessage)
   */
  constructor(win = globalThis.window) {
    this.win = win;
    this.host = win.parent;
    this.nextId = 1;
    this.waiting = new Map();
    /** @type {(name: string, data: object) => unknown} */
    this.onEvent = () => undefined;
    win.addEventListener("message", (e) => this.receive(e));
    // The host guards the keyboard: focus that reaches this frame without a
    // gesture in it is taken back. Telling it when the focus arrives lets a
    // click or tap in the app keep it (the browser vouches for the gesture).
    win.addEventListener("focus", () => this.notice("focused"));
    // Escape closes the pane, as in the host, unless the app used the key.
    win.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && !e.defaultPrevented) this.notice("escape");
    });
  }

  notice(name) {
    this.postWithActivation({ type: "notice", name });
  }

  /** includeUserActivation: the host's MessageEvent then carries this frame's
   * activation state, filled in by the browser (the host's frame.js trusts it). */
  postWithActivation(msg) {
    this.host.postMessage({ parlor: BRIDGE_VERSION, ...msg }, { targetOrigin: "*", includeUserActivation: true });
  }

  post(msg) {
    // The host's origin is not knowable from an opaque-origin frame, hence "*";
    // what we send is only ever meant for the host and holds nothing secret.
    this.host.postMessage({ parlor: BRIDGE_VERSION, ...msg }, "*");
  }

  /**
   * Calls a host method; resolves with its value, rejects with a BridgeError.
   * @param {string} method
   * @param {object} [args]
   */
  call(method, args = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      // with this frame's activation: a send() right after a tap in the app is
      // then proven to follow it
      try {
        this.postWithActivation({ type: "call", id, method, args });
      } catch (error) {
        // args the browser cannot copy (a function, a DOM node): no answer will come
        this.waiting.delete(id);
        reject(new BridgeError("invalid_call", `${method}: ${error.message || "its arguments cannot be sent to the host"}`));
      }
    });
  }

  receive(event) {
    if (event.source !== this.host) return;
    const msg = checkHostMessage(event.data);
    if (!msg) return;
    if (msg.type === "reply") {
      const w = this.waiting.get(msg.re);
      if (!w) return;
      this.waiting.delete(msg.re);
      if (msg.ok) w.resolve(msg.value);
      else {
        const err = msg.error || {};
        w.reject(new BridgeError(String(err.code || "error"), String(err.message || "the host refused"), { current: err.current }));
      }
      return;
    }
    // An event: run the hook, then tell the host it has returned (the host
    // waits for that to keep the lifecycle in order).
    Promise.resolve()
      .then(() => this.onEvent(msg.name, msg.data))
      .catch((error) => {
        console.error(`Parlor SDK: ${msg.name} threw`, error);
        return undefined;
      })
      .then((value) => this.post({ type: "ack", re: msg.id, value: plain(value) }));
  }
}

function plain(value) {
  if (value === undefined || value === null) return null;
  try {
    return JSON.parse(JSON.stringify(value));
  } catch {
    return null;
  }
}
