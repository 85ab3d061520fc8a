// The bubble's image (the seed's renderSticker): the list on a sheet of
// notepad paper, drawn on a canvas; the SDK uploads it as a PNG.

import { displayName, countLabel } from "./list.js";

const WIDTH = 600;
const ROW = 50;
const TOP = 122;
const MAX_ROWS = 8;
const SANS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", "DejaVu Sans", sans-serif';

/** Cuts text to fit a width, with an ellipsis. */
function fit(g, text, width) {
  if (g.measureText(text).width <= width) return text;
  let cut = text;
  while (cut.length > 1 && g.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/**
 * @param {import("./list.js").ShoppingList} list
 * @returns {HTMLCanvasElement}
 */
export function renderList(list) {
  const shown = list.elements.length > MAX_ROWS ? list.elements.slice(0, MAX_ROWS - 1) : list.elements;
  const more = list.elements.length - shown.length;
  const rows = Math.max(shown.length + (more > 0 ? 1 : 0), 2);
  const height = TOP + rows * ROW + 34;
  const canvas = document.createElement("canvas");
  canvas.width = WIDTH;
  canvas.height = height;
  const g = canvas.getContext("2d");

  // the table: a warm yellow, and the sheet on it
  const bg = g.createLinearGradient(0, 0, WIDTH, height);
  bg.addColorStop(0, "#fde68a");
  bg.addColorStop(1, "#fb923c");
  g.fillStyle = bg;
  g.fillRect(0, 0, WIDTH, height);
  g.save();
  g.shadowColor = "rgba(120, 53, 15, .35)";
  g.shadowBlur = 18;
  g.shadowOffsetY = 6;
  g.fillStyle = "#fffdf5";
  roundRect(g, 28, 22, WIDTH - 56, height - 44, 18);
  g.fill();
  g.restore();

  // the title band
  g.fillStyle = "#dc2626";
  roundRect(g, 28, 22, WIDTH - 56, 80, [18, 18, 0, 0]);
  g.fill();
  g.fillStyle = "#ffffff";
  g.textBaseline = "middle";
  g.font = `800 34px ${SANS}`;
  g.fillText(fit(g, displayName(list), WIDTH - 230), 56, 62);
  g.textAlign = "right";
  g.font = `700 20px ${SANS}`;
  g.fillStyle = "rgba(255,255,255,.85)";
  g.fillText(countLabel(list), WIDTH - 56, 63);
  g.textAlign = "left";

  // the rows: a ruled line, a round box, the element
  g.font = `500 27px ${SANS}`;
  const items = [...shown];
  if (more > 0) items.push(`+ ${more} more`);
  if (items.length === 0) items.push("Nothing on the list yet");
  items.forEach((text, i) => {
    const y = TOP + i * ROW + ROW / 2;
    const isNote = (more > 0 && i === items.length - 1) || list.elements.length === 0;
    if (i > 0) {
      g.strokeStyle = "#f1e3c4";
      g.lineWidth = 2;
      g.beginPath();
      g.moveTo(56, y - ROW / 2);
      g.lineTo(WIDTH - 56, y - ROW / 2);
      g.stroke();
    }
    if (!isNote) {
      g.strokeStyle = "#f59e0b";
      g.lineWidth = 3;
      g.beginPath();
      g.arc(72, y, 11, 0, Math.PI * 2);
      g.stroke();
    }
    g.fillStyle = isNote ? "#92400e" : "#1f2937";
    g.font = isNote ? `italic 500 24px ${SANS}` : `500 27px ${SANS}`;
    g.fillText(fit(g, text, WIDTH - 170), isNote ? 60 : 98, y + 1);
  });
  return canvas;
}

function roundRect(g, x, y, w, h, r) {
  g.beginPath();
  if (typeof g.roundRect === "function") g.roundRect(x, y, w, h, r);
  else g.rect(x, y, w, h);
}
