// Text cut to a length without breaking a character. String.slice counts UTF-16
// units: an emoji at the cut left half a surrogate pair, which the host's JSON
// carried as "\ud83c" and the server refused with the whole message. Apps import
// it from /sdk/index.js; the host, which serves /sdk/ too, imports this file.

const segmenter = typeof Intl.Segmenter === "function" ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;

/** What a reader sees as one character each ("é", "🇧🇪", "👩‍👩‍👧"); code points without Intl.Segmenter. */
function* graphemes(s) {
  if (!segmenter) yield* s;
  else for (const g of segmenter.segment(s)) yield g.segment;
}

/** The longest run of whole pieces that fits in `room` UTF-16 units. */
function fit(pieces, room) {
  let out = "";
  for (const piece of pieces) {
    if (out.length + piece.length > room) break;
    out += piece;
  }
  return out;
}

/**
 * At most `max` UTF-16 units of `text` (the unit the limits count in), cut between
 * graphemes, ending with `ellipsis` when cut.
 * @param {string} text
 * @param {number} max
 * @param {string} [ellipsis] "" for a cut to a limit
 */
export function shorten(text, max, ellipsis = "…") {
  const s = String(text ?? "");
  if (s.length <= max) return s;
  const room = Math.max(0, max - ellipsis.length);
  // one grapheme longer than the room ("a" and 400 accents): its code points rather than nothing
  const out = fit(graphemes(s), room) || fit(s, room);
  return ellipsis ? `${out.trimEnd()}${ellipsis}` : out;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` with each half of a surrogate pair that lost the other as U+FFFD, as the server stores it. */
export function wellFormed(text) {
  return typeof text.toWellFormed === "function" ? text.toWellFormed() : text.replace(LONE_SURROGATE, "\uFFFD");
}
