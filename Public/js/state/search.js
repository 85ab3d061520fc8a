// Search in one conversation (docs/PROTOCOL.md, messages.search): what a result shows
// and where its words are. Pure functions, no DOM: the view draws the parts as text
// and the matched ones in <mark>.
//
// The server matches case and accents aside ("cafe" finds "Café", "strasse"
// "Straße"); `fold` does the same here, one character at a time, so that a match can
// be mapped back to the characters of the text as written.

/** A query's length, as the server counts it (characters, after trimming). */
export const QUERY_CHARS = 100;

/** How long a result's line may be, in characters, around its first match. */
export const LINE_CHARS = 90;

/**
 * The query to send, or why not.
 * @returns {{query: string} | {error: "empty" | "too_long"}}
 */
export function checkQuery(raw) {
  const query = String(raw ?? "").trim();
  if (!query) return { error: "empty" };
  if ([...query].length > QUERY_CHARS) return { error: "too_long" };
  return { query };
}

/** One code point folded as the server folds it: no accents, no case ("ß" is "ss"). */
function foldChar(c) {
  if (c.length === 1 && c < "\u0080") return c.toLowerCase();
  return c.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase().toLowerCase();
}

/** The whole string folded (a query). */
export function fold(s) {
  let out = "";
  for (const c of String(s)) out += foldChar(c);
  return out;
}

/**
 * Where `query` is in `text`, case and accents aside: each match as [start, end) in
 * UTF-16 indices of `text`, marks that follow a letter counted with it.
 * @returns {Array<[number, number]>}
 */
export function matchRanges(text, query) {
  const q = fold(query);
  if (!q) return [];
  // the folded text, and for each of its units the index of the character it came from
  let folded = "";
  const from = [];
  const ends = []; // end (exclusive) of each character of text, by its start
  let i = 0;
  for (const c of text) {
    const f = foldChar(c);
    for (let k = 0; k < f.length; k++) from.push(i);
    folded += f;
    ends[i] = i + c.length;
    i += c.length;
  }
  const ranges = [];
  let at = folded.indexOf(q);
  while (at >= 0) {
    const start = from[at];
    let end = ends[from[at + q.length - 1]];
    // a mark after the last letter (folded to nothing) belongs to it
    while (end < text.length && foldChar(String.fromCodePoint(text.codePointAt(end))) === "" ) {
      end += String.fromCodePoint(text.codePointAt(end)).length;
    }
    if (!ranges.length || start >= ranges.at(-1)[1]) ranges.push([start, end]);
    at = folded.indexOf(q, at + q.length);
  }
  return ranges;
}

/**
 * The line a result shows: at most `max` characters of `text` around its first match,
 * "…" where it was cut, as parts `{text, mark}` (mark: the query's words).
 * @returns {Array<{text: string, mark: boolean}>}
 */
export function highlightParts(text, query, max = LINE_CHARS) {
  let s = String(text).replace(/\s+/g, " ");
  let ranges = matchRanges(s, query);
  // a long line: the window starts a little before the first match
  if ([...s].length > max) {
    const first = ranges[0]?.[0] ?? 0;
    const lead = Math.min(first, 20);
    let start = first - lead;
    // never inside a pair of surrogates
    if (start > 0 && /[\uDC00-\uDFFF]/.test(s[start])) start--;
    const chars = [...s.slice(start)];
    let body = chars.slice(0, max).join("");
    const cut = chars.length > max;
    const before = start > 0;
    s = `${before ? "…" : ""}${body}${cut ? "…" : ""}`;
    ranges = matchRanges(s, query);
  }
  const parts = [];
  let at = 0;
  for (const [a, b] of ranges) {
    if (a > at) parts.push({ text: s.slice(at, a), mark: false });
    parts.push({ text: s.slice(a, b), mark: true });
    at = b;
  }
  if (at < s.length) parts.push({ text: s.slice(at), mark: false });
  return parts;
}

/**
 * The words of a message the search looked in, as the server does: the text, a
 * picture's name, an app's summary and layout texts. The first that holds the query,
 * else the first there is.
 */
export function matchedWords(m, query) {
  const layout = m.layout || {};
  const candidates = m.kind === "text" ? [m.text]
    : m.kind === "attachment" ? [m.name]
      : m.kind === "app" ? [m.summaryText, layout.caption, layout.subcaption, layout.trailingCaption, layout.trailingSubcaption, layout.imageTitle, layout.imageSubtitle]
        : [];
  const present = candidates.filter((s) => typeof s === "string" && s !== "");
  return present.find((s) => matchRanges(s, query).length) ?? present[0] ?? "";
}

/**
 * @typedef {object} SearchState
 * @property {string} query       what was searched for
 * @property {object[]} results   matches, newest first, no seq twice
 * @property {boolean} hasMore    the scan stopped before the start of the conversation
 * @property {number} [nextBeforeSeq] where the next request goes on from
 * @property {boolean} loading
 * @property {string} [error]     an error code, when the last request failed
 */

/** @returns {SearchState} */
export function newSearch(query) {
  return { query, results: [], hasMore: false, nextBeforeSeq: undefined, loading: true };
}

/**
 * An answer of the server's, added after what was found before.
 * @param {SearchState} s
 * @param {{messages: object[], hasMore: boolean, nextBeforeSeq?: number}} answer
 * @returns {SearchState}
 */
export function withAnswer(s, answer) {
  const seen = new Set(s.results.map((m) => m.seq));
  const fresh = answer.messages.filter((m) => !seen.has(m.seq));
  return {
    ...s,
    results: [...s.results, ...fresh],
    hasMore: !!answer.hasMore,
    nextBeforeSeq: answer.hasMore ? answer.nextBeforeSeq : undefined,
    loading: false,
    error: undefined,
  };
}

/** Matches deleted since they were found go (a deletion record names them). */
export function withoutDeleted(s, seq) {
  return s.results.some((m) => m.seq === seq) ? { ...s, results: s.results.filter((m) => m.seq !== seq) } : s;
}

/** What the count line says (and a screen reader hears, politely). */
export function countLine(s) {
  if (s.loading) return s.results.length ? `${s.results.length} found, searching earlier messages…` : "Searching…";
  const n = s.results.length;
  if (!n) return s.hasMore ? "No messages found in the latest messages" : "No messages found";
  const found = `${n} message${n === 1 ? "" : "s"} found`;
  return s.hasMore ? `${found} in the latest messages` : found;
}

/**
 * A transcript that holds only a page around a message found far back (oldest first):
 * the newer messages are left to come back as the reader comes down (hasMoreAfter),
 * the older ones as they scroll up; what is being sent stays.
 * @param {import("./transcript.js").Transcript} t
 * @param {object[]} page
 * @param {boolean} hasMore older messages exist before the page
 */
export function aroundPage(t, page, hasMore) {
  const messages = page.filter((m) => m.kind !== "deletion");
  const newest = page.reduce((acc, m) => Math.max(acc, m.seq), 0);
  return {
    messages,
    pending: t.pending,
    lastSeq: Math.max(t.lastSeq, newest),
    hasMoreBefore: hasMore,
    hasMoreAfter: newest < t.lastSeq,
    heldBackNew: 0,
    heldBackMentions: 0,
    heldBackBy: {},
    loaded: true,
    epoch: (t.epoch ?? 0) + 1,
  };
}
