// Web addresses in a text message become links: only http(s), found in the
// text as typed (no markup is ever interpreted), and what is shown is exactly
// the text. Trailing punctuation that ends a sentence stays out of the link.

// Bidirectional controls end an address: inside one they would show it in another
// order than it is opened in.
const URL = /\bhttps?:\/\/[^\s<>"\u200e\u200f\u202a-\u202e\u2066-\u2069]+/gi;
/** Closing characters kept in the link only when the link opened them too. */
const PAIRS = { ")": "(", "]": "[", "}": "{" };

/**
 * Trims what most likely belongs to the sentence, not to the address. Counts each
 * bracket once (linear: a text of 10,000 ")" must not take seconds to draw).
 */
function trimEnd(url) {
  const open = { ")": 0, "]": 0, "}": 0 };
  const close = { ")": 0, "]": 0, "}": 0 };
  for (const c of url) {
    if (c in close) close[c] += 1;
    else if (c === "(") open[")"] += 1;
    else if (c === "[") open["]"] += 1;
    else if (c === "{") open["}"] += 1;
  }
  let end = url.length;
  for (;;) {
    const c = url[end - 1];
    if (/[.,;:!?'’”]/.test(c)) { end -= 1; continue; }
    if (PAIRS[c] && open[c] < close[c]) {
      close[c] -= 1;
      end -= 1;
      continue;
    }
    return url.slice(0, end);
  }
}

/**
 * @param {string} text
 * @returns {Array<{text: string, href?: string}>} the text in order; a part with
 *   `href` is a link whose text is the address as typed
 */
export function linkParts(text) {
  if (typeof text !== "string" || !/https?:\/\//i.test(text)) return [{ text: String(text ?? "") }];
  const parts = [];
  let at = 0;
  for (const m of text.matchAll(URL)) {
    const url = trimEnd(m[0]);
    if (!url || /^https?:\/\/$/i.test(url)) continue;
    let href;
    try {
      const u = new globalThis.URL(url);
      // `https://bank.example⁄login@evil.example` goes to evil.example: a name before an @ is never linked
      if (u.username !== "" || u.password !== "") continue;
      href = u.href;
    } catch {
      continue;
    }
    if (m.index > at) parts.push({ text: text.slice(at, m.index) });
    parts.push({ text: url, href });
    at = m.index + url.length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts.length ? parts : [{ text }];
}

/**
 * The text as it is drawn: the left-to-right and right-to-left overrides (U+202D,
 * U+202E) left out. One written after a link drew the rest reversed beside it, so
 * "https://example.com/\u202Eexe.live" read as one address; scripts written right to
 * left need no override (their letters carry their direction; marks, embeddings and
 * isolates stay).
 * @param {string} text
 */
export function withoutOverrides(text) {
  return typeof text === "string" && /[\u202d\u202e]/.test(text) ? text.replace(/[\u202d\u202e]/g, "") : text;
}
