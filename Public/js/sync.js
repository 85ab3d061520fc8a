// Keeps the store in step with the server. Each job is a module of sync/:
// resume.js (catching up after every authentication, history), outbox.js
// (sends, retries, the outbox), appData.js (apps' per-user storage),
// participants.js (who is behind app-scoped ids), names.js (senders beyond the
// member list), uploads.js (image blobs) and readMarks.js (read marks, which
// follow the person between her devices). This class wires them to the
// client's events, folds live events into the store, and is what the page calls.

import { applyMessage, applyEdit, trimmed, heldBack, heldAfter, resync, messageBySeq } from "./state/transcript.js";
import { upsertConversation, touchConversation, applyMember, applyPresence, renameEverywhere, rememberFormer } from "./state/conversations.js";
import { ProtocolError } from "./net/client.js";
import { Resume } from "./sync/resume.js";
import { Outbox } from "./sync/outbox.js";
import { AppData } from "./sync/appData.js";
import { Participants } from "./sync/participants.js";
import { Names } from "./sync/names.js";
import { upload, uploadWhenReachable } from "./sync/uploads.js";
import { PendingImages } from "./sync/pendingImages.js";
import { PlayingMarks } from "./sync/playing.js";
import { ReadMarks } from "./sync/readMarks.js";
import { mentionsIn } from "./state/mentions.js";
import { blockedIds } from "./state/direct.js";
import { NotifyLevels } from "./sync/notifyLevels.js";
import { TypingNotices } from "./sync/typing.js";

const TRANSIENT = new Set(["offline", "timeout", "internal"]);

/**
 * A transcript holding more than `max` messages lets the oldest go, down to
 * `keep`, unless someone is reading them (state/transcript.js: trimmed); they
 * come back by history paging. One who reads far up has at most `max` messages
 * below them: newer ones are held back until they come down (heldBack).
 */
export const HOLD = { max: 250, keep: 150 };

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
    this.resume = new Resume(client, store, (conversationId, userId) => this.names.learn(conversationId, userId),
      (conversationId) => this.readMarks.restarted(conversationId));
    /** The conversation the page is about to show, if any (the page says): caught up first. */
    this.resume.showingFirst = () => this.showingFirst();
    this.showingFirst = () => null;
    /** Whether someone is reading a conversation's older messages now (the page says): they are kept. */
    this.readingBack = () => false;
    /** The seq of the first message in view of a reader up among older ones, if known (the page says). */
    this.readerSeq = () => null;
    /** images of staged and outbox messages, uploaded when those are sent */
    this.images = new PendingImages();
    this.outbox = new Outbox(client, store, {
      images: this.images,
      upload: (blob) => upload(blob, this.store.token),
      random,
      stored: (conversationId, message, supersedes) => this.onMessage({ conversationId, message, supersedes }),
      failed: (item, error) => this.dispatchEvent(new CustomEvent("sendfailed", { detail: { item, error } })),
      limited: (item, retryInMs, code) => this.dispatchEvent(new CustomEvent("ratelimited", { detail: { item, retryInMs, code } })),
    });
    this.storage = new AppData(client, store);
    this.participantMaps = new Participants(client, store);
    this.playing = new PlayingMarks(client, store);
    this.readMarks = new ReadMarks(client, store);
    this.notifyLevels = new NotifyLevels(client, store);
    this.typing = new TypingNotices(client, store, this);
    // in a big room a typer's name may not be known yet (members are listed up to 200)
    client.addEventListener("typing", (e) => this.names.learn(e.detail.conversationId, e.detail.userId));
    this.names = new Names(client, store, (conversationId, member, { former = false } = {}) => {
      if (former) this.store.update(["conversations", `transcript:${conversationId}`], (s) => ({ conversations: rememberFormer(s.conversations, conversationId, member) }));
      else this.onMember({ conversationId, member });
    });
    client.addEventListener("ready", (e) => this.onReady(e.detail));
    client.addEventListener("status", (e) => {
      const online = e.detail.status === "online";
      // Offline, the outbox takes over: it is sent again after the next authentication.
      if (!online) this.outbox.pauseRetries();
      // Offline, we no longer know who is here; the next subscribe sends a snapshot.
      this.store.update(["status", "presence", "conversations"], (s) => ({
        status: e.detail.status, restarting: !!e.detail.restarting, presence: online ? s.presence : {},
      }));
    });
    client.addEventListener("message", (e) => this.onMessage(e.detail));
    client.addEventListener("member", (e) => this.onMember(e.detail));
    client.addEventListener("conversation", (e) => this.onConversation(e.detail));
    client.addEventListener("presence", (e) => this.onPresence(e.detail));
    client.addEventListener("appdata", (e) => this.onAppData(e.detail));
    client.addEventListener("apps", (e) => this.store.update(["apps"], () => ({ installedApps: e.detail.installedApps })));
    client.addEventListener("recovery", (e) => this.onRecovery(e.detail));
    client.addEventListener("read", (e) => this.readMarks.heard(e.detail.conversationId, e.detail.seq));
    client.addEventListener("notify", (e) => this.notifyLevels.heard(e.detail.conversationId, e.detail.notify));
    client.addEventListener("user", (e) => this.onUser(e.detail));
  }

  async onReady({ user, installedApps, token, recoveryKey, device }) {
    const first = !this.store.state.user || this.store.state.user.id !== user.id;
    this.store.token = token;
    this.store.keepAccount(user.id);
    if (first) {
      this.store.loadForUser(user.id);
      this.readMarks.reset();
    }
    // shown once by the server: kept in this browser only until the person says it is saved
    if (recoveryKey) this.store.saveRecoveryKey(recoveryKey);
    this.store.update(["user", "apps"], () => ({ user, installedApps, device: device ?? null }));
    if (first) {
      this.images.forUser(user.id);
      this.outbox.restore(user.id);
      this.restoreImages();
    }
    try {
      const { subscribed, conversations } = await this.resume.catchUp();
      this.readMarks.listed(conversations);
      this.notifyLevels.migrate(this.store.state.user.id).catch(() => {});
      this.dispatchEvent(new CustomEvent("ready", { detail: { first } }));
      await subscribed;
    } catch (error) {
      if (!(error instanceof ProtocolError) || !TRANSIENT.has(error.code)) console.warn("Parlor: sync failed", error);
    }
    this.flushOutbox();
    this.storage.flushPending();
  }

  /** The waiting images of what a previous page left staged or in the outbox: their previews, and nothing else kept. */
  async restoreImages() {
    const keys = new Set(this.store.outbox().map((i) => i.imageKey));
    for (const list of Object.values(this.store.state.staged)) for (const s of list) keys.add(s.imageKey);
    keys.delete(undefined);
    await this.images.load(keys);
    await this.images.prune(keys);
    if (keys.size) this.store.update(["staged"], (s) => ({ staged: { ...s.staged } }));
  }

  // ---- live events ------------------------------------------------------------

  onMessage({ conversationId, message, supersedes }) {
    const selfId = this.store.state.user?.id;
    this.names.learn(conversationId, message.sender);
    let t = this.store.transcript(conversationId);
    // asked only of a transcript at its bound (the page reads the scroll position, a layout)
    const readingBack = t.messages.length >= HOLD.max && this.readingBack(conversationId);
    const reader = readingBack ? this.readerSeq(conversationId) : null;
    // this tab's own message (an app's move, a Retry) shows where it was sent, at the newest
    // (a reaction adds no row: it is held however far up the reader is, and shows on its
    // bubble if that is held; newerCursor pages from before it)
    // (an edit record neither: it changes a bubble where it stands, if that is held)
    const reaction = message.kind === "reaction" || message.kind === "edit";
    const startOver = !reaction && t.hasMoreAfter && message.sender === selfId && t.pending.some((p) => p.clientId === message.clientId);
    if (startOver) t = resync(t, t.lastSeq);
    if (!reaction && (t.hasMoreAfter || (reader !== null && heldAfter(t, reader) >= HOLD.max))) t = heldBack(t, message, supersedes, selfId, blockedIds(this.store.state.blocked));
    else t = applyMessage(t, message, supersedes, selfId);
    if (t.messages.length > HOLD.max && !readingBack && !t.hasMoreAfter) t = trimmed(t, HOLD.keep);
    this.store.setTranscript(conversationId, t, ["conversations"]);
    if (startOver) this.loadOlder(conversationId).catch(() => {});
    this.store.update(["conversations"], (s) => ({ conversations: touchConversation(s.conversations, conversationId, message) }));
    if (message.sender === selfId) this.outbox.settle(message.clientId, message);
    this.dispatchEvent(new CustomEvent("message", { detail: { conversationId, message, supersedes } }));
  }

  /** A conversation this user created or joined elsewhere (another tab or device). */
  onConversation({ conversation }) {
    const known = this.store.state.conversations.some((c) => c.id === conversation.id);
    this.store.update(["conversations"], (s) => ({ conversations: upsertConversation(s.conversations, conversation) }));
    if (!known) this.subscribe(conversation.id).catch(() => {});
  }

  onMember({ conversationId, member, change, memberCount, by }) {
    const selfId = this.store.state.user?.id;
    this.store.update(["conversations", `transcript:${conversationId}`], (s) => ({
      conversations: applyMember(s.conversations, conversationId, member, { change, memberCount, by, selfId }),
    }));
    // renamed on another device: the name this page shows as its own follows
    if (change === "renamed" && member.userId === selfId && member.name !== this.store.state.user.name)
      this.store.update(["user"], (s) => ({ user: { ...s.user, name: member.name } }));
    this.participantMaps.memberChanged(conversationId, member);
    this.dispatchEvent(new CustomEvent("member", { detail: { conversationId, member, change, by, self: member.userId === selfId } }));
  }

  /** Renamed on another device: the name this page shows as its own follows, in no conversation too. */
  onUser({ user }) {
    const me = this.store.state.user;
    if (!me || user.id !== me.id || user.name === me.name) return;
    this.store.update(["user"], (s) => ({ user: { ...s.user, name: user.name } }));
  }

  /** This user's app storage changed (another device, or this page's own echo): see AppData.heard. */
  onAppData({ appId, key, value }) {
    if (!this.storage.heard(appId, key, value ?? null)) return;
    this.dispatchEvent(new CustomEvent("appdata", { detail: { appId, key, value: value ?? null } }));
  }

  /**
   * A new recovery key was made. On another device the one this browser kept to remind
   * the person to save it is dead now: forgotten, and the reminder goes.
   */
  onRecovery({ deviceId }) {
    const here = this.store.state.device?.id;
    if (deviceId && here && deviceId === here) return;
    if (this.store.recoveryKey || this.store.state.unsavedRecoveryKey) this.store.saveRecoveryKey(null);
    this.dispatchEvent(new CustomEvent("recoverykeyreplaced"));
  }

  onPresence(frame) {
    this.store.update(["presence", "conversations"], (s) => ({
      presence: { ...s.presence, [frame.conversationId]: applyPresence(s.presence[frame.conversationId] || new Set(), frame) },
    }));
  }

  // ---- what the page asks for ---------------------------------------------------

  subscribe(conversationId) {
    return this.resume.subscribe(conversationId);
  }

  loadOlder(conversationId, limit) {
    return this.resume.loadOlder(conversationId, limit);
  }

  /** The next page of what was held back while the reader was far up. */
  loadNewer(conversationId, limit) {
    return this.resume.loadNewer(conversationId, limit);
  }

  /** A page around `seq` in place of what is held (sync/resume.js). */
  loadAround(conversationId, seq, limit) {
    return this.resume.loadAround(conversationId, seq, limit);
  }

  /** Straight to the newest messages, letting go of what is held if newer ones were held back. */
  jumpToNewest(conversationId) {
    const t = this.store.transcript(conversationId);
    if (!t.hasMoreAfter) return;
    this.store.setTranscript(conversationId, resync(t, t.lastSeq));
    this.loadOlder(conversationId).catch(() => {});
  }

  /** A conversation left for another: the pages of older messages read in it are let go. */
  letGoOlder(conversationId) {
    const t = this.store.transcript(conversationId);
    // held back from the newest: it opens again at the newest (whose page also counts its unread)
    if (t.hasMoreAfter) return this.jumpToNewest(conversationId);
    const after = trimmed(t, HOLD.keep);
    if (after !== t) this.store.setTranscript(conversationId, after);
  }

  /** See sync/outbox.js: resolves with the stored message, rejects with the server's refusal. */
  send(conversationId, message, pending) {
    return this.outbox.send(conversationId, message, pending);
  }

  flushOutbox() {
    return this.outbox.flush();
  }

  retry(conversationId, clientId) {
    this.outbox.retry(conversationId, clientId);
  }

  discard(conversationId, clientId) {
    this.outbox.discard(conversationId, clientId);
  }

  /** A refused app move the app has had (sync/outbox.js). */
  takeRefused(clientId) {
    this.outbox.takeRefused(clientId);
  }

  /** {local, toUser: Map<pid, userId>, toParticipant: Map<userId, pid>} of one app in one conversation. */
  participants(conversationId, appId) {
    return this.participantMaps.map(conversationId, appId);
  }

  appData(appId) {
    return this.storage.get(appId);
  }

  setAppData(appId, key, value) {
    return this.storage.set(appId, key, value);
  }

  /** Uploads an image blob; resolves with its hash, once the server can be reached (sync/uploads.js). */
  upload(blob) {
    return uploadWhenReachable(blob, {
      token: () => this.store.token,
      online: () => this.client.status === "online",
      whenOnline: () => this.whenOnline(),
      random: this.random,
    });
  }

  /** Resolves at the client's next "online" (signed in again), or now if it is. */
  whenOnline() {
    if (this.client.status === "online") return Promise.resolve();
    return new Promise((resolve) => {
      const on = (e) => {
        if (e.detail.status !== "online") return;
        this.client.removeEventListener("status", on);
        resolve();
      };
      this.client.addEventListener("status", on);
    });
  }

  // ---- account and conversations ----------------------------------------------

  async createConversation(title) {
    const r = await this.client.request("conversations.create", { title });
    this.store.update(["conversations"], (s) => ({ conversations: upsertConversation(s.conversations, r.conversation) }));
    await this.subscribe(r.conversation.id);
    return r;
  }

  /**
   * Joins through an invite. `conversationId`, known from the invite's peek: its
   * subscribe goes right behind the join, a round trip sooner (the server takes a
   * connection's requests in order, so it is answered as a member, or refused with
   * the join).
   */
  async join(invite, conversationId = null) {
    const joining = this.client.request("conversations.join", { invite });
    const behind = conversationId ? this.subscribe(conversationId) : null;
    behind?.catch(() => {}); // refused with the join: its answer says why
    const r = await joining;
    // a member again: no longer left (the kept copy said so)
    this.store.update(["conversations"], (s) => ({ conversations: upsertConversation(s.conversations, { ...r.conversation, left: undefined }) }));
    await (behind && r.conversation.id === conversationId ? behind : this.subscribe(r.conversation.id));
    return r.conversation;
  }

  /** Leaves a conversation; the member event that follows marks it left. */
  async leave(conversationId) {
    await this.client.request("conversations.leave", { conversationId });
    this.onMember({ conversationId, member: this.store.state.user, change: "left" });
  }

  removeMember(conversationId, userId) {
    return this.client.request("conversations.removeMember", { conversationId, userId });
  }

  async renameConversation(conversationId, title) {
    const r = await this.client.request("conversations.rename", { conversationId, title });
    this.store.update(["conversations"], (s) => ({ conversations: upsertConversation(s.conversations, r.conversation) }));
  }

  /**
   * Edits one's own text (docs/PROTOCOL.md, messages.edit): shown at once from the
   * answer (the edit record arrives live too). Not queued: offline it is refused
   * ("offline"), and the person keeps what they typed.
   */
  async editMessage(conversationId, seq, text) {
    // the new text's mentions replace the old ones ([]: it names nobody now)
    const ask = { conversationId, seq, text };
    const mentions = mentionsIn(text, this.store.conversation(conversationId)?.members ?? []);
    if (mentions.length || messageBySeq(this.store.transcript(conversationId), seq)?.mentions?.length) ask.mentions = mentions;
    const { message: m } = await this.client.request("messages.edit", ask);
    const record = { seq: 0, edits: m.seq, createdAt: m.editedAt ?? Date.now(), text: m.text, mentions: m.mentions, editCount: m.editCount };
    this.store.setTranscript(conversationId, applyEdit(this.store.transcript(conversationId), record), ["conversations"]);
    return m;
  }

  /** Deletes a message (own, or any for an admin); the deletion record arrives live. */
  deleteMessage(conversationId, seq) {
    return this.client.request("messages.delete", { conversationId, seq });
  }

  async rename(name) {
    const r = await this.client.request("rename", { name });
    // the answer names the user; whether they are an admin is known from sign-in
    this.store.update(["user", "conversations"], (s) => ({ user: { ...s.user, ...r.user }, conversations: renameEverywhere(s.conversations, r.user) }));
  }

  async setInstalled(appId, install) {
    const r = await this.client.request(install ? "apps.install" : "apps.uninstall", { appId });
    this.store.update(["apps"], () => ({ installedApps: r.installedApps }));
    return r.installedApps;
  }
}
