// Mentions: "@Ana" in a text, and the ids of those it names sent with it
// (`message.mentions`, PROTOCOL.md "Mentions"), so each client highlights and notifies
// the person named without guessing from the words. Pure functions: what the composer's
// list offers, what picking puts in the text, whom a text names, the highlighted parts.

const MAX_MENTIONS = 20; // the server's bound
const MAX_OFFERED = 8;
const WORD = /[\p{L}\p{N}_]/u;

/**
 * The `@…` being typed before the caret, or null: an "@" at the start or after a space
 * or an opening bracket, then up to 64 characters without a line break (names may hold
 * spaces: "@Cy L" still looks for Cy Lee).
 * @returns {{start: number, query: string} | null} `start`: where the "@" is
 */
export function mentionQuery(text, caret) {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf("@");
  if (at < 0 || caret - at > 65) return null;
  if (at > 0 && !/[\s([{"'«]/.test(before[at - 1])) return null;
  const query = before.slice(at + 1);
  if (/[\n\r]/.test(query) || /^\s/.test(query) || /\s{2}/.test(query)) return null;
  return { start: at, query };
}

/**
 * The members a query offers: names that begin with it first, then those with a word
 * that begins with it; case and accents aside; not oneself; at most eight.
 * @param {{userId: string, name: string}[]} members
 */
export function mentionChoices(members, query, selfId) {
  const q = fold(query);
  const starts = [];
  const within = [];
  for (const m of members) {
    if (m.userId === selfId || typeof m.name !== "string") continue;
    const n = fold(m.name);
    if (n.startsWith(q)) starts.push(m);
    else if (n.split(/\s+/).some((w) => w.startsWith(q))) within.push(m);
  }
  return [...starts, ...within].slice(0, MAX_OFFERED);
}

/**
 * The text with the `@…` typed from `start` to `caret` replaced by "@Name ".
 * @returns {{text: string, caret: number}}
 */
export function insertMention(text, start, caret, name) {
  const after = text.slice(caret);
  const put = `@${name}${/^\s/.test(after) ? "" : " "}`;
  return { text: text.slice(0, start) + put + after, caret: start + put.length };
}

/**
 * The members a text names as "@Name" (not as the start of a longer word: "@Anabel"
 * does not name Ana), in the order of the list, at most twenty; what `send` carries.
 * @param {{userId: string, name: string}[]} members
 * @returns {string[]} user ids
 */
export function mentionsIn(text, members) {
  const ids = [];
  for (const m of members) {
    if (ids.length >= MAX_MENTIONS) break;
    if (typeof m.name === "string" && m.name && !ids.includes(m.userId) && spans(text, m.name).length) ids.push(m.userId);
  }
  return ids;
}

/** Whether a message mentions this user. */
export function mentionsMe(m, selfId) {
  return selfId !== undefined && Array.isArray(m?.mentions) && m.mentions.includes(selfId);
}

/**
 * A text cut where it names `name` ("@Ana"), to draw those parts marked: each part a
 * string, or `{mention: "@Ana"}`. One part, the text, when it names nobody.
 * @returns {(string | {mention: string})[]}
 */
export function mentionParts(text, name) {
  const found = name ? spans(text, name) : [];
  if (!found.length) return [text];
  const parts = [];
  let from = 0;
  for (const [a, b] of found) {
    if (a > from) parts.push(text.slice(from, a));
    parts.push({ mention: text.slice(a, b) });
    from = b;
  }
  if (from < text.length) parts.push(text.slice(from));
  return parts;
}

/** Where the text says "@name", each [start, end), not as the start of a longer word. */
function spans(text, name) {
  const needle = `@${name}`;
  const out = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) {
    const next = text[i + needle.length];
    if (next === undefined || !WORD.test(next)) out.push([i, i + needle.length]);
  }
  return out;
}

const fold = (s) => String(s).normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** A send plan (state/composer.js) whose text carries whom it names, if anyone. */
export function withMentions(plan, members) {
  return plan.map((m) => {
    if (m.kind !== "text") return m;
    const ids = mentionsIn(m.text, members);
    return ids.length ? { ...m, mentions: ids } : m;
  });
}

/**
 * Whether a conversation's new message is told of (a notification), by this member's
 * level there: "all" (or none known), "mentions" (only a message that mentions them),
 * "none".
 */
export function wantsNotice(level, m, selfId) {
  if (level === "none") return false;
  if (level === "mentions") return mentionsMe(m, selfId);
  return true;
}

/**
 * Whether the list marks a conversation "@": one of its unread messages (past `readSeq`,
 * from someone else, not someone in `blocked`) mentions this user.
 * @param {object[]} messages the transcript's
 * @param {Set<string>} [blocked] user ids
 */
export function unreadMention(messages, readSeq, selfId, blocked) {
  return unreadMentions(messages, readSeq, selfId, blocked) > 0;
}

/** How many unread messages (past `readSeq`, from someone else, not someone in `blocked`) mention this user. */
export function unreadMentions(messages, readSeq, selfId, blocked) {
  let n = 0;
  for (let i = messages.length - 1; i >= 0 && messages[i].seq > readSeq; i--) {
    const m = messages[i];
    if (m.sender !== selfId && !blocked?.has(m.sender) && mentionsMe(m, selfId)) n++;
  }
  return n;
}
