// Web addresses in a text message become links: only http(s), found in the
// text as typed (no markup is ever interpreted), and what is shown is exactly
// the text. Trailing punctuation that ends a sentence stays out of the link.

const URL = /\bhttps?:\/\/[^\s<>"]+/gi;
/** Closing characters kept in the link only when the link opened them too. */
const PAIRS = { ")": "(", "]": "[", "}": "{" };

/** Trims what most likely belongs to the sentence, not to the address. */
function trimEnd(url) {
  let end = url.length;
  for (;;) {
    const c = url[end - 1];
    if (/[.,;:!?'’”]/.test(c)) { end -= 1; continue; }
    const open = PAIRS[c];
    if (open) {
      const s = url.slice(0, end);
      if (s.split(open).length - 1 < s.split(c).length - 1) { end -= 1; continue; }
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
      href = new globalThis.URL(url).href;
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
