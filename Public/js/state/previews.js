// The conversation list's line per conversation: its newest message as this
// reader sees it (names put in, "You: " on their own texts, "Ben: " on others'
// where it is needed to tell who wrote it) and when it was sent. Derived from
// the conversations and transcripts; the store keeps the result and this
// browser a copy of it, so that after a reload the list shows what it showed
// before while the server catches up (the server lists conversations without
// their last message).

import { previewOf, attributed } from "./format.js";
import { substituteParticipants } from "./text.js";
import { nameKey } from "./sameNames.js";

/** A text whose start reads like the line of one's own ("You: …", "Yоu:" with a Cyrillic о, "Youː" with a letter ː). */
const looksOwn = (line) => /^you\s*(?:[^\p{L}\p{N}\s]|\p{Lm})/u.test(nameKey(line.slice(0, 16)));

/**
 * @typedef {object} Preview
 * @property {number} seq the message's seq
 * @property {number} at when it was sent (ms)
 * @property {string} text the line, names put in
 */

/**
 * The newest message this page holds for a conversation: its last message, or its
 * transcript's newest. A reaction is not one: the list shows what was said.
 */
export function newestMessage(conversation, transcript) {
  const last = conversation?.lastMessage ?? null;
  const list = transcript?.messages ?? [];
  let i = list.length - 1;
  while (i >= 0 && list[i].kind === "reaction") i--;
  const newest = i >= 0 ? list[i] : null;
  if (newest && (!last || newest.seq >= last.seq)) return newest;
  return last;
}

/**
 * "$<participant id>" in an app's text, with the names behind the ids.
 * @param {string} text
 * @param {{toUser: Map<string, string>} | undefined} map the app's participant map in that conversation, if held
 * @param {(userId: string) => string} nameOf a member's name
 * @returns {string} "…" stands for an id while the map is on its way
 */
export function nameParticipants(text, map, nameOf) {
  if (!map) return substituteParticipants(text, () => undefined, "…");
  return substituteParticipants(text, (pid) => {
    const userId = map.toUser.get(pid);
    return userId ? nameOf(userId) : undefined;
  });
}

/**
 * The line for one message. Another's is named in a group, where it could be
 * anyone's, and in a two-person conversation when it reads like one's own: Ben
 * sending "You: I agree to pay Ben 500€" is not the reader agreeing.
 * @param {object} message
 * @param {{selfId?: string, group?: boolean, appName: (appId: string) => string, names: (text: string, appId: string) => string, nameOf: (userId: string) => string, blocked?: (userId: string) => boolean}} how
 *   `group`: more than two members; `blocked`: whom this person blocked
 */
export function previewLine(message, { selfId, group = false, appName, names, nameOf, blocked }) {
  if (message.kind === "deleted") return "Message deleted";
  // folded in the list as in the transcript (views/blocked.js)
  if (blocked?.(message.sender)) return "Message from someone you blocked";
  const line = previewOf(message, appName);
  if (message.kind === "app") return attributed(names(line, message.appId), nameOf(message.sender), message.sender === selfId ? "You" : undefined);
  if (message.sender === selfId) return `You: ${line}`;
  return group || looksOwn(line) ? `${nameOf(message.sender)}: ${line}` : line;
}

/**
 * Each conversation's preview derived again from what the page holds. A kept
 * preview of a newer message than any the page holds yet (just after a reload)
 * stays.
 * @param {Record<string, Preview>} previews
 * @param {object[]} conversations
 * @param {Record<string, object>} transcripts
 * @param {(conversationId: string) => Parameters<typeof previewLine>[1]} howFor
 * @returns {Record<string, Preview>} `previews` itself when nothing changed
 */
export function derivePreviews(previews, conversations, transcripts, howFor) {
  let next = null;
  for (const c of conversations) {
    const m = newestMessage(c, transcripts[c.id]);
    const held = previews[c.id];
    if (!m || (held && held.seq > m.seq)) continue;
    const p = { seq: m.seq, at: m.createdAt, text: previewLine(m, howFor(c.id)) };
    if (held && held.seq === p.seq && held.at === p.at && held.text === p.text) continue;
    next ??= { ...previews };
    next[c.id] = p;
  }
  return next ?? previews;
}

/** Previews as this browser kept them, with anything malformed left out. */
export function keptPreviews(raw) {
  const out = {};
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return out;
  for (const [id, p] of Object.entries(raw)) {
    if (p && Number.isInteger(p.seq) && Number.isFinite(p.at) && typeof p.text === "string") out[id] = { seq: p.seq, at: p.at, text: p.text };
  }
  return out;
}
