// One app frame: a sandboxed iframe (scripts only, opaque origin, never
// allow-same-origin) and the host end of its postMessage bridge. Messages are
// accepted only from this frame's own window and checked with the bridge
// protocol before anything happens; hooks are called as events that the SDK
// acknowledges when the app's hook has returned.

import { BRIDGE_VERSION, checkAppMessage } from "/sdk/protocol.js";

const HOOK_TIMEOUT_MS = 3000;
/**
 * An app says `ready` as its script runs (YourApp.start()), which is before its page's
 * load event: once loaded, a few seconds is plenty. Until then its files may still be
 * coming over a slow network (Slow 3G took 13-17 s for the seed apps), so it waits
 * longer before saying the app did not start.
 */
const READY_AFTER_LOAD_MS = 5000;
const READY_TIMEOUT_MS = 60000;

/** All live frames, so one window listener can route by event.source. */
const frames = new Set();
let listening = false;

// What the host can see of the user, and why send() and focus are guarded.
//
// Measured in Chromium (the app frame is cross-origin, so out of process):
// the host gets NO event when the pointer moves into the frame or presses in
// it (no pointerover/pointerdown on the <iframe>, no :hover on it); a click or
// tap in the frame and the app calling focus() on itself look the same to the
// host: the window blurs and document.activeElement becomes the iframe. A
// gesture in the frame does turn the host's navigator.userActivation on (it
// reaches ancestors), a host gesture does not reach the frame, and `inert` or
// `visibility: hidden` on the iframe do not stop the app from focusing itself
// (display: none does). So:
//
// - Focus: when focus jumps from a host text field (the composer) into a
//   frame without the host having seen the user head there (a Tab key, or the
//   mouse last moving at the frame's edge after the last host input), the host
//   takes it back at once, so keystrokes keep going to the composer. A tap, or
//   a mouse that jumps (Playwright's click; a fast flick whose last host move
//   is far from the frame), shows the host nothing, so the frame gets to vouch:
//   the SDK posts a "focused" notice with includeUserActivation, and the
//   browser, not the app, fills in whether the frame has transient activation.
//   With it (and no host input since), the focus is the user's: it is given
//   back and nothing is counted. Without it (a notice saying no gesture, none
//   before the next jump, or none within VOUCH_MS), it was a theft; an app
//   that steals twice is hidden. An app the user touched less than 5 s ago
//   still has activation, so its word cannot tell a theft from a tap then: a
//   jump out of a text field the user typed in within TYPING_MS (Enter, which
//   sends, ends the typing), with no mouse on its way to the frame, is taken back
//   whatever the frame says. A tap that quick after a key (touch shows the host
//   no path) is taken back too; the next one, after a pause, goes through. A live bubble's frame
//   never keeps focus.
// - send(): proof of a gesture inside the frame is the host's activation being
//   on although no host input can explain it any more (Chrome's transient
//   activation lasts 5 s; only a gesture in a child frame renews it, and the
//   app pane is the only frame that takes pointer input). Without proof, if
//   the focus went into the app after the user's last host input (a click or
//   tap in it, or the app focusing itself), the host asks the user with its
//   own dialog; otherwise the send is refused. A self-focus alone never sends.
const ACTIVATION_LIFESPAN_MS = 5000;
const TAB_MS = 1000;
const EDGE_PX = 24;
const HIDE_AFTER_STEALS = 2;
const STEAL_WINDOW_MS = 3000;
const VOUCH_MS = 1000;
// A key pressed in a host field this recently: the user is typing there. Short, as a
// tap into the app shows the host nothing: a quick tap after typing gets taken back.
const TYPING_MS = 400; // how long a jump waits for the frame's word before it counts as a theft

const seen = {
  input: -Infinity, // the last trusted input the host itself received
  tab: -Infinity,   // the last Tab key press
  key: -Infinity,   // the last key pressed in a host text field
  move: null,       // where the mouse last moved in the host, and when
  field: null,      // the host element that last had focus
  pressed: null,    // a frame's <iframe> the host itself saw pressed, and when
  moved: -Infinity, // the last time the host's focus or a host field's text changed, not by takeBack
};
let returning = false; // takeBack is giving the focus back (its focusin is not the user's)
function hostInput(e) {
  if (!e.isTrusted) return;
  seen.input = performance.now();
  // The browser sends a press into a frame by where its compositor last drew it; on a
  // loaded machine, just after the pane moved, the press lands on the host's <iframe>
  // element instead, which focuses it: the user's own doing, not the app's.
  if (/^(pointerdown|mousedown|touchstart)$/.test(e.type) && e.target instanceof HTMLIFrameElement) seen.pressed = { iframe: e.target, t: seen.input };
  if (e.type === "keydown" && e.key === "Tab") seen.tab = seen.input;
  // Enter sends what was typed: the user is done typing (and may tap an app next)
  else if (e.type === "keydown" && isTextEntry(e.target)) seen.key = e.key === "Enter" ? -Infinity : seen.input;
}
function pointerMoved(e) {
  if (e.isTrusted && e.pointerType !== "touch") seen.move = { x: e.clientX, y: e.clientY, t: performance.now() };
}
function hostFocus(e) {
  if (e.target instanceof HTMLIFrameElement) return;
  seen.field = e.target;
  if (!returning) seen.moved = performance.now();
}
function hostEdited() {
  seen.moved = performance.now();
}
function windowBlurred() {
  const el = document.activeElement;
  for (const f of frames) {
    if (f.iframe === el) {
      f.focusArrived();
      return;
    }
  }
}
// From the first moment on (the input that opens an app must count as host input).
if (typeof window !== "undefined" && typeof document !== "undefined") {
  for (const type of ["pointerdown", "pointerup", "mousedown", "touchstart", "touchend", "keydown", "click"]) window.addEventListener(type, hostInput, true);
  window.addEventListener("pointermove", pointerMoved, true);
  window.addEventListener("pointerover", pointerMoved, true);
  document.addEventListener("focusin", hostFocus, true);
  document.addEventListener("input", hostEdited, true);
  window.addEventListener("blur", windowBlurred);
}

function isTextEntry(el) {
  if (!el || !el.isConnected) return false;
  if (el.isContentEditable || el instanceof HTMLTextAreaElement) return true;
  return el instanceof HTMLInputElement && !/^(button|submit|reset|checkbox|radio|range|color|file|image|hidden)$/.test(el.type);
}

function route(event) {
  for (const f of frames) {
    if (f.iframe.contentWindow && event.source === f.iframe.contentWindow) {
      f.receive(event.data, event.userActivation);
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
  constructor({ app, style, handle, onHidden = () => {}, onEscape = () => {}, onRestart = () => {}, onLost = () => {} }) {
    this.app = app;
    this.style = style;
    this.handle = handle;
    this.onHidden = onHidden;
    this.onEscape = onEscape;
    // An iframe moved in the document loads its page again: the app starts afresh
    // and says "ready" a second time, and must be set up again by whoever showed it.
    this.onRestart = onRestart;
    this.onLost = onLost;
    /** pages loaded in the frame, and `ready`s heard: a load with no ready is not the app */
    this.loads = 0;
    this.readies = 0;
    this.started = false;
    this.focusedAt = -Infinity; // focus went into this frame and was left there
    this.steals = [];           // times focus was taken from the user by it
    this.jump = null;           // a focus jump waiting for the frame's word: {t, field, timer}
    this.vouchedAt = -Infinity; // the frame said "focused" with a gesture in it
    this.hidden = false;
    this.declinedAt = -Infinity;
    this.nextEventId = 1;
    this.heard = []; // seqs handed to the app through didReceive (AppPane.hearOnce)
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
    /** Never started (no `ready` in time): hooks are not sent to it. */
    this.failed = false;
    this.ready = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      const fail = (why) => () => {
        this.failed = true;
        reject(Object.assign(new Error(`${app.name} did not start`), { why }));
      };
      this.readyTimer = setTimeout(fail("slow"), READY_TIMEOUT_MS);
      iframe.addEventListener("load", () => {
        this.loads++;
        if (this.closed) return;
        if (this.started) {
          // loaded again: moved in the page (the app starts again and says ready), or
          // navigated away from the app (an error page, which never will)
          const loads = this.loads;
          setTimeout(() => {
            if (!this.closed && this.loads === loads && this.readies < loads) this.onLost(this);
          }, READY_AFTER_LOAD_MS);
          return;
        }
        clearTimeout(this.readyTimer);
        this.readyTimer = setTimeout(fail("loaded"), READY_AFTER_LOAD_MS);
      });
    });
    this.ready.catch(() => {});
    frames.add(this);
    if (!listening) {
      window.addEventListener("message", route);
      listening = true;
    }
  }

  /** Did the mouse last move, after the last host input, at this frame's edge (on its way in)? */
  pointerCameIn() {
    const m = seen.move;
    if (!m || m.t <= seen.input) return false;
    const r = this.iframe.getBoundingClientRect();
    return m.x >= r.left - EDGE_PX && m.x <= r.right + EDGE_PX && m.y >= r.top - EDGE_PX && m.y <= r.bottom + EDGE_PX;
  }

  /** The window blurred into this frame: keep the focus there, or take it back (see above). */
  focusArrived() {
    const now = performance.now();
    const field = seen.field;
    if (this.style === "transcript") return this.takeBack(field, this.judge({ t: now, field }, false));
    const pressedHere = seen.pressed?.iframe === this.iframe && now - seen.pressed.t < TAB_MS;
    const headedHere = now - seen.tab < TAB_MS || this.pointerCameIn() || pressedHere;
    // typing in the composer, with no pointer on its way here: the focus was not the
    // user's to move, whatever the frame says
    if (!headedHere && isTextEntry(field) && now - seen.key < TYPING_MS) return this.takeBack(field, { t: now, field });
    // a "focused" notice can overtake the blur: it counts while the user did nothing in the host since
    const vouched = this.vouchedAt > seen.input;
    if (headedHere || vouched || !isTextEntry(field)) {
      this.focusedAt = now;
      return;
    }
    if (this.jump) this.judge(this.jump, false); // the previous jump got no word in time
    const jump = { t: now, field };
    jump.timer = setTimeout(() => this.judge(jump, false), VOUCH_MS);
    this.jump = jump;
    this.takeBack(field, jump);
  }

  /** Gives the keyboard back to the host field once this task ends (a focus()
   * in the blur handler itself does not move it back), unless the frame has
   * vouched for the jump by then. */
  takeBack(field, jump) {
    setTimeout(() => {
      if (jump.genuine || document.activeElement !== this.iframe) return;
      returning = true;
      try {
        window.focus();
        if (field && field.isConnected) field.focus();
        else this.iframe.blur();
      } finally {
        returning = false;
      }
    }, 0);
  }

  /** The frame's word on a focus jump: a gesture in it (genuine) or none (a theft). */
  judge(jump, genuine) {
    clearTimeout(jump.timer);
    if (this.jump === jump) this.jump = null;
    if (genuine) {
      jump.genuine = true;
      this.focusedAt = performance.now();
      // Given back, unless the host moved the focus or took text since (its Send button
      // after the app staged a move): a word that came late must not pull it away.
      const moved = seen.moved > jump.t;
      if (document.activeElement !== this.iframe && !moved && !this.closed && !this.hidden) this.iframe.focus();
      return jump;
    }
    const now = performance.now();
    this.steals = this.steals.filter((t) => now - t < STEAL_WINDOW_MS);
    this.steals.push(jump.t);
    if (this.steals.length >= HIDE_AFTER_STEALS) this.hide();
    return jump;
  }

  /** The SDK's "focused" notice; `activation` is the browser's word on this frame's gesture. */
  focusNotice(activation) {
    const gesture = Boolean(activation && activation.isActive) && this.style !== "transcript";
    if (gesture) this.vouchedAt = performance.now();
    const jump = this.jump;
    if (!jump) return;
    // a host input since the jump means the user is back in the host: the jump stays a theft
    this.judge(jump, gesture && seen.input < jump.t);
  }

  /** Hides an app that keeps taking the keyboard: a frame with display: none cannot take focus. */
  hide() {
    if (this.hidden || this.closed) return;
    this.hidden = true;
    this.iframe.style.display = "none";
    this.onHidden(this);
  }

  /** The user asked to see it again. */
  show() {
    this.hidden = false;
    this.steals = [];
    this.iframe.style.display = "";
  }

  /**
   * May this frame send() now? "yes" with proof of the user's gesture in it,
   * "ask" when
   * the user may have clicked or tapped in it (the host asks), "no" otherwise.
   * `frameActivation`: the browser's word on this frame's own gesture, carried by the
   * call (a tap in the host never activates the frame, so it is proof even right
   * after one: the tap on a bubble that opened the app, then its Yes button).
   */
  sendVerdict(frameActivation = null) {
    if (this.closed || this.hidden || this.style === "transcript") return "no";
    const now = performance.now();
    if (document.activeElement !== this.iframe) return "no";
    if (frameActivation && frameActivation.isActive) return "yes";
    const activation = navigator.userActivation;
    if (activation && activation.isActive && now - seen.input > ACTIVATION_LIFESPAN_MS + 100) return "yes";
    if (this.pointerCameIn() && seen.move.t > this.declinedAt) return "ask";
    if (seen.input <= this.declinedAt) return "no"; // asked and declined: not again before the user does something
    return this.focusedAt > seen.input ? "ask" : "no";
  }

  /** The user answered the host's question about a send. A yes sends that one
   * message only: an app refocusing itself right after must not ride on it. */
  answered(yes) {
    if (!yes) this.declinedAt = performance.now();
  }

  post(msg) {
    if (this.closed || !this.iframe.contentWindow) return;
    // An opaque-origin frame has no origin to name; the target is this
    // frame's own window, and nothing sent holds more than the app may see.
    this.iframe.contentWindow.postMessage({ parlor: BRIDGE_VERSION, ...msg }, "*");
  }

  async receive(data, activation = null) {
    if (this.closed) return;
    const r = checkAppMessage(data);
    if (!r.ok) {
      if (r.id !== undefined) this.post({ type: "reply", re: r.id, ok: false, error: r.error });
      return;
    }
    if (r.kind === "notice") {
      if (r.name === "focused") this.focusNotice(activation);
      else if (r.name === "escape" && !this.hidden && this.style !== "transcript") this.onEscape(this);
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
      this.readies++;
      const again = this.started;
      this.started = true;
      this.resolveReady();
      this.post({ type: "reply", re: r.id, ok: true, value: {} });
      if (again) this.onRestart(this);
      return;
    }
    try {
      const value = await this.handle(r.method, r.args, this, activation);
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
    if (this.closed || this.failed) return Promise.resolve(null);
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
    if (this.jump) clearTimeout(this.jump.timer);
    frames.delete(this);
    for (const w of this.acks.values()) w(null);
    this.acks.clear();
    this.iframe.remove();
  }
}
