// Inline replies: a text, a sticker or a picture may answer an earlier message
// (`replyTo`, its seq; docs/PROTOCOL.md, "Replies"). The reply shows a quote of it:
// who sent it and one line of what it said. Pure functions, no DOM.

import { shorten } from "../../sdk/text.js";

/** How long the quote's line may be, in characters as a person counts them. */
export const QUOTE_CHARS = 80;

/** Whether a message being sent may carry `replyTo`: not an app's, not a sticker stuck on a bubble. */
export function canCarryReply(m) {
  return m.kind === "text" || m.kind === "attachment" || m.kind === "audio" || (m.kind === "sticker" && !m.stuckTo);
}

/**
 * What Send sends, the reply on one of its messages: the text when there is one, else
 * the first picture or sticker staged (an app's message cannot carry it).
 * @param {object[]} plan outbound bodies (state/composer.js sendPlan)
 * @param {number | null | undefined} replyTo
 */
export function withReply(plan, replyTo) {
  if (!replyTo) return plan;
  let i = plan.findLastIndex((m) => m.kind === "text");
  if (i < 0) i = plan.findIndex(canCarryReply);
  return i < 0 ? plan : plan.map((m, j) => (j === i ? { ...m, replyTo } : m));
}

/** One line of at most `max` characters (cut by grapheme, never inside an emoji). */
export function oneLine(s, max = QUOTE_CHARS) {
  return shorten(String(s).replace(/\s+/g, " ").trim(), max);
}

/**
 * The quote of a reply's original, as the transcript holds it.
 * @param {object | undefined} original  undefined: not loaded (older than what is held)
 * @param {{selfId: string, nameOf: (userId: string) => string, words: (m: object) => string, summary: (m: object) => string}} how
 *   `words`: what a message says (views/bubble.js messageWords); `summary`: a superseded state's line
 * @returns {{who: string | null, line: string, loaded: boolean, picture?: string}} `who` is "You"
 *   for one's own; `picture`: a photo's hash, shown small beside the line as Messages does
 */
export function quoteOf(original, { selfId, nameOf, words, summary }) {
  if (!original) return { who: null, line: "Earlier message", loaded: false };
  const who = original.sender === selfId ? "You" : nameOf(original.sender);
  const line = original.kind === "deleted" ? "Deleted message"
    : original.supersededBy !== undefined ? summary(original)
      : words(original);
  const picture = original.kind === "attachment" && typeof original.image === "string" ? original.image : null;
  return { who, line: oneLine(line), loaded: true, ...(picture ? { picture } : {}) };
}

/** The quote's name for a screen reader: "Reply to Ben: lunch?. Show the message". */
export function quoteLabel(q) {
  if (!q.loaded) return "Reply to an earlier message. Show the message";
  return `Reply to ${q.who === "You" ? "you" : q.who}: ${q.line}. Show the message`;
}
