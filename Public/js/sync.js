// Keeps the store in step with the server: after every (re)authentication it
// lists the conversations, subscribes to each from the last seq it holds (a
// resume), and sends what the outbox still holds with the same client ids (so
// nothing is sent twice). Live events are folded into the store here.

import {
  applyMessage, applyHistory, resync, startAt, historyCursor, addPending, failPending, removePending, retryPending,
} from "./state/transcript.js";
import { upsertConversation, touchConversation, applyMember, applyPresence, renameEverywhere } from "./state/conversations.js";
import { newClientId, outboundProblem } from "./net/frames.js";
import { ProtocolError } from "./net/client.js";
import { RETRYABLE, sendRetryDelay } from "./net/retry.js";

const TRANSIENT = new Set(["offline", "timeout", "internal"]);

export class Sync extends EventTarget {
  /**
   * @param {import("./net/client.js").ParlorClient} client
   * @param {import("./store.js").Store} store
   * @param {{random?: () => number}} [opts]
   */
  constructor(client, store, { random = Math.random } = {}) {
    super();
    this.client = client;
    this.store = store;
    this.random = random;
    /** @type {Set<string>} clientIds of sends on the wire now (never two at once) */
    this.inflight = new Set();
    /** @type {Map<string, {attempts: number, timer: any}>} sends answered internal or timeout, by clientId */
    this.retries = new Map();
    /** @type {Map<string, {resolve: Function, reject: Function}>} sends someone awaits, by clientId */
    this.waiters = new Map();
    this.flushing = false;
    this.participantRequests = new Map();
    /** @type {Map<string, Promise<object>>} per-user app storage, by app id, as the server has it */
    this.appDataCache = new Map();
    client.addEventListener("ready", (e) => this.onReady(e.detail));
    client.addEventListener("status", (e) => {
      const online = e.detail.status === "online";
      // Offline, the outbox takes over: it is sent again after the next authentication.
      if (!online) this.pauseRetries();
      // Offline, we no longer know who is here; the next subscribe sends a snapshot.
      this.store.update(["status", "presence", "conversations"], (s) => ({
        status: e.detail.status, restarting: !!e.detail.restarting, presence: online ? s.presence : {},
      }));
    });
    client.addEventListener("message", (e) => this.onMessage(e.detail));
    client.addEventListener("member", (e) => this.onMember(e.detail));
    client.addEventListener("conversation", (e) => this.onConversation(e.detail));
    client.addEventListener("presence", (e) => this.onPresence(e.detail));
  }

  async onReady({ user, installedApps, token }) {
    const first = !this.store.state.user || this.store.state.user.id !== user.id;
    this.store.token = token;
    if (first) {
      this.store.loadForUser(user.id);
      this.restoreOutbox(user.id);
    }
    this.store.update(["user", "apps"], () => ({ user, installedApps }));
    try {
      const { conversations } = await this.client.request("conversations.list");
      // keep the server's order (most recently active first) and what we knew
      const byId = new Map(this.store.state.conversations.map((c) => [c.id, c]));
      const list = conversations.map((c) => ({ ...byId.get(c.id), ...c }));
      this.store.update(["conversations"], () => ({ conversations: list }));
      const subscribed = Promise.all(conversations.map((c) => this.subscribe(c.id)));
      this.dispatchEvent(new CustomEvent("ready", { detail: { first } }));
      await subscribed;
    } catch (error) {
      if (!(error instanceof ProtocolError) || !TRANSIENT.has(error.code)) console.warn("Parlor: sync failed", error);
    }
    this.flushOutbox();
  }

  restoreOutbox(userId) {
    for (const item of this.store.outbox()) {
      const t = addPending(this.store.transcript(item.conversationId), {
        clientId: item.clientId, sender: userId, createdAt: item.createdAt, message: item.message,
      });
      this.store.setTranscript(item.conversationId, t);
    }
  }

  async subscribe(conversationId) {
    const held = this.store.transcript(conversationId);
    const afterSeq = held.messages.length ? held.lastSeq : Math.max(held.lastSeq, this.store.state.lastRead[conversationId] || 0);
    this.store.setTranscript(conversationId, startAt(held, afterSeq));
    const r = await this.client.request("subscribe", { conversationId, afterSeq });
    this.store.update(["conversations"], (s) => ({ conversations: upsertConversation(s.conversations, r.conversation) }));
    if (r.resync) {
      this.store.setTranscript(conversationId, resync(this.store.transcript(conversationId), r.lastSeq));
      if (this.store.state.currentId === conversationId) await this.loadOlder(conversationId);
    }
  }

  onMessage({ conversationId, message, supersedes }) {
    const selfId = this.store.state.user?.id;
    this.learnName(conversationId, message.sender);
    const t = applyMessage(this.store.transcript(conversationId), message, supersedes, selfId);
    this.store.setTranscript(conversationId, t, ["conversations"]);
    this.store.update(["conversations"], (s) => ({ conversations: touchConversation(s.conversations, conversationId, message) }));
    if (message.sender === selfId) this.settle(message.clientId, message);
    this.dispatchEvent(new CustomEvent("message", { detail: { conversationId, message, supersedes } }));
  }

  /**
   * Big rooms list only their first members; a sender beyond them is looked up once,
   * in a batch with any others met in the same moment.
   */
  learnName(conversationId, userId) {
    const c = this.store.conversation(conversationId);
    if (!c || !userId || userId === this.store.state.user?.id || c.members.some((m) => m.userId === userId)) return;
    this.namesAsked ??= new Set();
    this.nameBatches ??= new Map();
    const key = `${conversationId}|${userId}`;
    if (this.namesAsked.has(key)) return;
    this.namesAsked.add(key);
    const batch = this.nameBatches.get(conversationId);
    if (batch) return void batch.add(userId);
    this.nameBatches.set(conversationId, new Set([userId]));
    queueMicrotask(() => {
      const userIds = [...this.nameBatches.get(conversationId)].slice(0, 200);
      this.nameBatches.delete(conversationId);
      this.client.request("members", { conversationId, userIds }).then(
        (r) => { for (const member of r.members) this.onMember({ conversationId, member }); },
        () => { for (const u of userIds) this.namesAsked.delete(`${conversationId}|${u}`); },
      );
    });
  }

  /** A conversation this user created or joined elsewhere (another tab or device). */
  onConversation({ conversation }) {
    const known = this.store.state.conversations.some((c) => c.id === conversation.id);
    this.store.update(["conversations"], (s) => ({ conversations: upsertConversation(s.conversations, conversation) }));
    if (!known) this.subscribe(conversation.id).catch(() => {});
  }

  onMember({ conversationId, member }) {
    this.store.update(["conversations", `transcript:${conversationId}`], (s) => ({
      conversations: applyMember(s.conversations, conversationId, member),
    }));
    // a new member has participant ids the maps do not know yet
    this.participantRequests.forEach((_, key) => {
      if (key.startsWith(`${conversationId}|`)) this.participantRequests.delete(key);
    });
    this.dispatchEvent(new CustomEvent("member", { detail: { conversationId, member } }));
  }

  onPresence(frame) {
    this.store.update(["presence", "conversations"], (s) => ({
      presence: { ...s.presence, [frame.conversationId]: applyPresence(s.presence[frame.conversationId] || new Set(), frame) },
    }));
  }

  /**
   * One app's per-user storage. It lives on the server so it follows the user to
   * every device; this browser keeps a copy to read while offline.
   */
  appData(appId) {
    let p = this.appDataCache.get(appId);
    if (!p) {
      p = this.client.request("appdata.get", { appId }).then(
        (r) => {
          this.store.saveAppData(appId, r.data);
          return r.data;
        },
        (error) => {
          this.appDataCache.delete(appId);
          if (error.code === "offline") return this.store.appData(appId);
          throw error;
        },
      );
      this.appDataCache.set(appId, p);
    }
    return p;
  }

  /** Stores (or, with null, removes) one key of an app's storage on the server. */
  async setAppData(appId, key, value) {
    await this.client.request("appdata.set", { appId, key, value: value === undefined ? null : value });
    const data = { ...(await this.appData(appId)) };
    if (value === null || value === undefined) delete data[key];
    else data[key] = value;
    this.appDataCache.set(appId, Promise.resolve(data));
    this.store.saveAppData(appId, data);
  }

  /** Loads a page of older messages for a conversation. */
  async loadOlder(conversationId, limit = 50) {
    const t = this.store.transcript(conversationId);
    if (t.loaded && !t.hasMoreBefore) return;
    const beforeSeq = historyCursor(t);
    if (beforeSeq <= 1) {
      this.store.setTranscript(conversationId, { ...t, loaded: true, hasMoreBefore: false });
      return;
    }
    const r = await this.client.request("history", { conversationId, beforeSeq, limit });
    this.store.setTranscript(conversationId, applyHistory(this.store.transcript(conversationId), r.messages, r.hasMore));
  }

  // ---- sending ------------------------------------------------------------

  /**
   * Sends a message with a local echo. Resolves with the stored message;
   * rejects with a ProtocolError the server gave (not for being offline: the
   * outbox keeps it and sends it on reconnect, and the promise waits).
   * @param {string} conversationId
   * @param {object} message an outbound body ({kind, …})
   */
  send(conversationId, message) {
    const problem = outboundProblem(message);
    if (problem) return Promise.reject(new ProtocolError({ code: "invalid_field", message: problem }));
    const user = this.store.state.user;
    const item = { clientId: newClientId(), conversationId, message, createdAt: Date.now() };
    this.store.saveOutbox([...this.store.outbox(), item]);
    this.store.setTranscript(conversationId, addPending(this.store.transcript(conversationId), {
      clientId: item.clientId, sender: user.id, createdAt: item.createdAt, message,
    }));
    const settled = new Promise((resolve, reject) => this.waiters.set(item.clientId, { resolve, reject }));
    this.trySend(item);
    return settled;
  }

  async trySend(item) {
    const id = item.clientId;
    if (this.client.status !== "online" || this.inflight.has(id)) return;
    const retry = this.retries.get(id);
    if (retry) {
      clearTimeout(retry.timer);
      retry.timer = null;
    }
    this.inflight.add(id);
    let answer;
    try {
      answer = await this.client.request("send", { conversationId: item.conversationId, clientId: id, message: item.message });
    } catch (error) {
      this.inflight.delete(id);
      this.sendFailed(item, error);
      return;
    }
    this.inflight.delete(id);
    this.retries.delete(id);
    this.dropFromOutbox(id);
    this.onMessage({ conversationId: item.conversationId, message: answer.message, supersedes: answer.supersedes });
  }

  sendFailed(item, error) {
    if (RETRYABLE.has(error.code) && this.scheduleRetry(item, error.code)) return; // still "Sending…"
    if (error.code === "offline") return; // stays in the outbox, sent again on reconnect
    // refused, or retried in vain: the echo shows as failed, with Retry where that can help
    this.retries.delete(item.clientId);
    this.dropFromOutbox(item.clientId);
    this.store.setTranscript(item.conversationId, failPending(this.store.transcript(item.conversationId), item.clientId, error.code, error.current));
    const w = this.waiters.get(item.clientId);
    this.waiters.delete(item.clientId);
    if (w) w.reject(error);
    else this.dispatchEvent(new CustomEvent("sendfailed", { detail: { item, error } }));
  }

  /**
   * A send answered `internal` or timed out while online: the same send again
   * after a backoff, with the same clientId. False once the attempts are used up.
   */
  scheduleRetry(item, code) {
    const id = item.clientId;
    const r = this.retries.get(id) || { attempts: 0, timer: null };
    r.attempts++;
    const delay = sendRetryDelay(code, r.attempts, this.random);
    if (delay === null) return false;
    this.retries.set(id, r);
    r.timer = setTimeout(() => {
      if (this.retries.get(id) !== r) return; // settled or given up meanwhile
      r.timer = null;
      this.trySend(item);
    }, delay);
    return true;
  }

  /** The connection dropped: no timed retries; the outbox is flushed on reconnect. */
  pauseRetries() {
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
  }

  settle(clientId, message) {
    this.forgetRetry(clientId);
    const w = this.waiters.get(clientId);
    if (!w) return;
    this.waiters.delete(clientId);
    this.dropFromOutbox(clientId);
    w.resolve(message);
  }

  dropFromOutbox(clientId) {
    const items = this.store.outbox();
    if (items.some((i) => i.clientId === clientId)) this.store.saveOutbox(items.filter((i) => i.clientId !== clientId));
  }

  async flushOutbox() {
    if (this.flushing) return;
    this.flushing = true;
    try {
      for (const item of this.store.outbox()) {
        if (this.client.status !== "online") break;
        await this.trySend(item);
      }
    } finally {
      this.flushing = false;
    }
  }

  /** A failed local echo: try again with the same client id, or forget it. */
  retry(conversationId, clientId) {
    const t = this.store.transcript(conversationId);
    const p = t.pending.find((x) => x.clientId === clientId);
    if (!p) return;
    const item = { clientId, conversationId, message: p.message, createdAt: p.createdAt };
    this.store.saveOutbox([...this.store.outbox(), item]);
    this.store.setTranscript(conversationId, retryPending(t, clientId));
    this.trySend(item);
  }

  discard(conversationId, clientId) {
    this.forgetRetry(clientId);
    this.dropFromOutbox(clientId);
    this.store.setTranscript(conversationId, removePending(this.store.transcript(conversationId), clientId));
  }

  // ---- participants --------------------------------------------------------

  /**
   * The participant map of one app in one conversation (cached):
   * {local, toUser: Map<pid, userId>, toParticipant: Map<userId, pid>}.
   */
  participants(conversationId, appId) {
    const key = `${conversationId}|${appId}`;
    let p = this.participantRequests.get(key);
    if (!p) {
      p = this.client.request("participants", { conversationId, appId }).then((r) => {
        const map = {
          local: r.local,
          toUser: new Map(r.participants.map((x) => [x.participantId.toLowerCase(), x.userId])),
          toParticipant: new Map(r.participants.map((x) => [x.userId, x.participantId])),
        };
        this.store.update([`transcript:${conversationId}`], (s) => ({
          participants: { ...s.participants, [key]: map },
        }));
        return map;
      });
      p.catch(() => this.participantRequests.delete(key));
      this.participantRequests.set(key, p);
    }
    return p;
  }

  // ---- account and conversations ----------------------------------------------

  async createConversation(title) {
    const r = await this.client.request("conversations.create", { title });
    this.store.update(["conversations"], (s) => ({ conversations: upsertConversation(s.conversations, r.conversation) }));
    await this.subscribe(r.conversation.id);
    return r;
  }

  async join(invite) {
    const r = await this.client.request("conversations.join", { invite });
    this.store.update(["conversations"], (s) => ({ conversations: upsertConversation(s.conversations, r.conversation) }));
    await this.subscribe(r.conversation.id);
    return r.conversation;
  }

  async rename(name) {
    const r = await this.client.request("rename", { name });
    this.store.update(["user", "conversations"], (s) => ({ user: r.user, conversations: renameEverywhere(s.conversations, r.user) }));
  }

  async setInstalled(appId, install) {
    const r = await this.client.request(install ? "apps.install" : "apps.uninstall", { appId });
    this.store.update(["apps"], () => ({ installedApps: r.installedApps }));
    return r.installedApps;
  }

  /** Uploads an image blob; resolves with its hash. */
  async upload(blob) {
    const res = await fetch("/blobs", {
      method: "POST",
      headers: { Authorization: `Bearer ${this.store.token}`, "Content-Type": blob.type || "application/octet-stream" },
      body: blob,
    });
    let body = {};
    try {
      body = await res.json();
    } catch {
      // no body
    }
    if (!res.ok) throw new ProtocolError({ code: body.code || "upload_failed", message: `upload failed (${res.status})` });
    if (typeof body.hash !== "string" || !/^[0-9a-f]{64}$/.test(body.hash)) throw new ProtocolError({ code: "upload_failed", message: "bad upload answer" });
    return body.hash;
  }
}
