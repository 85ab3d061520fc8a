// The outbox: what this user sent that the server has not confirmed. Each send
// shows at once as a local echo and stays in the store's outbox (kept in
// localStorage, so a reload loses nothing) until the server stores it; it is
// sent again with the same client id after a reconnect, so it is never stored
// twice. A send answered `internal` or timed out is retried here with backoff;
// one answered `rate_limited` or `server_busy` after the time the server gave (net/retry.js):
// such sends are held, with every later one, and sent again one after another
// in the order they were written, so a burst past the limit arrives in order.
// A message whose image is not uploaded yet (an app's drawing, made offline)
// waits here like any other, its image in sync/pendingImages.js under
// `imageKey`; the image is uploaded just before the message is sent, unless an
// upload begun as it was staged (uploadAhead) has its hash already.

import { addPending, failPending, pendingLocalImageGone, pendingUploaded, removePending, retryPending } from "../state/transcript.js";
import { newClientId, outboundProblem } from "../net/frames.js";
import { ProtocolError } from "../net/client.js";
import { RETRYABLE, WAITS, sendRetryDelay } from "../net/retry.js";
import { refusedRecord, restoreRefused, withRefused, markTaken } from "../state/refused.js";

const waiterKey = (clientId) => `send:${clientId}`;
const wireKey = (clientId) => `send|${clientId}`;

const SENT_HERE_KEPT = 512;
/**
 * A staged image uploaded ahead (uploadAhead) stands for Send this long: the server
 * keeps an image no message shows for a day by default (`--image-grace-seconds`), and
 * one staged longer is uploaded again at Send, as before.
 */
export const AHEAD_FRESH_MS = 10 * 60 * 1000;
/** Staged images uploaded ahead and remembered at once (an app's Done replaces its last). */
const AHEAD_KEPT = 16;

/** Adds to a set that keeps only its SENT_HERE_KEPT newest (a Set iterates in insertion order). */
function keepNewest(set, clientId) {
  set.add(clientId);
  if (set.size > SENT_HERE_KEPT) set.delete(set.values().next().value);
}

export class Outbox {
  /**
   * @param {import("../net/client.js").ParlorClient} client
   * @param {import("../store.js").Store} store
   * @param {object} hooks
   * @param {() => number} hooks.random for the retries' jitter
   * @param {(conversationId: string, message: object, supersedes?: object) => void} hooks.stored the server's answer, a message like a live one
   * @param {(item: object, error: Error) => void} hooks.failed a refused send nobody awaits
   * @param {(item: object, retryInMs: number, code: string) => void} [hooks.limited] a send held back by a rate limit or a busy server, sent again in retryInMs
   * @param {import("./pendingImages.js").PendingImages} [hooks.images] images waiting to be uploaded
   * @param {(blob: Blob) => Promise<string>} [hooks.upload] one upload attempt (sync/uploads.js), its hash
   */
  constructor(client, store, { random, stored, failed, limited = () => {}, images = null, upload = null }) {
    Object.assign(this, { client, store, random, stored, failed, limited, images, upload });
    /** @type {Map<string, {attempts: number, timer: any}>} the retry timers, by clientId: how the outbox resends, not state anyone draws */
    this.retries = new Map();
    /** clientIds held back by a rate limit (and sends made after them), sent in outbox order when limitTimer fires */
    this.held = new Set();
    this.limitTimer = null;
    /** clientIds waiting for an earlier message of their conversation whose image is being uploaded: sent after it, in order */
    this.behind = new Set();
    /** clientIds this page sent (the newest SENT_HERE_KEPT): its own messages, as against the same person's from another device */
    this.sentHere = new Set();
    /** clientIds sent again by the person's Retry after their send had failed: whoever was told it failed (an app) hears it went */
    this.retried = new Set();
    /** imageKey → the upload begun when its item was staged, and when: {hash: Promise<string | null>, at} */
    this.ahead = new Map();
  }

  /**
   * Begins uploading a staged item's image as it is staged (an app's Done), so Send has
   * nothing left to upload and the move goes out an upload's round trip and transfer
   * sooner. Only ever a head start: one that failed, or is older than AHEAD_FRESH_MS at
   * Send, is uploaded then, as before. An image never sent is the server's to collect,
   * as any upload no message shows.
   */
  uploadAhead(key) {
    if (!this.images || !this.upload || this.ahead.has(key)) return;
    const hash = this.images.take(key).then((blob) => (blob ? this.upload(blob) : null)).catch(() => null);
    this.ahead.set(key, { hash, at: Date.now() });
    if (this.ahead.size > AHEAD_KEPT) this.ahead.delete(this.ahead.keys().next().value);
  }

  /** The hash an upload begun at staging got, if it is there and fresh; null: upload now. */
  async aheadHash(key) {
    const ahead = this.ahead.get(key);
    this.ahead.delete(key);
    if (!ahead || Date.now() - ahead.at > AHEAD_FRESH_MS) return null;
    return ahead.hash;
  }

  noteSentHere(clientId) {
    keepNewest(this.sentHere, clientId);
  }

  /**
   * Local echoes for what the outbox kept across a reload, and the grey copies
   * of refused app moves (state/refused.js), in one change: a record whose
   * echo is not yet back would be taken for discarded.
   */
  restore(userId) {
    const transcripts = {};
    const t = (id) => transcripts[id] ?? this.store.transcript(id);
    for (const item of this.store.outbox()) {
      this.noteSentHere(item.clientId);
      transcripts[item.conversationId] = addPending(t(item.conversationId), {
        clientId: item.clientId, sender: userId, createdAt: item.createdAt, message: item.message, imageKey: item.imageKey,
      });
    }
    for (const record of this.store.refused()) {
      transcripts[record.conversationId] = restoreRefused(t(record.conversationId), record, userId);
    }
    const ids = Object.keys(transcripts);
    if (!ids.length) return;
    this.store.update(ids.map((id) => `transcript:${id}`), (s) => ({ transcripts: { ...s.transcripts, ...transcripts } }));
  }

  /**
   * Sends a message with a local echo. Resolves with the stored message;
   * rejects with a ProtocolError the server gave (not for being offline: the
   * outbox keeps it and sends it on reconnect, and the promise waits).
   * @param {{image?: Blob, imageKey?: string}} [pending] the layout's image, not
   *   uploaded yet: a Blob, or the key of one kept in `images` (a staged item's)
   */
  send(conversationId, message, { image = null, imageKey = null } = {}) {
    const problem = outboundProblem(message);
    if (problem) return Promise.reject(new ProtocolError({ code: "invalid_field", message: problem }));
    const user = this.store.state.user;
    const item = { clientId: newClientId(), conversationId, message, createdAt: Date.now() };
    if (image && this.images) {
      item.imageKey = item.clientId;
      this.images.keep(item.imageKey, image);
    } else if (imageKey) {
      item.imageKey = imageKey;
    }
    this.store.saveOutbox([...this.store.outbox(), item]);
    this.noteSentHere(item.clientId);
    this.store.setTranscript(conversationId, addPending(this.store.transcript(conversationId), {
      clientId: item.clientId, sender: user.id, createdAt: item.createdAt, message, imageKey: item.imageKey,
    }));
    const settled = this.store.waiters.wait(waiterKey(item.clientId));
    if (this.held.size) this.held.add(item.clientId); // behind the ones a rate limit holds
    else this.trySend(item); // or behind a drawing still to be uploaded (trySend)
    return settled;
  }

  /** Is an earlier message of this item's conversation still waiting for its image? */
  uploadsBefore(item) {
    for (const i of this.store.outbox()) {
      if (i.clientId === item.clientId) return false;
      if (i.conversationId === item.conversationId && i.imageKey) return true;
    }
    return false;
  }

  /** Sends, in outbox order, what waited for an upload that is over (sent or refused). */
  async sendBehind() {
    for (const item of this.store.outbox()) {
      if (!this.behind.has(item.clientId) || this.uploadsBefore(item)) continue;
      this.behind.delete(item.clientId);
      await this.trySend(item);
    }
  }

  async trySend(item) {
    const id = item.clientId;
    if (this.client.status !== "online") return;
    // Whoever asks (a flush, a retry's timer, a rate limit's end), nothing overtakes
    // an earlier message of its conversation whose image is still to be uploaded.
    if (this.uploadsBefore(item)) {
      this.behind.add(id);
      return;
    }
    if (this.store.requests.has(wireKey(id))) {
      // never two at once; a flush waits for it, so what follows is not sent ahead of it
      await this.store.requests.join(wireKey(id), () => Promise.resolve()).catch(() => {});
      return;
    }
    const retry = this.retries.get(id);
    if (retry) {
      clearTimeout(retry.timer);
      retry.timer = null;
    }
    let answer;
    const imageKey = item.imageKey;
    try {
      answer = await this.store.requests.join(wireKey(id), async () => {
        if (item.imageKey) await this.uploadImage(item);
        return this.client.request("send", { conversationId: item.conversationId, clientId: id, message: item.message });
      });
    } catch (error) {
      this.sendFailed(item, error);
      this.forgetUploaded(imageKey, item);
      return;
    }
    this.retries.delete(id);
    this.drop(id);
    this.stored(item.conversationId, answer.message, answer.supersedes);
    this.forgetUploaded(imageKey, item);
    if (this.behind.size) this.sendBehind();
  }

  /**
   * An uploaded image's local copy, which its echo showed until now (pendingUploaded),
   * is let go; an echo still shown (a failed send) shows the server's, and Retry sends
   * the message with its hash.
   */
  forgetUploaded(imageKey, item) {
    if (!imageKey || item.imageKey) return;
    this.images.forget(imageKey);
    this.store.setTranscript(item.conversationId, pendingLocalImageGone(this.store.transcript(item.conversationId), item.clientId));
  }

  /**
   * Uploads a waiting image and puts its hash in the message, for good: the item
   * in the outbox and its echo carry the hash from then on. An unreachable server
   * is "offline" or "timeout" to the send, so it waits or is retried as a send is.
   */
  async uploadImage(item) {
    const key = item.imageKey;
    const blob = this.images ? await this.images.take(key) : null;
    if (!blob) throw new ProtocolError({ code: "image_lost", message: "the image was lost before it could be uploaded" });
    let hash = await this.aheadHash(key);
    try {
      hash ??= await this.upload(blob);
    } catch (error) {
      if (error?.code !== "unreachable") throw error;
      throw new ProtocolError({ code: this.client.status === "online" ? "timeout" : "offline", message: error.message });
    }
    // a voice message's recording is its `audio`, a photo its `image`; an app message's
    // drawing its layout's image
    item.message = item.message.kind === "audio" ? { ...item.message, audio: hash }
      : item.message.kind === "attachment" ? { ...item.message, image: hash }
      : { ...item.message, layout: { ...item.message.layout, image: hash } };
    delete item.imageKey;
    this.store.saveOutbox(this.store.outbox().map((i) => (i.clientId === item.clientId ? item : i)));
    this.store.setTranscript(item.conversationId, pendingUploaded(this.store.transcript(item.conversationId), item.clientId, item.message));
  }

  sendFailed(item, error) {
    if (RETRYABLE.has(error.code) && this.scheduleRetry(item, error)) return; // still "Sending…"
    if (error.code === "offline") return; // stays in the outbox, sent again on reconnect
    // refused, or retried in vain: the echo shows as failed, with Retry where that can help
    this.retries.delete(item.clientId);
    this.drop(item.clientId);
    // a refused reaction is dropped (the chips show what was there before): there is no
    // bubble of its own to show a Retry on, and the person can react again
    const t = this.store.transcript(item.conversationId);
    this.store.setTranscript(item.conversationId, item.message.kind === "reaction"
      ? removePending(t, item.clientId)
      : failPending(t, item.clientId, error.code, error.current));
    this.keepRefused(item, error);
    if (this.behind.size) this.sendBehind();
    error.clientId ??= item.clientId; // so whoever hears the refusal can say the app had it (takeRefused)
    if (!this.store.waiters.settle(waiterKey(item.clientId), error)) this.failed(item, error);
  }

  /** A stale app move is kept for the app (state/refused.js) while its grey copy is shown. */
  keepRefused(item, error) {
    const echo = this.store.transcript(item.conversationId).pending.find((p) => p.clientId === item.clientId);
    const record = echo?.status === "failed" ? refusedRecord(item, error, echo.conflictSeq) : null;
    if (record) this.store.saveRefused(withRefused(this.store.refused(), record));
  }

  /** The app has had this refused move (as its promise's rejection, or handed over): not handed again. */
  takeRefused(clientId) {
    const records = this.store.refused();
    const after = markTaken(records, clientId);
    if (after !== records) this.store.saveRefused(after);
  }

  /**
   * A send answered `internal`, `rate_limited` or timed out while online: the same
   * send again after a wait, with the same clientId. False once the attempts are used up.
   */
  scheduleRetry(item, { code, retryAfterMs }) {
    const id = item.clientId;
    const r = this.retries.get(id) || { attempts: 0, timer: null };
    if (!WAITS.has(code)) r.attempts++;
    const delay = sendRetryDelay(code, r.attempts, this.random, retryAfterMs);
    if (delay === null) return false;
    this.retries.set(id, r);
    if (WAITS.has(code)) {
      this.limited(item, delay, code);
      this.held.add(id);
      clearTimeout(this.limitTimer);
      this.limitTimer = setTimeout(() => this.sendHeld(), delay);
      return true;
    }
    r.timer = setTimeout(() => {
      if (this.retries.get(id) !== r) return; // settled or given up meanwhile
      r.timer = null;
      this.trySend(item);
    }, delay);
    return true;
  }

  /** The rate limit's wait is over: the held sends, in outbox order, each awaited; a refusal holds the rest again. */
  async sendHeld() {
    this.limitTimer = null;
    for (const item of this.store.outbox()) {
      if (!this.held.has(item.clientId)) continue;
      if (this.client.status !== "online") return;
      this.held.delete(item.clientId);
      await this.trySend(item);
      if (this.held.has(item.clientId)) return; // limited again: the timer is set
    }
    this.held.clear(); // anything left was settled or dropped meanwhile
  }

  /** The connection dropped: no timed retries; the outbox is flushed on reconnect. */
  pauseRetries() {
    clearTimeout(this.limitTimer);
    this.limitTimer = null;
    this.held.clear();
    for (const r of this.retries.values()) {
      clearTimeout(r.timer);
      r.timer = null;
    }
  }

  forgetRetry(clientId) {
    const r = this.retries.get(clientId);
    if (!r) return;
    clearTimeout(r.timer);
    this.retries.delete(clientId);
    this.held.delete(clientId);
  }

  /** Our message arrived stored (live, or as the answer to a send): its sender stops waiting. */
  settle(clientId, message) {
    this.forgetRetry(clientId);
    if (!this.store.waiters.has(waiterKey(clientId))) return;
    this.drop(clientId);
    this.store.waiters.settle(waiterKey(clientId), message);
  }

  drop(clientId) {
    this.behind.delete(clientId);
    const items = this.store.outbox();
    if (items.some((i) => i.clientId === clientId)) this.store.saveOutbox(items.filter((i) => i.clientId !== clientId));
  }

  /**
   * Sends what the outbox holds, one after another; a second flush meanwhile joins the first.
   * Sends held for the time a server gave are left to their timer: the flush after a
   * subscription can come after the refusal (a send made before the page caught up).
   */
  flush() {
    return this.store.requests.join("outbox|flush", async () => {
      for (const item of this.store.outbox()) {
        if (this.client.status !== "online") break;
        if (this.held.has(item.clientId)) continue;
        await this.trySend(item);
      }
    });
  }

  /** A failed local echo: try again with the same client id. */
  retry(conversationId, clientId) {
    const t = this.store.transcript(conversationId);
    const p = t.pending.find((x) => x.clientId === clientId);
    if (!p) return;
    const item = { clientId, conversationId, message: p.message, createdAt: p.createdAt };
    if (p.imageKey) item.imageKey = p.imageKey;
    this.store.saveOutbox([...this.store.outbox(), item]);
    this.store.setTranscript(conversationId, retryPending(t, clientId));
    keepNewest(this.retried, clientId);
    this.trySend(item);
  }

  /** A failed local echo: forget it. */
  discard(conversationId, clientId) {
    this.forgetRetry(clientId);
    this.drop(clientId);
    const p = this.store.transcript(conversationId).pending.find((x) => x.clientId === clientId);
    if (p?.imageKey) this.images?.forget(p.imageKey);
    this.store.setTranscript(conversationId, removePending(this.store.transcript(conversationId), clientId));
  }
}
