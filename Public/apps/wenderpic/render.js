// Draws a WenderPic on a canvas: paper, then each round of strokes in its own
// ink colour (so a guesser sees what the artist added after a wrong guess).

import { GRID, LINE_WIDTH } from "./strokes.js";

/** One ink colour per round. */
export const INKS = Object.freeze(["#1f2433", "#2f6fed", "#e0457b", "#0f9d76", "#ef8a00", "#8b5cf6"]);
const PAPER = "#fffdf6";

export function inkOf(round) {
  return INKS[round % INKS.length];
}

/** The paper: warm white with a faint dot grid. */
export function paper(g, size) {
  g.fillStyle = PAPER;
  g.fillRect(0, 0, size, size);
  g.fillStyle = "rgba(120, 110, 90, 0.13)";
  const step = size / 16;
  const r = Math.max(1, size / 400);
  for (let x = step; x < size; x += step) {
    for (let y = step; y < size; y += step) {
      g.beginPath();
      g.arc(x, y, r, 0, Math.PI * 2);
      g.fill();
    }
  }
}

/**
 * Draws one stroke, smoothed through the midpoints of its points.
 * @param {CanvasRenderingContext2D} g scaled to grid units
 * @param {number[][]} stroke
 * @param {number} [upTo] only the first `upTo` points (for the replay)
 */
export function strokePath(g, stroke, upTo = stroke.length) {
  const pts = stroke.slice(0, Math.max(1, upTo));
  if (pts.length === 1) {
    g.beginPath();
    g.arc(pts[0][0], pts[0][1], LINE_WIDTH / 2, 0, Math.PI * 2);
    g.fill();
    return;
  }
  g.beginPath();
  g.moveTo(pts[0][0], pts[0][1]);
  for (let i = 1; i < pts.length - 1; i++) {
    const mx = (pts[i][0] + pts[i + 1][0]) / 2;
    const my = (pts[i][1] + pts[i + 1][1]) / 2;
    g.quadraticCurveTo(pts[i][0], pts[i][1], mx, my);
  }
  const last = pts[pts.length - 1];
  g.lineTo(last[0], last[1]);
  g.stroke();
}

/**
 * Draws rounds of strokes (and a round in progress) on a square canvas of
 * `size` pixels.
 * @param {CanvasRenderingContext2D} g
 * @param {number} size
 * @param {number[][][][]} rounds
 * @param {{draft?: number[][][], points?: number}} [opts] draft: the round being
 *   drawn; points: draw only that many points in all (a replay in progress)
 */
export function drawPicture(g, size, rounds, { draft = null, points = Infinity } = {}) {
  g.save();
  g.setTransform(1, 0, 0, 1, 0, 0);
  paper(g, size);
  const k = size / GRID;
  g.scale(k, k);
  g.lineCap = "round";
  g.lineJoin = "round";
  g.lineWidth = LINE_WIDTH;
  let budget = points;
  const all = draft && draft.length ? [...rounds, draft] : rounds;
  all.forEach((round, i) => {
    g.strokeStyle = inkOf(i);
    g.fillStyle = inkOf(i);
    for (const stroke of round) {
      if (budget <= 0) return;
      strokePath(g, stroke, Math.min(stroke.length, budget));
      budget -= stroke.length;
    }
  });
  g.restore();
}

/** How many points a drawing has (the replay's length). */
export function pointCount(rounds) {
  return rounds.reduce((n, r) => n + r.reduce((m, s) => m + s.length, 0), 0);
}

/**
 * The picture for the bubble: a square PNG-ready canvas. When the game is
 * over, a ribbon shows the word.
 */
export function pictureCanvas(rounds, { size = 480, ribbon = null } = {}) {
  const canvas = document.createElement("canvas");
  canvas.width = size;
  canvas.height = size;
  const g = canvas.getContext("2d");
  drawPicture(g, size, rounds);
  if (ribbon) {
    const h = size * 0.15;
    g.fillStyle = ribbon.right ? "rgba(15, 157, 118, 0.92)" : "rgba(224, 69, 123, 0.92)";
    g.fillRect(0, size - h, size, h);
    g.fillStyle = "#ffffff";
    g.font = `700 ${Math.round(h * 0.5)}px system-ui, sans-serif`;
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.fillText(ribbon.text, size / 2, size - h / 2, size * 0.9);
  }
  return canvas;
}
