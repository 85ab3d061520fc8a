// Read marks follow the person between her devices. A mark that advanced here
// (store.markRead) is told to the server a moment later (`read`), only if it is
// ahead of what the server has; one from another device (a `read` event, or the
// list's `lastReadSeq` after each sign-in) raises the mark here. After a reconnect
// the marks made meanwhile, ahead of the list's, are told then.

import { raisedMarks, listedMarks, aheadOfServer } from "../state/readMarks.js";

/** Scrolling through a busy room moves the mark at every message: one request at most this often. */
export const READ_DELAY_MS = 700;
/**
 * At most this many marks are told at once, the rest a second later (the server takes
 * 10 a second, in bursts of 60): after the upgrade a person in 150 conversations had
 * a third of their marks refused, without a word (an outside review).
 */
export const AT_ONCE = 8;
export const PACE_MS = 1000;

export class ReadMarks {
  /**
   * @param {import("../net/client.js").ParlorClient} client
   * @param {import("../store.js").Store} store
   * @param {{delayMs?: number, setTimer?: typeof setTimeout, clearTimer?: typeof clearTimeout}} [opts]
   */
  constructor(client, store, { delayMs = READ_DELAY_MS, setTimer = (fn, ms) => setTimeout(fn, ms), clearTimer = (id) => clearTimeout(id) } = {}) {
    this.client = client;
    this.store = store;
    this.delayMs = delayMs;
    // called as methods: the browser's own timers refuse another `this` ("Illegal invocation")
    this.setTimer = setTimer;
    this.clearTimer = clearTimer;
    /** conversationId → the mark the server has (it said so, or took ours) */
    this.server = {};
    this.listedNow = {};
    /** conversations whose mark advanced here since the last request */
    this.due = new Set();
    this.timer = null;
    store.addEventListener("read", (e) => this.advanced(e.detail.conversationId));
  }

  /** The mark here advanced: told once the delay is over, with the mark as it is then. */
  advanced(conversationId) {
    this.due.add(conversationId);
    this.timer ??= this.setTimer(() => this.tellDue(), this.delayMs);
  }

  tellDue() {
    this.timer = null;
    const due = [...this.due];
    this.due.clear();
    // offline: the next sign-in's list says what the server has, and what is ahead goes then
    if (this.client.status !== "online") return;
    this.tellSome(aheadOfServer(this.store.state.lastRead, this.server, due));
  }

  /** Tells AT_ONCE of these marks now, the rest PACE_MS later. */
  tellSome(ahead) {
    for (const [id, seq] of ahead.slice(0, AT_ONCE)) this.tell(id, seq);
    if (ahead.length <= AT_ONCE) return;
    for (const [id] of ahead.slice(AT_ONCE)) this.due.add(id);
    this.clearTimer(this.timer);
    this.timer = this.setTimer(() => this.tellDue(), PACE_MS);
  }

  async tell(conversationId, seq) {
    try {
      await this.client.request("read", { conversationId, seq });
      this.server[conversationId] = Math.max(this.server[conversationId] || 0, seq);
    } catch (e) {
      // limited: told again once the server's wait is over; offline or left: the next
      // sign-in tells it again if it still matters
      if (e?.code !== "rate_limited") return;
      this.due.add(conversationId);
      this.timer ??= this.setTimer(() => this.tellDue(), e.retryAfterMs || PACE_MS);
    }
  }

  /**
   * The server started a conversation over (restored from a backup): the mark here goes
   * back to the server's, which was restored with it (the common part of both is at
   * least that far); the page's own reads from then on are told again.
   */
  restarted(conversationId) {
    const seq = this.listedNow[conversationId] || 0;
    this.server[conversationId] = seq;
    this.store.readRestarted(conversationId, seq);
  }

  /** Another device of hers read up to `seq` (a `read` event). */
  heard(conversationId, seq) {
    this.server[conversationId] = Math.max(this.server[conversationId] || 0, seq);
    this.store.readElsewhere({ [conversationId]: seq });
  }

  /** A conversations.list answer, after each sign-in: its marks, and ours that are ahead go to the server. */
  listed(conversations) {
    const marks = listedMarks(conversations);
    /** the server's marks as this sign-in's list gave them (not raised by what was told before) */
    this.listedNow = marks;
    this.server = raisedMarks(marks, this.server);
    this.store.readElsewhere(marks);
    const ids = conversations.map((c) => c.id);
    this.tellSome(aheadOfServer(this.store.state.lastRead, this.server, ids));
  }

  /** Signed out, or another account: nothing of the last one is told. */
  reset() {
    this.clearTimer(this.timer);
    this.timer = null;
    this.due.clear();
    this.server = {};
  }
}
