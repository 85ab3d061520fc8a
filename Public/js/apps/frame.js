// One app frame: a sandboxed iframe (scripts only, opaque origin, never
// allow-same-origin) and the host end of its postMessage bridge. Messages are
// accepted only from this frame's own window and checked with the bridge
// protocol before anything happens; hooks are called as events that the SDK
// acknowledges when the app's hook has returned.

import { BRIDGE_VERSION, checkAppMessage } from "/sdk/protocol.js";

const HOOK_TIMEOUT_MS = 3000;
const READY_TIMEOUT_MS = 15000;

/** All live frames, so one window listener can route by event.source. */
const frames = new Set();
let listening = false;

// Did the user just interact with an app, rather than with the host? The
// host sees its own input events, and sees its window lose focus when the
// user clicks or tabs into a frame. An app's interaction is recent when the
// browser's transient activation is on (a frame's activation reaches its
// ancestors), focus is inside that frame, and it went there after the last
// input the host itself received.
let lastHostInput = 0;
let lastBlur = -1;
function hostInput(e) {
  if (e.isTrusted) lastHostInput = performance.now();
}
function focusMoved() {
  lastBlur = performance.now();
}

function route(event) {
  for (const f of frames) {
    if (f.iframe.contentWindow && event.source === f.iframe.contentWindow) {
      f.receive(event.data);
      return;
    }
  }
  // not from one of our frames: ignored
}

export class AppFrame {
  /**
   * @param {object} opts
   * @param {{id: string, name: string, entry: string}} opts.app
   * @param {string} opts.style "compact" | "expanded" | "transcript"
   * @param {(method: string, args: object, frame: AppFrame) => Promise<unknown>} opts.handle
   *   answers a checked call; throw {code, message} to refuse
   */
  constructor({ app, style, handle }) {
    this.app = app;
    this.handle = handle;
    this.nextEventId = 1;
    this.acks = new Map();
    this.closed = false;
    const iframe = document.createElement("iframe");
    iframe.setAttribute("sandbox", "allow-scripts");
    iframe.setAttribute("title", `${app.name}`);
    iframe.setAttribute("referrerpolicy", "no-referrer");
    iframe.className = "app-frame";
    iframe.dataset.appId = app.id;
    iframe.dataset.style = style;
    iframe.src = app.entry;
    this.iframe = iframe;
    this.ready = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.readyTimer = setTimeout(() => reject(new Error(`${app.name} did not start`)), READY_TIMEOUT_MS);
    });
    this.ready.catch(() => {});
    frames.add(this);
    if (!listening) {
      window.addEventListener("message", route);
      window.addEventListener("pointerdown", hostInput, true);
      window.addEventListener("keydown", hostInput, true);
      window.addEventListener("blur", focusMoved);
      listening = true;
    }
  }

  /** True right after the user interacted with this frame (see above). */
  userJustInteracted() {
    const activation = navigator.userActivation;
    return !!activation && activation.isActive && document.activeElement === this.iframe && lastBlur > lastHostInput;
  }

  post(msg) {
    if (this.closed || !this.iframe.contentWindow) return;
    // An opaque-origin frame has no origin to name; the target is this
    // frame's own window, and nothing sent holds more than the app may see.
    this.iframe.contentWindow.postMessage({ parlor: BRIDGE_VERSION, ...msg }, "*");
  }

  async receive(data) {
    if (this.closed) return;
    const r = checkAppMessage(data);
    if (!r.ok) {
      if (r.id !== undefined) this.post({ type: "reply", re: r.id, ok: false, error: r.error });
      return;
    }
    if (r.kind === "ack") {
      const w = this.acks.get(r.re);
      if (w) {
        this.acks.delete(r.re);
        w(r.value);
      }
      return;
    }
    if (r.method === "ready") {
      clearTimeout(this.readyTimer);
      this.resolveReady();
      this.post({ type: "reply", re: r.id, ok: true, value: {} });
      return;
    }
    try {
      const value = await this.handle(r.method, r.args, this);
      this.post({ type: "reply", re: r.id, ok: true, value: value === undefined ? null : value });
    } catch (error) {
      const e = { code: String(error.code || "error"), message: String(error.message || "refused") };
      if (error.current) e.current = error.current;
      this.post({ type: "reply", re: r.id, ok: false, error: e });
    }
  }

  /**
   * Calls a hook in the app and waits until it has returned (or a bounded
   * time, so a stuck app cannot stall the host).
   * @returns {Promise<unknown>} what the hook returned (for contentSizeThatFits)
   */
  hook(name, data = {}, timeoutMs = HOOK_TIMEOUT_MS) {
    if (this.closed) return Promise.resolve(null);
    const id = this.nextEventId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.acks.delete(id);
        resolve(null);
      }, timeoutMs);
      this.acks.set(id, (value) => {
        clearTimeout(timer);
        resolve(value);
      });
      this.post({ type: "event", id, name, data });
    });
  }

  destroy() {
    this.closed = true;
    clearTimeout(this.readyTimer);
    frames.delete(this);
    for (const w of this.acks.values()) w(null);
    this.acks.clear();
    this.iframe.remove();
  }
}
