// The transcript of one conversation, as plain data and pure functions.
//
// A transcript holds the confirmed messages (ordered by `seq`, deduplicated)
// and the local echoes of what this tab is sending (by `clientId`). Nothing
// here touches the DOM or the network: the client feeds it events, the views
// render `transcriptRows()`.
//
// Sessions: a message that `supersedes` an older one takes the next seq, so it
// sorts to the bottom by itself; the older message stays where it stood and is
// drawn as its one-line summary.
//
// Reactions (tapbacks) are messages too, kept with the others (seq, resume, paging),
// but never rows: transcriptRows folds them onto the bubbles they react to
// (state/reactions.js), and they count for nothing a message counts for (unread,
// news, the newest message).

import { foldReactions, chipsKey } from "./reactions.js";
import { edited } from "./edits.js";
import { mentionsMe } from "./mentions.js";

/** No one blocked (the unread and held-back counts take whom the person blocked). */
export const NOBODY = new Set();

/**
 * @typedef {object} Message       a message as the server sends it
 * @property {number} seq
 * @property {string} clientId
 * @property {string} sender
 * @property {number} createdAt
 * @property {"text"|"app"|"sticker"|"attachment"|"reaction"|"deleted"} kind
 * @property {number} [editedAt]   a text its sender edited: when, last (state/edits.js)
 * @property {number} [editCount]  and how many times
 *
 * @typedef {object} Pending       a local echo, until the server confirms it
 * @property {string} clientId
 * @property {string} sender
 * @property {number} createdAt
 * @property {object} message      the outbound message body ({kind, …})
 * @property {"sending"|"failed"} status
 * @property {string} [error]      an error code when failed
 * @property {number} [conflictSeq] refused as stale: the seq of the session's message that won
 *
 * @typedef {object} Transcript
 * @property {Message[]} messages  confirmed, ascending by seq, no duplicates
 * @property {Pending[]} pending   oldest first
 * @property {number} lastSeq      the highest seq seen (what a resume starts after)
 * @property {boolean} hasMoreBefore  older messages exist that are not loaded
 * @property {boolean} [hasMoreAfter] newer messages exist that are not held: they came
 *   while the reader was far up (heldBack), and come back by paging forward (applyNewer)
 * @property {number} [heldBackNew] how many of those were others' (the "new messages" pill),
 *   not a blocked person's
 * @property {number} [heldBackMentions] how many of those mention the reader (the list's "@")
 * @property {Object<string, number[]>} [heldBackBy] sender → [messages, mentions] held back,
 *   blocked or not: a block or an unblock made afterwards counts them again (recountHeld)
 * @property {boolean} loaded      history was fetched at least once
 * @property {number} [epoch]      counts the times the transcript started over or let
 *   older messages go: a page of history asked for before belongs to no place in it
 */

/** @returns {Transcript} */
export function emptyTranscript() {
  return { messages: [], pending: [], lastSeq: 0, hasMoreBefore: false, loaded: false };
}

function indexOfSeq(messages, seq) {
  let lo = 0;
  let hi = messages.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = messages[mid].seq;
    if (s === seq) return mid;
    if (s < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return -(lo + 1);
}

/** The confirmed message with this seq, or undefined. */
export function messageBySeq(t, seq) {
  const i = indexOfSeq(t.messages, seq);
  return i >= 0 ? t.messages[i] : undefined;
}

function insertSorted(messages, message) {
  const i = indexOfSeq(messages, message.seq);
  if (i >= 0) {
    // Already known: keep the richer copy (a later copy may carry supersededBy).
    const old = messages[i];
    if (old.kind === "deleted") return messages; // a tombstone never comes back to life
    if (old.supersededBy !== undefined && message.supersededBy === undefined) return messages;
    const next = messages.slice();
    next[i] = message;
    return next;
  }
  const at = -i - 1;
  return [...messages.slice(0, at), message, ...messages.slice(at)];
}

function markSuperseded(messages, oldSeq, bySeq, summary) {
  const i = indexOfSeq(messages, oldSeq);
  if (i < 0) return messages;
  const next = messages.slice();
  next[i] = { ...messages[i], supersededBy: bySeq, summary };
  return next;
}

/**
 * A live or replayed `message` event.
 * @param {Transcript} t
 * @param {Message} message
 * @param {{seq:number, summary:string}} [supersedes]
 * @param {string} [selfId] this user's id: a confirmed message of ours with
 *   a known clientId replaces its local echo
 * @returns {Transcript}
 */
export function applyMessage(t, message, supersedes, selfId) {
  if (message.kind === "deletion") return applyDeletion(t, message);
  if (message.kind === "edit") return applyEdit(t, message);
  let messages = insertSorted(t.messages, message);
  if (supersedes) messages = markSuperseded(messages, supersedes.seq, message.seq, supersedes.summary);
  // A message superseded before we heard of its successor (history) needs nothing more.
  const pending = selfId !== undefined && message.sender === selfId
    ? t.pending.filter((p) => p.clientId !== message.clientId)
    : t.pending;
  return {
    ...t,
    messages,
    pending,
    lastSeq: Math.max(t.lastSeq, message.seq),
  };
}

/**
 * A live message that arrives while its reader is far up in the transcript (more than
 * a few hundred rows below them, or newer ones already held back): not held, so what
 * is drawn stops growing; counted for the "new messages" pill; paged in again when the
 * reader comes down (newerCursor, applyNewer) or jumps to the newest (resync). A
 * session's older state that is held still becomes its summary line, and lastSeq moves
 * on (a resume starts after it).
 * @param {Transcript} t
 * @param {Message} message
 * @param {{seq:number, summary:string}} [supersedes]
 * @param {string} [selfId]
 * @param {Set<string>} [blocked] user ids whose messages are not news (they wait folded)
 * @returns {Transcript}
 */
export function heldBack(t, message, supersedes, selfId, blocked = NOBODY) {
  let u = message.kind === "deletion" ? applyDeletion(t, message) : message.kind === "edit" ? applyEdit(t, message) : t;
  if (supersedes) u = { ...u, messages: markSuperseded(u.messages, supersedes.seq, message.seq, supersedes.summary) };
  const by = isNews(message) && message.sender !== selfId
    ? tallied(t.heldBackBy, message.sender, 1, mentionsMe(message, selfId) ? 1 : 0) : t.heldBackBy ?? {};
  return { ...u, hasMoreAfter: true, lastSeq: Math.max(t.lastSeq, message.seq), ...heldCounts(by, blocked) };
}

/** `by` with `n` more (or fewer) messages and `mentions` of `sender`'s held back. */
function tallied(by = {}, sender, n, mentions) {
  const [had, hadMentions] = by[sender] ?? [0, 0];
  return { ...by, [sender]: [Math.max(0, had + n), Math.max(0, hadMentions + mentions)] };
}

/** What the counts of held-back messages say, from whom they are, without the blocked. */
function heldCounts(by, blocked) {
  let news = 0;
  let mentions = 0;
  for (const [sender, [n, m]] of Object.entries(by)) {
    if (blocked.has(sender)) continue;
    news += n;
    mentions += m;
  }
  return { heldBackBy: by, heldBackNew: news, heldBackMentions: mentions };
}

/** Held-back messages counted again after a block or an unblock (their senders are kept). */
export function recountHeld(t, blocked) {
  return t.heldBackBy ? { ...t, ...heldCounts(t.heldBackBy, blocked) } : t;
}

/** How many held messages are newer than `seq`. */
export function heldAfter(t, seq) {
  const i = indexOfSeq(t.messages, seq);
  return t.messages.length - (i >= 0 ? i + 1 : -i - 1);
}

/** Neither a deletion or edit record nor a reaction: a message someone said. */
const isNews = (m) => m.kind !== "deletion" && m.kind !== "reaction" && m.kind !== "edit";

/**
 * The seq a client pages newer messages from: after the newest one held. Reactions are
 * held even while newer messages are held back (sync.js: they add no row, and one's own
 * shows where it was given), so those past the newest message held do not count.
 */
export function newerCursor(t) {
  let i = t.messages.length - 1;
  if (t.hasMoreAfter) while (i >= 0 && t.messages[i].kind === "reaction") i--;
  return i >= 0 ? t.messages[i].seq : 0;
}

/**
 * A page of newer messages (oldest first), after the newest one held.
 * @param {Transcript} t
 * @param {Message[]} page
 * @param {boolean} hasMore newer ones follow this page
 * @param {string} [selfId]
 * @param {Set<string>} [blocked] as `heldBack` counted
 */
export function applyNewer(t, page, hasMore, selfId, blocked = NOBODY) {
  const u = withPage(t, page);
  const cursor = newerCursor(t);
  const newest = page.reduce((acc, m) => Math.max(acc, m.seq), cursor);
  // one held back after the page was read (live, from another node, say) is still to come
  const more = hasMore || t.lastSeq > newest;
  // the pill's count of others' held back: those in the page are drawn now (the view counts them)
  let by = {};
  if (more) {
    by = t.heldBackBy ?? {};
    for (const m of page) {
      if (m.seq > cursor && isNews(m) && m.sender !== selfId) by = tallied(by, m.sender, -1, mentionsMe(m, selfId) ? -1 : 0);
    }
  }
  return { ...u, lastSeq: Math.max(t.lastSeq, newest), hasMoreAfter: more, ...heldCounts(by, blocked) };
}

/** The seq up to which the reader has seen everything, at the bottom of what is drawn. */
export function readThrough(t) {
  return t.hasMoreAfter ? newerCursor(t) : t.lastSeq;
}

/**
 * A deletion record (live or replayed): the message it names becomes a tombstone
 * where it stands; the record itself is not drawn, but counts as seen.
 * @param {Transcript} t
 * @param {{seq: number, deletes: number, createdAt: number}} record
 */
export function applyDeletion(t, record) {
  const lastSeq = Math.max(t.lastSeq, record.seq);
  const i = indexOfSeq(t.messages, record.deletes);
  if (i < 0 || t.messages[i].kind === "deleted") return { ...t, lastSeq };
  const old = t.messages[i];
  const next = t.messages.slice();
  next[i] = tombstone(old, record.createdAt);
  // stickers stuck onto it fall with it (the server deletes only the message itself)
  return { ...t, messages: next, lastSeq };
}

/**
 * An edit record (live or replayed): the text it names shows its new words where it
 * stands (state/edits.js); the record itself is not drawn, but counts as seen.
 * @param {Transcript} t
 * @param {{seq: number, edits: number, createdAt: number, text?: string, editCount?: number}} record
 */
export function applyEdit(t, record) {
  const lastSeq = Math.max(t.lastSeq, record.seq);
  const i = indexOfSeq(t.messages, record.edits);
  const m = i >= 0 ? edited(t.messages[i], record) : undefined;
  if (i < 0 || m === t.messages[i]) return { ...t, lastSeq };
  const next = t.messages.slice();
  next[i] = m;
  return { ...t, messages: next, lastSeq };
}

/** What is left of a deleted message: who sent it and when, nothing it said. */
export function tombstone(m, deletedAt) {
  return { seq: m.seq, clientId: m.clientId, sender: m.sender, createdAt: m.createdAt, kind: "deleted", deletedAt, ...(m.session ? { session: m.session } : {}) };
}

/**
 * A page's messages put in their places; its deletion records, after, make the
 * messages they name tombstones (history already shows them deleted, or one was held
 * from before).
 */
function withPage(t, page) {
  let messages = t.messages;
  for (const m of page) if (m.kind !== "deletion" && m.kind !== "edit") messages = insertSorted(messages, m);
  let u = { ...t, messages };
  for (const m of page) if (m.kind === "deletion") u = applyDeletion(u, m);
  for (const m of page) if (m.kind === "edit") u = applyEdit(u, m);
  return u;
}

/**
 * A page of history (older messages, oldest first).
 * @param {Transcript} t
 * @param {Message[]} page
 * @param {boolean} hasMore more exist before the oldest one of this page
 * @returns {Transcript}
 */
export function applyHistory(t, page, hasMore) {
  const messages = withPage(t, page).messages;
  const oldestPage = page.length ? page[0].seq : Infinity;
  const oldestHeld = t.messages.length ? t.messages[0].seq : Infinity;
  // hasMore describes what lies before this page; if we already held older
  // messages than the page (unusual), keep our own flag.
  const hasMoreBefore = oldestPage <= oldestHeld ? hasMore : t.hasMoreBefore;
  const lastSeq = page.reduce((acc, m) => Math.max(acc, m.seq), t.lastSeq);
  return { ...t, messages, hasMoreBefore, lastSeq, loaded: true };
}

/**
 * After `subscribe` answered `resync: true`: drop the confirmed messages, keep
 * the local echoes (they are still being sent) and start over from lastSeq.
 * @param {Transcript} t
 * @param {number} lastSeq
 */
export function resync(t, lastSeq) {
  return { messages: [], pending: t.pending, lastSeq, hasMoreBefore: lastSeq > 0, loaded: false, epoch: (t.epoch ?? 0) + 1 };
}

/**
 * Only the newest `keep` messages, the older ones left to history paging again:
 * a tab open for days in busy conversations would otherwise hold, and draw,
 * every message that ever arrived (a phone froze past a few hundred rows).
 * @param {Transcript} t
 * @param {number} keep
 * @returns {Transcript} t itself when it holds no more than that
 */
export function trimmed(t, keep) {
  if (t.messages.length <= keep) return t;
  return { ...t, messages: t.messages.slice(t.messages.length - keep), hasMoreBefore: true, epoch: (t.epoch ?? 0) + 1 };
}

/** The seq a client pages history from: before the oldest one held. */
export function historyCursor(t) {
  return t.messages.length ? t.messages[0].seq : t.lastSeq + 1;
}

/** A local echo for a message this tab is sending. */
export function addPending(t, pending) {
  if (t.pending.some((p) => p.clientId === pending.clientId)) return t;
  if (t.messages.some((m) => m.clientId === pending.clientId && m.sender === pending.sender)) return t;
  return { ...t, pending: [...t.pending, { status: "sending", ...pending }] };
}

/**
 * A local echo's image was uploaded: it shows the message as it is now sent, its
 * picture still from this browser (imageKey) until stored, not downloaded back.
 * @param {Transcript} t
 * @param {string} clientId
 * @param {object} message the message with its image's hash
 */
export function pendingUploaded(t, clientId, message) {
  if (!t.pending.some((p) => p.clientId === clientId)) return t;
  return { ...t, pending: t.pending.map((p) => (p.clientId === clientId ? { ...p, message } : p)) };
}

/** An uploaded echo's local copy was let go: it shows (and Retry sends) the server's. */
export function pendingLocalImageGone(t, clientId) {
  if (!t.pending.some((p) => p.clientId === clientId && p.imageKey)) return t;
  return {
    ...t,
    pending: t.pending.map((p) => {
      if (p.clientId !== clientId) return p;
      const { imageKey, ...rest } = p;
      return rest;
    }),
  };
}

/**
 * Marks a local echo as failed (kept, so nothing typed is lost).
 * @param {Transcript} t
 * @param {string} clientId
 * @param {string} error an error code
 * @param {Message} [current] for `session_conflict`: the session's current
 *   message, which the server sends with the error; the refused copy is kept
 *   until the session moves past it (see dropSettledConflicts)
 */
export function failPending(t, clientId, error, current) {
  return {
    ...t,
    pending: t.pending.map((p) => {
      if (p.clientId !== clientId) return p;
      const failed = { ...p, status: "failed", error };
      if (error === "session_conflict") failed.conflictSeq = current?.seq ?? sessionHeadSeq(t, p.message?.session?.id);
      return failed;
    }),
  };
}

function sessionHeadSeq(t, sessionId) {
  const m = sessionId === undefined ? undefined : currentOfSession(t, sessionId);
  return m ? m.seq : t.lastSeq;
}

/** Marks a local echo as being sent again. */
export function retryPending(t, clientId) {
  return {
    ...t,
    pending: t.pending.map((p) => (p.clientId === clientId ? { ...p, status: "sending", error: undefined } : p)),
  };
}

/**
 * An app's echo refused as stale (`session_conflict`) is the user's only copy of
 * that move until the app has done something newer, so it is kept, greyed, until
 * one of these holds, whatever order things happen in:
 *  - the app has something staged in this conversation (it merged and staged
 *    its move again; this may happen before the refusal itself arrives, when the
 *    winner's live message reached the app first), or
 *  - the session has a newer message than the one that won from this user (the
 *    person moved on, from another device, say). Someone else's newer move does
 *    not settle it: the app, opened, can still merge the move (state/refused.js).
 * The store applies this after every change to a transcript or the staged items,
 * so no reader ever sees such a copy.
 * @param {Transcript} t
 * @param {{appId?: string, message?: object}[]} [staged] what this conversation's composer holds
 * @returns {Transcript} t itself when nothing is dropped
 */
export function dropSettledConflicts(t, staged = []) {
  if (!t.pending.some(isConflict)) return t;
  const stagedApps = new Set(staged.map((s) => s.appId ?? s.message?.appId).filter(Boolean));
  const keep = t.pending.filter((p) => !(isConflict(p) && (stagedApps.has(p.message.appId) || movedOn(t, p))));
  return keep.length === t.pending.length ? t : { ...t, pending: keep };
}

function isConflict(p) {
  return p.status === "failed" && p.error === "session_conflict" && p.message?.appId !== undefined;
}

function movedOn(t, p) {
  const sessionId = p.message.session?.id;
  if (sessionId === undefined) return false;
  for (let i = t.messages.length - 1; i >= 0 && t.messages[i].seq > p.conflictSeq; i--) {
    const m = t.messages[i];
    if (m.kind === "app" && m.session?.id === sessionId && m.sender === p.sender) return true;
  }
  return false;
}

/** Whether a refused (stale) move of this app is still shown in the transcript. */
export function hasConflict(t, appId) {
  return t.pending.some((p) => isConflict(p) && p.message.appId === appId);
}

export function removePending(t, clientId) {
  return { ...t, pending: t.pending.filter((p) => p.clientId !== clientId) };
}

/**
 * What the transcript view draws, top to bottom.
 *  - {type:"message", message, stickers, reactions, reactionsKey, quoted}  a live bubble (stickers
 *    stuck on it, the reactions on it as chips, and a key that changes with them; for a
 *    reply, `quoted`: the message it answers as held, undefined when not loaded)
 *  - {type:"summary", message}            a superseded session state, one line
 *  - {type:"pending", pending, quoted}    a local echo
 * Stickers stuck onto a loaded message travel with that message; a sticker
 * whose target is not loaded is drawn on its own. Reactions are never rows: they show
 * on their target once it is loaded, not on a deleted message, a superseded state
 * (they stay with that seq) or another reaction.
 * @param {Transcript} t
 */
export function transcriptRows(t) {
  const reactions = foldReactions(t.messages, t.pending);
  const stuck = new Map();
  for (const m of t.messages) {
    if (m.kind === "sticker" && m.stuckTo && messageBySeq(t, m.stuckTo.seq)) {
      const list = stuck.get(m.stuckTo.seq) || [];
      list.push(m);
      stuck.set(m.stuckTo.seq, list);
    }
  }
  const rows = [];
  for (const m of t.messages) {
    if (m.kind === "sticker" && m.stuckTo && messageBySeq(t, m.stuckTo.seq)) continue;
    if (m.kind === "reaction") continue;
    if (m.supersededBy !== undefined) rows.push({ type: "summary", message: m });
    else {
      const chips = (m.kind !== "deleted" && reactions.get(m.seq)) || [];
      rows.push({ type: "message", message: m, stickers: stuck.get(m.seq) || [], reactions: chips, reactionsKey: chipsKey(chips), quoted: quoted(t, m) });
    }
  }
  for (const p of t.pending) if (p.message?.kind !== "reaction") rows.push({ type: "pending", pending: p, quoted: quoted(t, p.message) });
  return rows;
}

/** A reply's original as held (a tombstone, a superseded state), undefined when not loaded or not a reply. */
function quoted(t, m) {
  return m?.replyTo ? messageBySeq(t, m.replyTo) : undefined;
}

/**
 * The unread messages, newest first: from others, after `lastReadSeq` and after one's
 * own last message, still current (a session updated three times while you were away
 * counts once), not deleted. One's own message, sent from another device too, says
 * what came before was read: a reply on the phone left the laptop's badge (a review of
 * one person on two devices; a newly linked device counted all history). Messages of
 * the people in `blocked` wait folded (views/blocked.js): they are not news.
 * @param {Transcript} t
 * @param {number} lastReadSeq
 * @param {string} selfId
 * @param {Set<string>} [blocked] user ids
 */
function* unreadMessages(t, lastReadSeq, selfId, blocked = NOBODY) {
  for (let i = t.messages.length - 1; i >= 0; i--) {
    const m = t.messages[i];
    if (m.seq <= lastReadSeq) return;
    // a reaction is neither news nor a sign of having read what came before
    if (m.kind === "reaction") continue;
    if (m.sender === selfId && m.kind !== "deleted") return;
    if (m.supersededBy === undefined && m.kind !== "deleted" && !blocked.has(m.sender)) yield m;
  }
}

/** How many messages are unread (`unreadMessages`). */
export function unreadCount(t, lastReadSeq, selfId, blocked) {
  let n = 0;
  for (const _ of unreadMessages(t, lastReadSeq, selfId, blocked)) n++;
  return n;
}

/** The newest unread message, if any: what a notification tells of. */
export function newestUnread(t, lastReadSeq, selfId, blocked) {
  return unreadMessages(t, lastReadSeq, selfId, blocked).next().value;
}

/**
 * The seq of the oldest unread message, if any: where the "New messages" line stands
 * when the conversation is opened.
 * @returns {number | undefined}
 */
export function firstUnreadSeq(t, lastReadSeq, selfId, blocked) {
  let first;
  for (const m of unreadMessages(t, lastReadSeq, selfId, blocked)) first = m.seq;
  return first;
}

/**
 * The newest current message of a session, if loaded.
 * @param {Transcript} t
 * @param {string} sessionId
 */
export function currentOfSession(t, sessionId) {
  for (let i = t.messages.length - 1; i >= 0; i--) {
    const m = t.messages[i];
    if (m.kind === "app" && m.session && m.session.id === sessionId) return m;
  }
  return undefined;
}

/**
 * Before subscribing to a conversation we hold nothing of: everything up to
 * `afterSeq` is left to history paging, the replay brings what follows.
 * @param {Transcript} t
 * @param {number} afterSeq
 */
export function startAt(t, afterSeq) {
  if (t.messages.length > 0 || afterSeq <= t.lastSeq) return t;
  return { ...t, lastSeq: afterSeq, hasMoreBefore: afterSeq > 0 };
}
