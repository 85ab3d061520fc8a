// The page's state, in one place. Changes go through the pure functions of
// state/*; the store only holds the result, persists what must survive a
// reload (token, drafts, outbox, read marks, app data) and tells views what
// changed. Beside the state it holds the two ledgers that are not drawn: the
// promises someone awaits (waiters.js) and the requests on the wire (requests.js).

import { emptyTranscript, dropSettledConflicts } from "./state/transcript.js";
import { keptPreviews } from "./state/previews.js";
import { keptRefused, shownRefused } from "./state/refused.js";
import { keptStaged, storableStaged } from "./state/composer.js";
import { shownName } from "./state/sameNames.js";
import { raisedMarks } from "./state/readMarks.js";
import { nameDirect } from "./state/direct.js";
import { readJSON, writeJSON, forget } from "./kept.js";
import { Waiters } from "./waiters.js";
import { Requests } from "./requests.js";

const KEY = {
  token: "parlor.token",
  // whose the token is: its read marks are known before it signs in (sync/resume.js)
  account: "parlor.account",
  lastRead: (u) => `parlor.lastRead.${u}`,
  outbox: (u) => `parlor.outbox.${u}`,
  refused: (u) => `parlor.refused.${u}`,
  unheard: (u) => `parlor.unheard.${u}`,
  // v2: before it, another's text was not named and could read as one's own ("You: …")
  previews: (u) => `parlor.previews.v2.${u}`,
  draft: (u, c) => `parlor.draft.${u}.${c}`,
  staged: (u) => `parlor.staged.${u}`,
  appData: (u, a) => `parlor.appdata.${u}.${a}`,
  appDataPending: (u) => `parlor.appdataPending.${u}`,
  recoveryKey: "parlor.recoveryKey",
};

/** Where an account's own data is kept: its id follows the prefix. */
const PER_USER = ["lastRead", "outbox", "refused", "unheard", "previews", "draft", "staged", "appdata", "appdataPending", "notify", "muted"].map((k) => `parlor.${k}.`);

export class Store extends EventTarget {
  constructor() {
    super();
    this.state = {
      status: "connecting",
      restarting: false,
      user: null,
      /** this browser's device, as the server lists it */
      device: null,
      /** a recovery key the person has not yet said they saved */
      unsavedRecoveryKey: null,
      installedApps: [],
      conversations: [],
      /** whom this person blocked, {userId, name} (sync/direct.js) */
      blocked: [],
      transcripts: {},
      presence: {},
      /** conversationId → {sessionId: [userId…]}: who has a session open in the expanded pane */
      playing: {},
      /** conversationId → {userId: when their typing notice ends} (sync/typing.js) */
      typing: {},
      /** "conversationId|appId" → {local, toUser, toParticipant}: who is behind each app-scoped id */
      participants: {},
      staged: {},
      currentId: null,
      lastRead: {},
      /** conversationId → {seq, at, text}: the list's line (state/previews.js; kept in localStorage too) */
      previews: {},
      notices: {},
      /** sends the server has not confirmed, oldest first (kept in localStorage too) */
      outbox: [],
      /** app moves refused as stale, kept while their grey copy is shown (state/refused.js; in localStorage too) */
      refused: [],
      /** appId → this user's storage for that app, as the server has it */
      appData: {},
      /** the app pane: {active, appId, style, conversationId, selected} or {active: false} */
      pane: { active: false },
    };
    /** sends (by "send:clientId") and staged items (by "staged:key") someone awaits */
    this.waiters = new Waiters();
    /** requests on the wire, by what they ask */
    this.requests = new Requests();
    /** copies that may wait a moment (writeSoon): key → value */
    this.unwritten = new Map();
    this.flushTimer = null;
  }

  /**
   * Keeps a copy for the next load that may wait a moment: written at most once a
   * second, and at once when the page is hidden or left (main.js calls flush). The
   * previews of every conversation (67 KB for 300) and the read marks were written
   * again for each message of a busy room.
   */
  writeSoon(key, value) {
    this.unwritten.set(key, value);
    this.flushTimer ??= setTimeout(() => this.flush(), 1000);
  }

  flush() {
    clearTimeout(this.flushTimer);
    this.flushTimer = null;
    for (const [key, value] of this.unwritten) writeJSON(key, value);
    this.unwritten.clear();
  }

  /**
   * Applies a change and tells the views which parts changed.
   * @param {string[]} parts e.g. ["conversations", "transcript:c1"]
   * @param {(s: object) => object} fn returns the fields that change
   */
  update(parts, fn) {
    const before = this.state;
    const patch = fn(before);
    const changed = new Set(parts);
    if (patch) {
      this.state = { ...before, ...patch };
      // a direct conversation is titled after its other person, whatever changed it
      if (patch.conversations) this.state.conversations = nameDirect(this.state.conversations, this.state.user?.id);
      if (patch.transcripts || patch.staged) this.settleConflicts(before, changed);
    }
    this.dispatchEvent(new CustomEvent("change", { detail: { parts: changed } }));
  }

  /**
   * A rule over state, not an event: after any change to a conversation's
   * transcript or staged items, a refused app move that the app or the session
   * has gone past leaves the transcript (state/transcript.js: dropSettledConflicts).
   */
  settleConflicts(before, changed) {
    const s = this.state;
    let transcripts = null;
    // a loop over the keys, not entries: this runs for each message, over every conversation
    for (const id in s.transcripts) {
      const t = s.transcripts[id];
      if (t === before.transcripts[id] && s.staged[id] === before.staged[id]) continue;
      const after = dropSettledConflicts(t, s.staged[id]);
      if (after === t) continue;
      transcripts ??= { ...s.transcripts };
      transcripts[id] = after;
      changed.add(`transcript:${id}`);
    }
    if (transcripts) this.state = { ...s, transcripts };
    this.forgetSettledRefusals(before, changed);
  }

  /** A refused move's record goes with its grey copy (Discard, or settled as above). */
  forgetSettledRefusals(before, changed) {
    const s = this.state;
    if (!s.refused.length) return;
    const touched = new Set(Object.keys(s.transcripts).filter((id) => s.transcripts[id] !== before.transcripts[id]));
    const kept = shownRefused(s.refused, s.transcripts, touched);
    if (kept === s.refused) return;
    this.state = { ...s, refused: kept };
    changed.add("refused");
    const uid = s.user?.id;
    if (uid) writeJSON(KEY.refused(uid), kept);
  }

  transcript(conversationId) {
    return this.state.transcripts[conversationId] || emptyTranscript();
  }

  setTranscript(conversationId, t, extraParts = []) {
    this.update([`transcript:${conversationId}`, ...extraParts], (s) => ({
      transcripts: { ...s.transcripts, [conversationId]: t },
    }));
  }

  conversation(id) {
    return this.state.conversations.find((c) => c.id === id);
  }

  memberName(conversationId, userId) {
    const c = this.conversation(conversationId);
    const m = c && c.members.find((x) => x.userId === userId);
    if (m) return shownName(c.members, m);
    if (this.state.user && userId === this.state.user.id) return this.state.user.name;
    return c?.former?.[userId] ?? "Someone";
  }

  // ---- persisted --------------------------------------------------------

  get token() {
    try {
      return localStorage.getItem(KEY.token);
    } catch {
      return null;
    }
  }

  set token(value) {
    try {
      if (value) localStorage.setItem(KEY.token, value);
      else {
        localStorage.removeItem(KEY.token);
        localStorage.removeItem(KEY.account);
      }
    } catch {
      // private mode without storage: the account lasts as long as the tab
    }
  }

  /** Whose the kept token is (signed in with it): its read marks are read before the next sign-in. */
  keepAccount(userId) {
    try {
      localStorage.setItem(KEY.account, userId);
    } catch {
      // no storage: no token kept either
    }
  }

  /** The read marks this browser kept for the account whose token it holds, before it has signed in; null: none is. */
  keptMarks() {
    try {
      const userId = this.token && localStorage.getItem(KEY.account);
      return userId ? readJSON(KEY.lastRead(userId), {}) : null;
    } catch {
      return null;
    }
  }

  /**
   * The recovery key the server showed once at sign-up, kept only until the person
   * confirms they saved it (the reminder stays until then). It is no more powerful
   * than the token kept beside it.
   */
  get recoveryKey() {
    try {
      return localStorage.getItem(KEY.recoveryKey);
    } catch {
      return null;
    }
  }

  saveRecoveryKey(value) {
    try {
      if (value) localStorage.setItem(KEY.recoveryKey, value);
      else localStorage.removeItem(KEY.recoveryKey);
    } catch {
      // no storage: the dialog still shows it this once
    }
    this.update(["recovery"], () => ({ unsavedRecoveryKey: value || null }));
  }

  /** What this browser kept for a user who just signed in: read once, then kept in memory. */
  /**
   * Forgets everything this browser kept of an account (drafts, previews of the last
   * messages, what was staged or not yet sent, apps' copies): it signed out, or was
   * signed out, and the next person at this computer must not read it.
   */
  /** @param {string|null} userId null: every account's (the token was refused before the page knew whose it was) */
  forgetUser(userId) {
    if (userId === undefined) return;
    // Nothing may write it back meanwhile (a send that fails as the token dies writes
    // the outbox): every write-through needs a signed-in user.
    this.state = { ...this.state, user: null };
    this.unwritten.clear();
    const mine = userId === null
      ? (k) => PER_USER.some((prefix) => k.startsWith(prefix))
      : (k) => k.startsWith("parlor.") && (k.endsWith(`.${userId}`) || k.includes(`.${userId}.`));
    const keys = [];
    for (let i = 0; i < localStorage.length; i++) keys.push(localStorage.key(i));
    for (const k of keys) if (k && mine(k)) localStorage.removeItem(k);
  }

  loadForUser(userId) {
    forget(`parlor.previews.${userId}`); // the copy before v2
    this.state = { ...this.state, lastRead: readJSON(KEY.lastRead(userId), {}), previews: keptPreviews(readJSON(KEY.previews(userId), null)), outbox: readJSON(KEY.outbox(userId), []), refused: keptRefused(readJSON(KEY.refused(userId), [])), unheard: readJSON(KEY.unheard(userId), []), staged: keptStaged(readJSON(KEY.staged(userId), {})), appData: {} };
  }

  /** Read here: kept, and told to her other devices through the server ("read": sync/readMarks.js). */
  markRead(conversationId, seq) {
    if (!this.state.user || (this.state.lastRead[conversationId] || 0) >= seq) return;
    this.keepMarks({ ...this.state.lastRead, [conversationId]: seq });
    this.dispatchEvent(new CustomEvent("read", { detail: { conversationId, seq } }));
  }

  /** Read on another device (conversationId → seq): the marks here that are lower rise. */
  readElsewhere(marks) {
    const next = raisedMarks(this.state.lastRead, marks);
    if (this.state.user && next !== this.state.lastRead) this.keepMarks(next);
  }

  /**
   * The server started the conversation over (restored from a backup: its seqs were
   * given again to new messages): a mark here past `seq` no longer means what it
   * did, and the new messages at those seqs counted as read.
   */
  readRestarted(conversationId, seq) {
    if (!this.state.user || (this.state.lastRead[conversationId] || 0) <= seq) return;
    this.keepMarks({ ...this.state.lastRead, [conversationId]: seq });
  }

  /** The read marks, drawn again and kept in this browser (a signed-in user's). */
  keepMarks(lastRead) {
    this.update(["conversations"], () => ({ lastRead }));
    this.writeSoon(KEY.lastRead(this.state.user.id), lastRead);
  }

  /** The list's previews, derived again (sync/previews.js); a copy is kept for the next load. */
  savePreviews(previews) {
    this.update(["previews"], () => ({ previews }));
    const uid = this.state.user?.id;
    if (uid) this.writeSoon(KEY.previews(uid), previews);
  }

  outbox() {
    return this.state.user ? this.state.outbox : [];
  }

  /** A new outbox (never changed in place: a flush walks the list it started with). */
  saveOutbox(items) {
    const uid = this.state.user?.id;
    if (!uid) return;
    this.update(["outbox"], () => ({ outbox: items }));
    writeJSON(KEY.outbox(uid), items);
  }

  refused() {
    return this.state.user ? this.state.refused : [];
  }

  /** The refused app moves (state/refused.js), kept for the next load. */
  saveRefused(records) {
    const uid = this.state.user?.id;
    if (!uid) return;
    this.update(["refused"], () => ({ refused: records }));
    writeJSON(KEY.refused(uid), records);
  }

  /** App moves whose sending their app did not see end (apps/pane.js: keepUnheard). */
  unheard() {
    return (this.state.user && this.state.unheard) || [];
  }

  /** Kept for the next load without `startedIn`, the frame each was started in (gone by then). */
  saveUnheard(records) {
    const uid = this.state.user?.id;
    if (!uid) return;
    this.state = { ...this.state, unheard: records };
    writeJSON(KEY.unheard(uid), records.map(({ startedIn, ...r }) => r));
  }

  /** A composer's staged items, kept for the next load as the typed drafts are (state/composer.js). */
  saveStaged(conversationId, list) {
    this.update(["staged"], (s) => ({ staged: { ...s.staged, [conversationId]: list } }));
    const uid = this.state.user?.id;
    if (uid) writeJSON(KEY.staged(uid), storableStaged(this.state.staged));
  }

  draft(conversationId) {
    const uid = this.state.user?.id;
    if (!uid) return "";
    try {
      return localStorage.getItem(KEY.draft(uid, conversationId)) || "";
    } catch {
      return "";
    }
  }

  saveDraft(conversationId, text) {
    const uid = this.state.user?.id;
    if (!uid) return;
    try {
      if (text) localStorage.setItem(KEY.draft(uid, conversationId), text);
      else localStorage.removeItem(KEY.draft(uid, conversationId));
    } catch {
      // ignore
    }
  }

  /** The copy of an app's storage this browser kept, for reading while offline. */
  offlineAppData(appId) {
    const uid = this.state.user?.id;
    return uid ? readJSON(KEY.appData(uid, appId), {}) : {};
  }

  /** App storage writes made offline, not yet on the server: [{appId, key, value}], one per key. */
  pendingAppData() {
    const uid = this.state.user?.id;
    return uid ? readJSON(KEY.appDataPending(uid), []) : [];
  }

  savePendingAppData(list) {
    const uid = this.state.user?.id;
    if (uid) writeJSON(KEY.appDataPending(uid), list);
  }

  /** An app's storage as the server has it; a copy is kept for offline reads. */
  saveAppData(appId, data) {
    this.update(["appData"], (s) => ({ appData: { ...s.appData, [appId]: data } }));
    const uid = this.state.user?.id;
    if (uid) writeJSON(KEY.appData(uid, appId), data);
  }
}
