// What asks for a person's attention while they look elsewhere: the tab's title
// counts what is unread ("(3) Parlor", seen on a tab strip or a phone's tab list),
// and, when they chose it, a notification tells of a conversation's new message
// (views/notices.js shows it). A game's turn in another tab went unnoticed until
// the tab was opened again: nothing on the page changed that could be seen from
// outside it.

import { unreadLabel } from "./format.js";

/**
 * A line as a notification may show it: one line (an app's summary could break it and
 * put "Ana: I agree…" on a line of its own), no direction overrides (U+202E turned
 * "Ben: yap ot eerga I :anA" into "Ana: I agree to pay"; a notification has no
 * isolation, as the page's dir=auto gives), no other control, at most `max` characters.
 */
export function noticeText(text, max = 160) {
  const line = String(text)
    .replace(/[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/[\s\p{Cc}]+/gu, " ")
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** "(3) Parlor" for a tab with 3 unread messages, the title itself with none. */
export function titleWith(base, unread) {
  return unread > 0 ? `(${unreadLabel(unread)}) ${base}` : base;
}

/**
 * What a conversation's unread messages add to the title's count, by the member's level
 * there: all of them at "all" (or none known); at "mentions" and "none" (muted) only
 * those that mention the person. A muted group's chatter kept "(40)" in the title of
 * someone who had asked it to keep quiet.
 * @param {string | undefined} level @param {number} unread
 * @param {() => number} mentions of them, those that mention the person (counted only where the level needs it)
 */
export function titleCount(level, unread, mentions) {
  return level === "mentions" || level === "none" ? Math.min(mentions(), unread) : unread;
}

/**
 * Whether the list shows a conversation's unread count subdued (grey, not the accent):
 * muted, or "mentions" with no unread mention (its "@" then still shows, in colour).
 */
export function subduedCount(level, mentioned) {
  return level === "none" || (level === "mentions" && !mentioned);
}

/**
 * Which conversations to tell of now. `told` holds, per conversation, the newest seq
 * the person was told of or could see; a conversation is told of when, while they
 * are away, its newest unread message is past that. A conversation met for the first
 * time is not: what was unread when the page opened is counted in the title, not
 * announced again at each load.
 * @param {Map<string, number>} told conversationId → seq; updated
 * @param {Iterable<{id: string, newestSeq: number, unreadSeq: number}>} conversations
 *   `newestSeq`: the newest message the page holds; `unreadSeq`: the newest unread one, 0 for none
 * @param {boolean} away the page is hidden or another window has the focus
 * @returns {string[]} the conversations to tell of
 */
export function dueNotices(told, conversations, away) {
  const due = [];
  for (const { id, newestSeq, unreadSeq } of conversations) {
    const before = told.get(id);
    if (away && before !== undefined && unreadSeq > before) due.push(id);
    told.set(id, Math.max(before ?? 0, newestSeq));
  }
  return due;
}
