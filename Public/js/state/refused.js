// Refused app moves: an app message the server refused as stale
// (session_conflict) is the person's only copy of that move. Its grey echo
// stays in the transcript (state/transcript.js) and this record of it is kept
// beside the outbox, in localStorage, so a reload does not lose it; the app,
// opened later, is handed the move (apps/pane.js: didFailSending) so its merge
// logic runs as it does live. A record lives as long as its echo: it goes on
// Discard, or when the app staged the move again or the session went past it.
// `taken` says the app has had it (live, as its promise's rejection, or handed
// over later), so it is handed over once. Pure functions.

import { addPending, failPending, currentOfSession } from "./transcript.js";

/** At most this many are kept (the oldest go first): localStorage is small. */
export const MAX_REFUSED = 20;

/**
 * @typedef {object} Refused
 * @property {string} clientId
 * @property {string} conversationId
 * @property {number} createdAt
 * @property {object} message   the outbound app message ({kind: "app", appId, url, session: {id, baseVersion}, …})
 * @property {number} conflictSeq the seq of the session's message that won
 * @property {object | null} current the session's message that won, as the server sent it
 * @property {boolean} taken    the app has had it
 */

const isAppMove = (message) => message?.kind === "app" && typeof message.appId === "string" && !!message.session;

/**
 * A record of a send refused as stale, or null for anything else.
 * @param {{clientId: string, conversationId: string, createdAt: number, message: object}} item the outbox item
 * @param {{code: string, current?: object}} error
 * @param {number} conflictSeq
 */
export function refusedRecord(item, error, conflictSeq) {
  if (error?.code !== "session_conflict" || !isAppMove(item.message)) return null;
  return {
    clientId: item.clientId, conversationId: item.conversationId, createdAt: item.createdAt, message: item.message,
    conflictSeq, current: error.current ?? null, taken: false,
  };
}

/** The list with one more record (replacing one of the same clientId), at most MAX_REFUSED. */
export function withRefused(records, record) {
  const rest = records.filter((r) => r.clientId !== record.clientId);
  return [...rest, record].slice(-MAX_REFUSED);
}

/** Records read back from storage: only well-formed ones. */
export function keptRefused(raw) {
  if (!Array.isArray(raw)) return [];
  return raw.filter((r) => r && typeof r.clientId === "string" && typeof r.conversationId === "string"
    && isAppMove(r.message) && Number.isFinite(r.conflictSeq)).slice(-MAX_REFUSED);
}

/** The grey echo of a record, after a reload. */
export function restoreRefused(t, record, sender) {
  const withEcho = addPending(t, { clientId: record.clientId, sender, createdAt: record.createdAt, message: record.message });
  return failPending(withEcho, record.clientId, "session_conflict", { seq: record.conflictSeq });
}

/**
 * The records whose echo is still shown. Only conversations in `changed` are
 * looked at (a transcript being restored is not yet there).
 * @param {Refused[]} records
 * @param {Record<string, {pending: object[]}>} transcripts
 * @param {Set<string>} changed conversation ids whose transcript changed
 * @returns {Refused[]} records itself when nothing goes
 */
export function shownRefused(records, transcripts, changed) {
  const kept = records.filter((r) => {
    if (!changed.has(r.conversationId)) return true;
    const t = transcripts[r.conversationId];
    return !!t && t.pending.some((p) => p.clientId === r.clientId && p.status === "failed");
  });
  return kept.length === records.length ? records : kept;
}

/**
 * What to hand to an app now active in a conversation: its moves not yet
 * taken, of the session it shows, or of every session when it shows none
 * (opened from the drawer). Oldest first.
 * @param {Refused[]} records
 * @param {{conversationId: string, appId: string, sessionId?: string | null}} where
 */
export function dueRefused(records, { conversationId, appId, sessionId = null }) {
  return records.filter((r) => !r.taken && r.conversationId === conversationId && r.message.appId === appId
    && (sessionId === null || r.message.session.id === sessionId));
}

/** The same list with this record marked as had by the app. */
export function markTaken(records, clientId) {
  if (!records.some((r) => r.clientId === clientId && !r.taken)) return records;
  return records.map((r) => (r.clientId === clientId ? { ...r, taken: true } : r));
}

/** The session's message that won, as the transcript has it now (newest), or as the refusal said. */
export function winnerOf(t, record) {
  return currentOfSession(t, record.message.session.id) ?? record.current;
}

/** The message the refused move was based on (its session at baseVersion), if the transcript holds it. */
export function baseOf(t, record) {
  const { id, baseVersion } = record.message.session;
  return t.messages.find((m) => m.kind === "app" && m.session?.id === id && m.session.version === baseVersion) ?? null;
}
