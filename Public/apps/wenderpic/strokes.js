// A drawing as data: rounds of strokes of points on a 1024 × 1024 grid, and a
// compact text form for the message URL. Pure functions (node --test runs them).
//
// Text form: rounds joined by ".", strokes in a round joined by "~". A stroke
// is its first point (x and y, two base64url characters each, 0–1023), then
// one pair of characters per further point: the step dx, dy, each −31…31,
// stored as ALPHABET[d + 32]. Every character is URL-safe, so the text goes
// into a query item unchanged. A point costs two characters.
//
// Ink: a stroke costs DOT_INK for touching the paper plus its length in grid
// units. The game gives the artist a budget of ink (see game.js).

export const GRID = 1024;
export const MAX_DELTA = 31;
/** Points closer than this to the last one are not recorded (grid units). */
export const MIN_STEP = 8;
/** What touching the paper costs, so a shower of dots cannot fill the URL. */
export const DOT_INK = 24;
/** The pen's width, in grid units. */
export const LINE_WIDTH = 16;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const INDEX = new Map([...ALPHABET].map((c, i) => [c, i]));

export class StrokeError extends Error {
  constructor(message) {
    super(message);
    this.name = "StrokeError";
  }
}

/** A point clamped to the grid, as integers. */
export function gridPoint(x, y) {
  const c = (v) => Math.max(0, Math.min(GRID - 1, Math.round(Number.isFinite(v) ? v : 0)));
  return [c(x), c(y)];
}

const dist = (a, b) => Math.hypot(b[0] - a[0], b[1] - a[1]);

/** The ink a stroke uses. */
export function strokeInk(stroke) {
  let ink = DOT_INK;
  for (let i = 1; i < stroke.length; i++) ink += dist(stroke[i - 1], stroke[i]);
  return ink;
}

/** The ink a list of strokes (one round) uses. */
export function strokesInk(strokes) {
  return strokes.reduce((sum, s) => sum + strokeInk(s), 0);
}

/** The ink all rounds use. */
export function roundsInk(rounds) {
  return rounds.reduce((sum, r) => sum + strokesInk(r), 0);
}

const sameStroke = (a, b) => a.length === b.length && a.every((p, i) => p[0] === b[i][0] && p[1] === b[i][1]);

/**
 * The strokes of `draft` drawn after `round`: those past the strokes the two
 * begin with (a round sent, and the drawing the artist went on with).
 * @param {number[][][]} round
 * @param {number[][][]} draft
 * @returns {number[][][]}
 */
export function strokesAfter(round, draft) {
  let same = 0;
  while (same < round.length && same < draft.length && sameStroke(round[same], draft[same])) same++;
  return draft.slice(same);
}

/**
 * Starts a stroke at (x, y) if there is ink for it.
 * @returns {number[][] | null} the new stroke, or null when out of ink
 */
export function startStroke(x, y, inkLeft) {
  if (inkLeft < DOT_INK) return null;
  return [gridPoint(x, y)];
}

/**
 * Extends a stroke toward (x, y), in place: points closer than MIN_STEP are
 * skipped, long moves are split into steps of at most MAX_DELTA per axis, and
 * the stroke stops where the ink runs out.
 * @param {number[][]} stroke
 * @param {number} x
 * @param {number} y
 * @param {number} inkLeft what may still be used
 * @returns {{used: number, out: boolean}} ink used by the added points; out: the ink ran out
 */
export function extendStroke(stroke, x, y, inkLeft) {
  const last = stroke[stroke.length - 1];
  let target = gridPoint(x, y);
  let d = dist(last, target);
  if (d < MIN_STEP) return { used: 0, out: false };
  let out = false;
  if (d > inkLeft) {
    out = true;
    if (inkLeft < 1) return { used: 0, out };
    const k = inkLeft / d;
    target = [Math.floor(last[0] + (target[0] - last[0]) * k), Math.floor(last[1] + (target[1] - last[1]) * k)];
    d = dist(last, target);
  }
  const n = Math.ceil(Math.max(Math.abs(target[0] - last[0]), Math.abs(target[1] - last[1])) / MAX_DELTA);
  let used = 0;
  let prev = last;
  for (let i = 1; i <= n; i++) {
    const p = [Math.round(last[0] + ((target[0] - last[0]) * i) / n), Math.round(last[1] + ((target[1] - last[1]) * i) / n)];
    if (p[0] === prev[0] && p[1] === prev[1]) continue;
    const step = dist(prev, p);
    if (used + step > inkLeft) {
      out = true;
      break;
    }
    stroke.push(p);
    used += step;
    prev = p;
  }
  return { used, out };
}

// ---- text form -------------------------------------------------------------------------

function encodeStroke(stroke) {
  const [x, y] = stroke[0];
  let text = ALPHABET[x >> 6] + ALPHABET[x & 63] + ALPHABET[y >> 6] + ALPHABET[y & 63];
  for (let i = 1; i < stroke.length; i++) {
    const dx = stroke[i][0] - stroke[i - 1][0];
    const dy = stroke[i][1] - stroke[i - 1][1];
    if (Math.abs(dx) > MAX_DELTA || Math.abs(dy) > MAX_DELTA) throw new StrokeError("a step is longer than 31");
    text += ALPHABET[dx + 32] + ALPHABET[dy + 32];
  }
  return text;
}

/** The text form of rounds of strokes. */
export function encodeRounds(rounds) {
  return rounds.map((round) => {
    if (round.length === 0) throw new StrokeError("a round has at least one stroke");
    return round.map(encodeStroke).join("~");
  }).join(".");
}

function decodeStroke(text) {
  if (text.length < 4 || text.length % 2 !== 0) throw new StrokeError("a stroke is 4 + 2n characters");
  const v = [...text].map((c) => {
    const i = INDEX.get(c);
    if (i === undefined) throw new StrokeError(`"${c}" is not part of a drawing`);
    return i;
  });
  const x = (v[0] << 6) | v[1];
  const y = (v[2] << 6) | v[3];
  if (x >= GRID || y >= GRID) throw new StrokeError("a point is off the paper");
  const stroke = [[x, y]];
  for (let i = 4; i < v.length; i += 2) {
    if (v[i] === 0 || v[i + 1] === 0) throw new StrokeError("a step is out of range");
    const last = stroke[stroke.length - 1];
    const p = [last[0] + v[i] - 32, last[1] + v[i + 1] - 32];
    if (p[0] < 0 || p[1] < 0 || p[0] >= GRID || p[1] >= GRID) throw new StrokeError("a point is off the paper");
    stroke.push(p);
  }
  return stroke;
}

/** Rounds of strokes from their text form; throws StrokeError on anything else. */
export function decodeRounds(text) {
  if (typeof text !== "string") throw new StrokeError("a drawing is text");
  if (text === "") return [];
  return text.split(".").map((round) => {
    if (round === "") throw new StrokeError("a round has at least one stroke");
    return round.split("~").map(decodeStroke);
  });
}

/** How many characters a round adds to the text form (for the URL budget). */
export function encodedLength(strokes) {
  if (strokes.length === 0) return 0;
  return strokes.reduce((n, s) => n + 4 + 2 * (s.length - 1), 0) + strokes.length - 1;
}
