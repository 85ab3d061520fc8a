// Resuming after every (re)authentication: the conversations are listed again
// and each is subscribed to from the last seq this page holds, so the server
// replays only what was missed (or says to start over). Older messages come by
// history paging, a page at a time, as the user scrolls up.

import { applyHistory, applyNewer, resync, startAt, historyCursor, newerCursor } from "../state/transcript.js";
import { aroundPage } from "../state/search.js";
import { upsertConversation } from "../state/conversations.js";
import { blockedIds } from "../state/direct.js";

export class Resume {
  /**
   * @param {import("../net/client.js").ParlorClient} client
   * @param {import("../store.js").Store} store
   * @param {(conversationId: string, userId: string) => void} [learn]  meets the sender of each message of a page
   */
  constructor(client, store, learn = () => {}, restarted = () => {}) {
    this.client = client;
    this.store = store;
    this.learn = learn;
    /** a conversation the server started over (resync): the page's read mark follows */
    this.restarted = restarted;
    /** conversationId → the page of history on its way: asked once, whoever asks */
    this.loading = new Map();
    /** The conversation the page is about to show (the address's), if any: it goes first. */
    this.showingFirst = () => null;
  }

  /**
   * Lists the conversations (the server's order, most recently active first,
   * keeping what we knew of each) and subscribes to each.
   * @returns {Promise<{subscribed: Promise<void[]>, conversations: object[]}>} once listed (the list as the
   *   server answered it); the subscriptions are still on their way
   */
  async catchUp() {
    // asked with the sign-in (main.js), else now
    const { conversations } = await (this.client.signInAnswer("conversations.list", {}) ?? this.client.request("conversations.list"));
    const byId = new Map(this.store.state.conversations.map((c) => [c.id, c]));
    const list = conversations.map((c) => ({ ...byId.get(c.id), ...c }));
    // one this user left or was removed from stays in view, marked, until the page is left
    const listed = new Set(conversations.map((c) => c.id));
    list.push(...this.store.state.conversations.filter((c) => c.left && !listed.has(c.id)));
    this.store.update(["conversations"], () => ({ conversations: list }));
    // The one about to be shown first, and its last page right after it: the server answers
    // in order, and behind 300 subscriptions' replays a phone showed it 4.6 s after the list.
    const first = this.showingFirst();
    const ids = conversations.map((c) => c.id);
    const order = listed.has(first) ? [first, ...ids.filter((id) => id !== first)] : ids;
    const subscribed = order.map((id) => {
      const done = this.subscribe(id);
      if (id === first && !this.store.transcript(id).loaded) this.loadOlder(id).catch(() => {});
      return done;
    });
    return { subscribed: Promise.all(subscribed), conversations };
  }

  /**
   * What to send with the sign-in (ParlorClient's withSignIn): the subscription of the
   * conversation shown, so what it holds comes a round trip sooner. On a reconnect,
   * from what is held (only where its messages are: what the server replays then
   * follows them as it would after the list). On a reload nothing is held: from the
   * read mark this browser kept for the account whose token it holds, as the subscribe
   * after the list would be, with the page before it.
   */
  withSignIn() {
    const id = this.showingFirst();
    if (!id) return [];
    if (this.store.state.user) return this.store.transcript(id).messages.length ? [["subscribe", this.subscription(id)]] : [];
    const kept = this.store.keptMarks();
    if (!kept) return [];
    const fields = this.subscription(id, kept);
    const page = this.pageFields(startAt(this.store.transcript(id), fields.afterSeq), id);
    return [["subscribe", fields], ...(page ? [["history", page]] : [])];
  }

  /** A subscribe's fields: from the last message held, else from the read mark. */
  subscription(conversationId, lastRead = this.store.state.lastRead) {
    const held = this.store.transcript(conversationId);
    const afterSeq = held.messages.length ? held.lastSeq : Math.max(held.lastSeq, lastRead[conversationId] || 0);
    // Which message this page holds at afterSeq: after a server was restored from a
    // backup, others' new messages took seqs this page had seen, and without it the
    // page kept the lost ones and never got those (the server answers resync).
    const afterClientId = held.messages.find((m) => m.seq === afterSeq)?.clientId;
    return { conversationId, afterSeq, ...(afterClientId ? { afterClientId } : {}) };
  }

  async subscribe(conversationId) {
    const fields = this.subscription(conversationId);
    this.store.setTranscript(conversationId, startAt(this.store.transcript(conversationId), fields.afterSeq));
    // sent with the sign-in if it was (withSignIn), else now
    const r = await (this.client.signInAnswer("subscribe", fields) ?? this.client.request("subscribe", fields));
    this.store.update(["conversations"], (s) => ({ conversations: upsertConversation(s.conversations, r.conversation) }));
    if (r.resync) {
      this.store.setTranscript(conversationId, resync(this.store.transcript(conversationId), r.lastSeq));
      this.restarted(conversationId);
    }
    // the open conversation shows its last page, also when asking for it failed before
    // (the connection dropped while it was on its way): it showed nothing, and was never asked again
    const t = this.store.transcript(conversationId);
    if (this.store.state.currentId === conversationId && (!t.loaded || (t.messages.length === 0 && t.hasMoreBefore))) {
      await this.loadOlder(conversationId);
    }
  }

  /**
   * Loads a page of older messages for a conversation: the one on its way, if one is
   * for the transcript as it is (not for one that started over or let pages go since).
   */
  loadOlder(conversationId, limit = 50) {
    return this.once(`${conversationId}|${this.store.transcript(conversationId).epoch ?? 0}`, () => this.loadPage(conversationId, limit));
  }

  /** The next page of newer messages, after the newest held (the ones held back; state/transcript.js). */
  loadNewer(conversationId, limit = 50) {
    return this.once(`newer|${conversationId}|${this.store.transcript(conversationId).epoch ?? 0}`, async () => {
      const t = this.store.transcript(conversationId);
      if (!t.hasMoreAfter) return;
      const r = await this.client.request("history", { conversationId, afterSeq: newerCursor(t), limit });
      const now = this.store.transcript(conversationId);
      if ((now.epoch ?? 0) !== (t.epoch ?? 0) || !now.hasMoreAfter) return;
      this.store.setTranscript(conversationId, applyNewer(now, r.messages, r.hasMore, this.store.state.user?.id, blockedIds(this.store.state.blocked)));
      for (const m of r.messages) this.learn(conversationId, m.sender);
    });
  }

  /**
   * A page of messages around `seq`, in place of what is held: a message found far
   * back (a search's, a reply's original thousands of messages up) is shown without
   * paging in everything newer. The newer ones come back as the reader comes down
   * (hasMoreAfter, loadNewer) or jumps to the newest.
   */
  loadAround(conversationId, seq, limit = 50) {
    return this.once(`around|${conversationId}|${this.store.transcript(conversationId).epoch ?? 0}`, async () => {
      const t = this.store.transcript(conversationId);
      const r = await this.client.request("history", { conversationId, beforeSeq: seq + Math.floor(limit / 2), limit });
      const now = this.store.transcript(conversationId);
      if ((now.epoch ?? 0) !== (t.epoch ?? 0)) return;
      this.store.setTranscript(conversationId, aroundPage(now, r.messages, r.hasMore));
      for (const m of r.messages) this.learn(conversationId, m.sender);
    });
  }

  /** The request on its way under `key`, else a new one: asked once, whoever asks. */
  once(key, load) {
    let loading = this.loading.get(key);
    if (!loading) {
      loading = load().finally(() => this.loading.delete(key));
      this.loading.set(key, loading);
    }
    return loading;
  }

  /** The next older page's history fields, or null when there is none before what is held. */
  pageFields(t, conversationId, limit = 50) {
    const beforeSeq = historyCursor(t);
    return beforeSeq > 1 ? { conversationId, beforeSeq, limit } : null;
  }

  async loadPage(conversationId, limit) {
    const t = this.store.transcript(conversationId);
    if (t.loaded && !t.hasMoreBefore) return;
    const fields = this.pageFields(t, conversationId, limit);
    if (!fields) {
      this.store.setTranscript(conversationId, { ...t, loaded: true, hasMoreBefore: false });
      return;
    }
    // sent with the sign-in if it was (withSignIn: a reload's first page), else now
    const r = await (this.client.signInAnswer("history", fields) ?? this.client.request("history", fields));
    const now = this.store.transcript(conversationId);
    // started over (a resync) or let older pages go meanwhile: the page would leave a gap
    // between it and what is held, never filled (the newest page is asked for anew)
    if ((now.epoch ?? 0) !== (t.epoch ?? 0)) return;
    this.store.setTranscript(conversationId, applyHistory(now, r.messages, r.hasMore));
    // senders beyond the member list (who left, or a big room's) are named as a live message's are
    for (const m of r.messages) this.learn(conversationId, m.sender);
  }
}
