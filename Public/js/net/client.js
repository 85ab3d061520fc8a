// The network layer: one WebSocket to the server, spoken in protocol v1.
//
// ParlorClient is an EventTarget. It authenticates with the first frame,
// answers each request with a promise, validates every inbound frame
// (net/frames.js) and reconnects by itself with backoff. It knows nothing of
// the page; the app layer listens to its events:
//
//   "status"   detail {status: "connecting" | "online" | "offline", attempt, retryInMs, restarting}
//              restarting: the server closed with 1001/1012 (going away, service
//              restart) and the client is reconnecting on a short backoff
//   "ready"    detail {user, installedApps, token, registered, device, recoveryKey?, conversation?}
//              after each (re)authentication; recoveryKey only right after sign-up
//   "authfailed" detail {code, message, how}   the credential was refused: sign in again
//              (how: "token", "register", "link" or "recover")
//   "signedout" detail {reason}   the server closed with 4003: this device was revoked
//              ("signed out"), or the account deactivated or deleted (the close's
//              reason says which); the token is dead, so no reconnect
//   "message" | "member" | "presence" | "playing" | "typing" | "conversation"   detail: the event frame
//   "appdata" | "apps" | "recovery"   detail: the event frame (this user's app storage,
//              installed apps or recovery key changed, on this connection or another)
//   "read"     detail: the event frame (this user read a conversation on another connection)
//   "notify"   detail: the event frame (this user set a conversation's notifications on another connection)
//   "user"     detail: the event frame (this user renamed themselves on another connection)
//   "invalidframe" detail {reason}     a frame that broke the contract (dropped)

import { SUBPROTOCOL, parseFrame, resultProblem } from "./frames.js";
import { backoffDelay } from "./backoff.js";

export class ProtocolError extends Error {
  /** @param {{code: string, message?: string, field?: string, current?: object}} e */
  constructor(e) {
    super(e.message || e.code);
    this.name = "ProtocolError";
    this.code = e.code;
    this.field = e.field;
    this.current = e.current;
    /** for rate_limited: when to try again */
    this.retryAfterMs = e.retryAfterMs;
  }
}

const REQUEST_TIMEOUT_MS = 20000;

/**
 * A connection can die without a word (a weak signal: nothing arrives, no close
 * either), and the page said "online" while its sends went into it for minutes (an
 * outside review). Once the server has said nothing for QUIET_MS, or a request went
 * unanswered, a `ping` asks; no answer within PROBE_TIMEOUT_MS and the connection is
 * dropped and made again, and the outbox sends what it holds once more.
 */
export const LIVENESS = { QUIET_MS: 25_000, PROBE_TIMEOUT_MS: 10_000, CHECK_EVERY_MS: 5_000 };

/** The server signed this device out (revoked, or the account deactivated). */
export const SIGNED_OUT_CLOSE_CODE = 4003;

/** How each first frame is built from the credentials start() was given. */
const SIGN_IN = {
  token: (c) => ["auth", { token: c.token }],
  register: (c) => ["register", { name: c.register, ...(c.invite ? { invite: c.invite } : {}), deviceName: c.deviceName }],
  link: (c) => ["device.link", { code: c.link, deviceName: c.deviceName }],
  recover: (c) => ["recover", { recoveryKey: c.recover, revokeOthers: !!c.revokeOthers, deviceName: c.deviceName }],
};
const howOf = (c) => Object.keys(SIGN_IN).find((k) => k in c);
/** A request sent with a sign-in, as asked again: its type and its fields. */
const earlyKey = (type, fields) => `${type} ${JSON.stringify(fields)}`;
/** Answers to a first frame that a retry would only repeat. */
const TRANSIENT_SIGN_IN = new Set(["offline", "timeout", "internal"]);

/** Close codes of a server that shuts down on purpose: 1001 going away, 1012 service restart. */
export const RESTART_CLOSE_CODES = new Set([1001, 1012]);
/** A restart takes a few seconds: retry soon and often for this many attempts (15 to 30 s)... */
export const RESTART_ATTEMPTS = 16;
const RESTART_BACKOFF = { base: 250, max: 2000 };
// ...then it is no longer a restart but an outage: the ordinary backoff, up to 15 s.

export class ParlorClient extends EventTarget {
  /**
   * @param {object} opts
   * @param {string} opts.url              ws(s)://host/ws
   * @param {typeof WebSocket} [opts.WebSocket]
   * @param {() => number} [opts.random]
   * @param {() => [string, object][]} [opts.withSignIn] the requests ([type, fields]) to send
   *   right behind each sign-in frame, before its answer: the server takes a connection's
   *   frames in order, so they are answered as signed in (or refused with it), a round
   *   trip sooner (`signInAnswer`)
   */
  constructor({ url, WebSocket: WS = globalThis.WebSocket, random = Math.random, withSignIn = () => [] }) {
    super();
    this.url = url;
    this.WS = WS;
    this.random = random;
    this.withSignIn = withSignIn;
    /** the answers on their way to this connection's `withSignIn` requests (by earlyKey), until taken */
    this.early = new Map();
    this.ws = null;
    this.status = "offline";
    this.authenticated = false;
    this.credentials = null;
    this.user = null;
    this.attempt = 0;
    this.retryTimer = null;
    this.restarting = false;
    this.nextId = 1;
    /** @type {Map<string, {type: string, resolve: Function, reject: Function, timer: any}>} */
    this.waiting = new Map();
    this.stopped = true;
    /** When the server last said anything (any frame), and whether a ping is out. */
    this.lastHeard = 0;
    this.probing = false;
    this.livenessTimer = null;
  }

  /**
   * Connects and keeps connecting.
   * @param {{token: string} | {register: string, invite?: string} | {link: string} | {recover: string, revokeOthers?: boolean}} credentials
   *   (each may carry deviceName, how the account's device list names this browser)
   */
  start(credentials) {
    this.credentials = credentials;
    this.stopped = false;
    this.connect();
  }

  /** Closes for good (sign out). */
  stop() {
    this.stopped = true;
    this.restarting = false;
    clearTimeout(this.retryTimer);
    this.stopLiveness();
    if (this.ws) this.ws.close(1000);
    this.ws = null;
    // the close handler ignores a socket no longer this.ws: what waits is answered here
    this.failAll("offline", "stopped");
    this.setStatus("offline");
  }

  /** Try now instead of waiting for the backoff (the browser came back online). */
  reconnectNow() {
    if (this.stopped || this.status !== "offline") return;
    clearTimeout(this.retryTimer);
    this.connect();
  }

  /**
   * Drops the connection as if the network had failed (used on "offline"). The
   * close handshake cannot finish without a network, and its close event may
   * come only after a long timeout: the page is offline now, not then.
   */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    this.stopLiveness();
    ws.close(4000, "client drop");
    this.failAll("offline", "the connection was lost");
    this.scheduleRetry();
  }

  setStatus(status, extra = {}) {
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: { status, attempt: this.attempt, restarting: this.restarting, ...extra } }));
  }

  connect() {
    this.authenticated = false;
    this.setStatus("connecting");
    let ws;
    try {
      ws = new this.WS(this.url, SUBPROTOCOL);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => this.authenticate(ws);
    ws.onmessage = (e) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      this.receive(e.data);
    };
    ws.onclose = (e) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.stopLiveness();
      if (e?.code === SIGNED_OUT_CLOSE_CODE) {
        // the token is dead: reconnecting with it would only be refused again
        this.stopped = true;
        this.authenticated = false;
        this.failAll("offline", "signed out");
        this.setStatus("offline");
        this.dispatchEvent(new CustomEvent("signedout", { detail: { reason: e.reason } }));
        return;
      }
      if (RESTART_CLOSE_CODES.has(e?.code)) {
        // the server is shutting down on purpose, and will most likely be back in seconds
        this.restarting = true;
        this.attempt = 0;
      }
      this.failAll("offline", "the connection was lost");
      this.scheduleRetry();
    };
    ws.onerror = () => {};
  }

  async authenticate(ws) {
    const c = this.credentials;
    const how = howOf(c);
    try {
      const [type, fields] = SIGN_IN[how](c);
      const signIn = this.rawRequest(ws, type, fields);
      this.early = new Map(this.withSignIn().map(([t, f]) => {
        const answer = this.rawRequest(ws, t, f);
        answer.catch(() => {}); // refused with the sign-in, or never taken
        return [earlyKey(t, f), answer];
      }));
      const result = await signIn;
      if (ws !== this.ws) return;
      this.credentials = { token: result.token ?? c.token };
      this.user = result.user;
      this.authenticated = true;
      this.attempt = 0;
      this.restarting = false;
      this.startLiveness(ws);
      this.setStatus("online");
      this.dispatchEvent(new CustomEvent("ready", {
        detail: {
          user: result.user, installedApps: result.installedApps, token: this.credentials.token,
          registered: how === "register", device: result.device, recoveryKey: result.recoveryKey, conversation: result.conversation,
          openReports: result.openReports,
          blocked: result.blocked,
        },
      }));
    } catch (error) {
      if (ws !== this.ws) return;
      // a refused token is dead; a refused sign-up, link or key would be refused again
      const refused = how === "token"
        ? error.code === "invalid_token" || error.code === "invalid_field" || error.code === "too_long"
        : !TRANSIENT_SIGN_IN.has(error.code);
      if (refused) {
        this.stopped = true;
        this.ws.close(1000);
        this.ws = null;
        this.setStatus("offline");
        this.dispatchEvent(new CustomEvent("authfailed", { detail: { code: error.code, message: error.message, how, retryAfterMs: error.retryAfterMs } }));
      }
      // otherwise the close handler retries
    }
  }

  scheduleRetry() {
    if (this.stopped) {
      this.setStatus("offline");
      return;
    }
    if (this.restarting && this.attempt >= RESTART_ATTEMPTS) this.restarting = false;
    const delay = backoffDelay(this.attempt, { ...(this.restarting ? RESTART_BACKOFF : {}), random: this.random });
    this.attempt++;
    this.setStatus("offline", { retryInMs: delay });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  failAll(code, message) {
    for (const [id, w] of this.waiting) {
      clearTimeout(w.timer);
      w.reject(new ProtocolError({ code, message }));
      this.waiting.delete(id);
    }
  }

  startLiveness(ws) {
    this.stopLiveness();
    this.lastHeard = Date.now();
    this.livenessTimer = setInterval(() => this.checkAlive(ws), LIVENESS.CHECK_EVERY_MS);
    this.livenessTimer.unref?.(); // node's tests: a client left running does not hold the process
  }

  stopLiveness() {
    clearInterval(this.livenessTimer);
    this.livenessTimer = null;
    this.probing = false;
  }

  /** Asks the server whether the connection still carries anything; drops it if not. */
  async checkAlive(ws, now = false) {
    if (ws !== this.ws || !this.authenticated || this.probing) return;
    if (!now && Date.now() - this.lastHeard < LIVENESS.QUIET_MS) return;
    this.probing = true;
    try {
      await this.rawRequest(ws, "ping", {}, LIVENESS.PROBE_TIMEOUT_MS);
    } catch (error) {
      if (ws === this.ws && error.code === "timeout") this.drop();
    } finally {
      if (ws === this.ws) this.probing = false;
    }
  }

  rawRequest(ws, type, fields, timeoutMs = REQUEST_TIMEOUT_MS) {
    const id = `r${this.nextId++}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new ProtocolError({ code: "timeout", message: "the server did not answer" }));
        // an unanswered request: is anyone there?
        if (type !== "ping") this.checkAlive(ws, true);
      }, timeoutMs);
      this.waiting.set(id, { type, resolve, reject, timer });
      try {
        ws.send(JSON.stringify({ ...fields, type, id }));
      } catch {
        clearTimeout(timer);
        this.waiting.delete(id);
        reject(new ProtocolError({ code: "offline", message: "not connected" }));
      }
    });
  }

  /** The answer to this request if it was sent with this connection's sign-in (withSignIn), once; else null. */
  signInAnswer(type, fields = {}) {
    const key = earlyKey(type, fields);
    const answer = this.early.get(key) ?? null;
    this.early.delete(key);
    return answer;
  }

  /**
   * Sends a request; resolves with its result, rejects with a ProtocolError
   * (its `code` is the protocol's error code, or "offline"/"timeout").
   * @param {string} type
   * @param {object} [fields]
   */
  request(type, fields = {}) {
    if (!this.authenticated || !this.ws) return Promise.reject(new ProtocolError({ code: "offline", message: "not connected" }));
    return this.rawRequest(this.ws, type, fields);
  }

  receive(data) {
    const parsed = parseFrame(data);
    if (!parsed.ok) {
      this.dispatchEvent(new CustomEvent("invalidframe", { detail: { reason: parsed.reason } }));
      return;
    }
    const f = parsed.frame;
    if (f.type === "result" || (f.type === "error" && typeof f.re === "string")) {
      const w = this.waiting.get(f.re);
      if (!w) return;
      this.waiting.delete(f.re);
      clearTimeout(w.timer);
      if (f.type === "error") {
        w.reject(new ProtocolError(f));
        return;
      }
      const problem = resultProblem(w.type, f.result);
      if (problem) {
        this.dispatchEvent(new CustomEvent("invalidframe", { detail: { reason: `${w.type} result: ${problem}` } }));
        w.reject(new ProtocolError({ code: "invalid_result", message: `unexpected answer (${problem})` }));
        return;
      }
      w.resolve(f.result);
      return;
    }
    if (f.type === "error") {
      this.dispatchEvent(new CustomEvent("servererror", { detail: f }));
      return;
    }
    this.dispatchEvent(new CustomEvent(f.type, { detail: f }));
  }
}
