// Draws a sundae on a 2D canvas context, in a 300 × 420 space: base at the
// bottom, scoops stacked on it, the topping over the top scoop. Everything is
// drawn with paths (no image files), so the same code makes the picker's
// thumbnails, the big preview, the bubble's image and the stickers.

import { FLAVORS, scoopFlavors } from "./sundae.js";

export const WIDTH = 300;
export const HEIGHT = 420;
const CX = 150;
const RIM = 268; // where the scoops sit on the base

/** A small deterministic random generator, so sprinkles land in the same place every time. */
function rng(seedText) {
  let h = 2166136261;
  for (let i = 0; i < seedText.length; i++) h = Math.imul(h ^ seedText.charCodeAt(i), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 1 | h);
    h ^= h + Math.imul(h ^ (h >>> 7), 61 | h);
    return ((h ^ (h >>> 14)) >>> 0) / 4294967296;
  };
}

/** Where each scoop is: centre and radius, bottom first. */
export function scoopCircles(sundae) {
  const flavors = scoopFlavors(sundae);
  const radii = [64, 57, 50];
  const sink = sundae.base === "cup" ? 0.62 : 0.42;
  const out = [];
  let cy = RIM - radii[0] * sink;
  flavors.forEach((flavor, i) => {
    const r = radii[i];
    if (i > 0) cy -= (radii[i - 1] + r) * 0.6;
    out.push({ cx: CX + (i === 1 ? -3 : i === 2 ? 2 : 0), cy, r, flavor });
  });
  return out;
}

/** The highest point the sundae reaches (y in the 300 × 420 space), for cropping stickers. */
export function topOf(sundae) {
  const scoops = scoopCircles(sundae);
  if (scoops.length === 0) return sundae.base ? RIM - 40 : 0;
  const t = scoops[scoops.length - 1];
  const extra = { cherry: 46, whipped: t.r * 0.66 + 26, wafer: 86 - t.r * 0.8 }[sundae.topping] ?? 2;
  return Math.max(0, Math.floor(t.cy - t.r - Math.max(2, extra) - 8));
}

/**
 * Draws the sundae.
 * @param {CanvasRenderingContext2D} g already scaled so that 300 × 420 fills the target
 * @param {object} sundae
 * @param {{background?: boolean | number, ghost?: boolean}} [opts] background: an opaque
 *   backdrop (the bubble's image), as wide as the number given (default 300),
 *   centred on the sundae; ghost: a faint outline where parts will go
 */
export function drawSundae(g, sundae, opts = {}) {
  g.save();
  g.lineJoin = "round";
  g.lineCap = "round";
  if (opts.background) backdrop(g, typeof opts.background === "number" ? opts.background : WIDTH);
  if (!sundae.base && opts.ghost) ghostCone(g);
  if (sundae.base) drawBase(g, sundae.base, "back");
  const scoops = scoopCircles(sundae).map((s, i) => ({ ...s, seed: `${sundae.scoops}:${i}` }));
  scoops.forEach((s) => drawScoop(g, s, s.seed));
  if (sundae.base) drawBase(g, sundae.base, "front");
  if (sundae.topping && scoops.length) drawTopping(g, sundae.topping, scoops, `${sundae.base}${sundae.scoops}${sundae.topping}`);
  g.restore();
}

/** The bubble's backdrop, over `width` × HEIGHT with the sundae's space centred in it. */
function backdrop(g, width = WIDTH) {
  const x0 = (WIDTH - width) / 2;
  const grad = g.createRadialGradient(CX, 190, 20, CX, 210, Math.max(300, width * 0.8));
  grad.addColorStop(0, "#fff6f9");
  grad.addColorStop(1, "#ffd3e2");
  g.fillStyle = grad;
  g.fillRect(x0, 0, width, HEIGHT);
  const rand = rng("backdrop");
  for (let i = 0; i < Math.round(26 * (width / WIDTH)); i++) {
    g.fillStyle = ["#ffffff", "#ffe6ef", "#fff2c9", "#dff3ff"][i % 4];
    g.globalAlpha = 0.8;
    g.beginPath();
    g.arc(x0 + rand() * width, rand() * HEIGHT, 2 + rand() * 5, 0, Math.PI * 2);
    g.fill();
  }
  g.globalAlpha = 1;
  // a soft shadow under the base
  g.fillStyle = "rgba(160, 60, 90, 0.16)";
  g.beginPath();
  g.ellipse(CX, 408, 70, 8, 0, 0, Math.PI * 2);
  g.fill();
}

function ghostCone(g) {
  g.save();
  g.setLineDash([8, 8]);
  g.strokeStyle = "rgba(150, 120, 140, 0.45)";
  g.lineWidth = 3;
  g.beginPath();
  g.moveTo(CX - 70, RIM);
  g.lineTo(CX, 404);
  g.lineTo(CX + 70, RIM);
  g.closePath();
  g.stroke();
  g.beginPath();
  g.arc(CX, RIM - 30, 58, Math.PI * 0.85, Math.PI * 2.15);
  g.stroke();
  g.restore();
}

// ---- bases ---------------------------------------------------------------------------

function conePath(g) {
  g.beginPath();
  g.moveTo(CX - 68, RIM - 4);
  g.quadraticCurveTo(CX - 30, 340, CX - 5, 404);
  g.quadraticCurveTo(CX, 410, CX + 5, 404);
  g.quadraticCurveTo(CX + 30, 340, CX + 68, RIM - 4);
  g.closePath();
}

function drawBase(g, base, layer) {
  if (base === "cup") return drawCup(g, layer);
  if (layer === "back") return undefined; // cones have nothing behind the scoops
  if (base === "cake") return drawCakeCone(g);
  drawWaffleCone(g, base === "dipped");
  return undefined;
}

function drawWaffleCone(g, dipped) {
  const grad = g.createLinearGradient(CX - 70, 0, CX + 70, 0);
  grad.addColorStop(0, "#d9934a");
  grad.addColorStop(0.5, "#f0b96b");
  grad.addColorStop(1, "#c9803c");
  conePath(g);
  g.fillStyle = grad;
  g.fill();
  // the waffle grid, clipped to the cone
  g.save();
  conePath(g);
  g.clip();
  g.strokeStyle = "rgba(140, 74, 24, 0.55)";
  g.lineWidth = 3;
  for (let i = -8; i <= 8; i++) {
    g.beginPath();
    g.moveTo(CX + i * 22 - 120, RIM - 20);
    g.lineTo(CX + i * 22 + 120, 430);
    g.stroke();
    g.beginPath();
    g.moveTo(CX + i * 22 + 120, RIM - 20);
    g.lineTo(CX + i * 22 - 120, 430);
    g.stroke();
  }
  g.restore();
  conePath(g);
  g.strokeStyle = "#a8622a";
  g.lineWidth = 3;
  g.stroke();
  // the rim
  roundRect(g, CX - 74, RIM - 14, 148, 22, 11);
  g.fillStyle = dipped ? "#5b331f" : "#e9a557";
  g.fill();
  g.strokeStyle = dipped ? "#43220f" : "#a8622a";
  g.stroke();
  if (dipped) {
    // chocolate running down from the rim, with a few sprinkles stuck in it
    g.fillStyle = "#5b331f";
    g.beginPath();
    g.moveTo(CX - 70, RIM);
    const drips = [[-52, 26], [-30, 14], [-8, 34], [14, 18], [36, 28], [56, 12]];
    for (const [x, len] of drips) {
      g.lineTo(CX + x - 8, RIM + 4);
      g.quadraticCurveTo(CX + x - 8, RIM + len, CX + x, RIM + len + 4);
      g.quadraticCurveTo(CX + x + 8, RIM + len, CX + x + 8, RIM + 4);
    }
    g.lineTo(CX + 70, RIM);
    g.closePath();
    g.fill();
    const rand = rng("dipped");
    const colours = ["#ff6b9a", "#ffd84d", "#6ad1ff", "#ffffff"];
    for (let i = 0; i < 12; i++) {
      g.fillStyle = colours[i % colours.length];
      capsule(g, CX - 64 + rand() * 128, RIM - 8 + rand() * 12, rand() * Math.PI, 7, 2.6);
    }
    g.fillStyle = "rgba(255,255,255,0.25)";
    roundRect(g, CX - 66, RIM - 11, 60, 5, 2.5);
    g.fill();
  }
}

function drawCakeCone(g) {
  const path = () => {
    g.beginPath();
    g.moveTo(CX - 64, RIM - 2);
    g.lineTo(CX + 64, RIM - 2);
    g.lineTo(CX + 46, 398);
    g.quadraticCurveTo(CX, 406, CX - 46, 398);
    g.closePath();
  };
  const grad = g.createLinearGradient(CX - 64, 0, CX + 64, 0);
  grad.addColorStop(0, "#e8c07e");
  grad.addColorStop(0.5, "#f8dca6");
  grad.addColorStop(1, "#dcae68");
  path();
  g.fillStyle = grad;
  g.fill();
  g.save();
  path();
  g.clip();
  g.strokeStyle = "rgba(170, 118, 52, 0.55)";
  g.lineWidth = 3;
  for (let y = RIM + 22; y < 400; y += 22) {
    g.beginPath();
    g.moveTo(CX - 70, y);
    g.lineTo(CX + 70, y);
    g.stroke();
  }
  for (let x = -50; x <= 50; x += 25) {
    g.beginPath();
    g.moveTo(CX + x, RIM);
    g.lineTo(CX + x * 0.72, 404);
    g.stroke();
  }
  g.restore();
  path();
  g.strokeStyle = "#b47d36";
  g.lineWidth = 3;
  g.stroke();
  roundRect(g, CX - 72, RIM - 16, 144, 24, 8);
  g.fillStyle = "#f3cf8e";
  g.fill();
  g.strokeStyle = "#b47d36";
  g.stroke();
  // little scallops on the cup rim
  g.fillStyle = "#e2b46d";
  for (let x = -60; x <= 60; x += 20) {
    g.beginPath();
    g.arc(CX + x, RIM - 4, 5, 0, Math.PI * 2);
    g.fill();
  }
}

function drawCup(g, layer) {
  const top = RIM - 22;
  const path = () => {
    g.beginPath();
    g.moveTo(CX - 82, top);
    g.lineTo(CX + 82, top);
    g.lineTo(CX + 58, 400);
    g.quadraticCurveTo(CX, 406, CX - 58, 400);
    g.closePath();
  };
  if (layer === "back") {
    // the inside of the cup, seen over the rim
    g.fillStyle = "#f6d3df";
    g.beginPath();
    g.ellipse(CX, top, 82, 14, 0, 0, Math.PI * 2);
    g.fill();
    return;
  }
  path();
  g.fillStyle = "#ffffff";
  g.fill();
  g.save();
  path();
  g.clip();
  g.fillStyle = "#ff7aa2";
  for (let i = -5; i <= 5; i += 2) {
    g.beginPath();
    g.moveTo(CX + i * 16 - 8, top);
    g.lineTo(CX + i * 16 + 8, top);
    g.lineTo(CX + i * 11.5 + 6, 410);
    g.lineTo(CX + i * 11.5 - 6, 410);
    g.closePath();
    g.fill();
  }
  const shade = g.createLinearGradient(CX - 82, 0, CX + 82, 0);
  shade.addColorStop(0, "rgba(0,0,0,0.12)");
  shade.addColorStop(0.45, "rgba(0,0,0,0)");
  shade.addColorStop(1, "rgba(0,0,0,0.16)");
  g.fillStyle = shade;
  g.fillRect(0, top - 20, WIDTH, 200);
  g.restore();
  path();
  g.strokeStyle = "#d94f7a";
  g.lineWidth = 3;
  g.stroke();
  // the rolled rim
  g.beginPath();
  g.ellipse(CX, top, 84, 9, 0, 0, Math.PI);
  g.strokeStyle = "#ffffff";
  g.lineWidth = 9;
  g.stroke();
  g.strokeStyle = "#d94f7a";
  g.lineWidth = 2;
  g.beginPath();
  g.ellipse(CX, top + 5, 86, 10, 0, 0.05 * Math.PI, 0.95 * Math.PI);
  g.stroke();
}

// ---- scoops ------------------------------------------------------------------------------

function scoopPath(g, { cx, cy, r }) {
  const a = Math.PI / 6;
  g.beginPath();
  g.arc(cx, cy, r, Math.PI - a, 2 * Math.PI + a);
  // the scalloped lower edge, right to left
  const y = cy + r * Math.sin(a);
  const x0 = cx + r * Math.cos(a);
  const x1 = cx - r * Math.cos(a);
  const bumps = 5;
  const w = (x0 - x1) / bumps;
  g.lineTo(x0 + r * 0.08, y + r * 0.1);
  for (let i = 0; i < bumps; i++) {
    const xa = x0 - i * w;
    const xb = xa - w;
    g.quadraticCurveTo((xa + xb) / 2, y + r * (i % 2 ? 0.3 : 0.4), xb, y + r * 0.12);
  }
  g.lineTo(x1 - r * 0.08, y + r * 0.1);
  g.closePath();
}

function drawScoop(g, s, seed) {
  const f = FLAVORS[s.flavor];
  const grad = g.createRadialGradient(s.cx - s.r * 0.35, s.cy - s.r * 0.45, s.r * 0.1, s.cx, s.cy, s.r * 1.15);
  grad.addColorStop(0, lighten(f.fill));
  grad.addColorStop(0.55, f.fill);
  grad.addColorStop(1, f.shade);
  scoopPath(g, s);
  g.fillStyle = grad;
  g.fill();
  g.strokeStyle = f.shade;
  g.lineWidth = 2.5;
  g.stroke();
  // the texture, inside the scoop
  g.save();
  scoopPath(g, s);
  g.clip();
  const rand = rng(seed);
  const count = f.texture === "chips" ? 11 : f.texture === "seeds" ? 16 : 22;
  for (let i = 0; i < count; i++) {
    const ang = rand() * Math.PI * 2;
    const dist = Math.sqrt(rand()) * s.r * 0.85;
    const x = s.cx + Math.cos(ang) * dist;
    const y = s.cy + Math.sin(ang) * dist * 0.85;
    g.fillStyle = f.bits;
    if (f.texture === "chips") {
      g.beginPath();
      g.moveTo(x, y - 4);
      g.lineTo(x + 4.5, y + 2.5);
      g.lineTo(x - 3.5, y + 3.5);
      g.closePath();
      g.fill();
    } else if (f.texture === "seeds") {
      g.beginPath();
      g.ellipse(x, y, 1.6, 2.6, ang, 0, Math.PI * 2);
      g.fill();
    } else {
      g.beginPath();
      g.arc(x, y, 1.4, 0, Math.PI * 2);
      g.fill();
    }
  }
  g.restore();
  // a glossy highlight
  g.fillStyle = "rgba(255,255,255,0.45)";
  g.beginPath();
  g.ellipse(s.cx - s.r * 0.42, s.cy - s.r * 0.42, s.r * 0.22, s.r * 0.12, -Math.PI / 4, 0, Math.PI * 2);
  g.fill();
}

// ---- toppings ------------------------------------------------------------------------------

function drawTopping(g, topping, scoops, seed) {
  const top = scoops[scoops.length - 1];
  switch (topping) {
    case "cherry":
      cherry(g, top.cx + 6, top.cy - top.r - 4);
      break;
    case "sprinkles":
      sprinkles(g, scoops, seed);
      break;
    case "fudge":
      sauce(g, top, "#4a2616", "#6d3a22", seed);
      break;
    case "caramel":
      sauce(g, top, "#d9892b", "#f3b55a", seed);
      for (const s of scoops.slice(0, -1)) drizzle(g, s, "#e39a3b");
      break;
    case "whipped":
      whipped(g, top);
      break;
    case "wafer":
      // the sticks go in behind the top scoop's front: draw them, then the scoop again
      wafer(g, top.cx + 16, top.cy - top.r * 0.2, 0.28);
      wafer(g, top.cx - 18, top.cy - top.r * 0.15, -0.36);
      drawScoop(g, top, top.seed);
      break;
  }
}

function cherry(g, x, y) {
  g.strokeStyle = "#4e7d2b";
  g.lineWidth = 3.5;
  g.beginPath();
  g.moveTo(x + 2, y - 12);
  g.quadraticCurveTo(x + 6, y - 30, x + 20, y - 36);
  g.stroke();
  const grad = g.createRadialGradient(x - 6, y - 6, 2, x, y, 20);
  grad.addColorStop(0, "#ff6b6b");
  grad.addColorStop(1, "#b3122a");
  g.fillStyle = grad;
  g.beginPath();
  g.arc(x, y, 17, 0, Math.PI * 2);
  g.fill();
  g.fillStyle = "rgba(255,255,255,0.7)";
  g.beginPath();
  g.ellipse(x - 6, y - 6, 5, 3, -0.6, 0, Math.PI * 2);
  g.fill();
}

function sprinkles(g, scoops, seed) {
  const rand = rng(`${seed}sprinkles`);
  const colours = ["#ff5d8f", "#ffd23f", "#3ec1ff", "#7ee081", "#b388ff", "#ff9f43"];
  for (const s of scoops) {
    g.save();
    scoopPath(g, s);
    g.clip();
    const n = Math.round(s.r * 0.45);
    for (let i = 0; i < n; i++) {
      const ang = -Math.PI * rand();
      const dist = Math.sqrt(rand()) * s.r * 0.9;
      g.fillStyle = colours[i % colours.length];
      capsule(g, s.cx + Math.cos(ang) * dist, s.cy + Math.sin(ang) * dist * 0.95 + s.r * 0.05, rand() * Math.PI, 9, 3.2);
    }
    g.restore();
  }
}

function sauce(g, s, dark, light, seed) {
  const rand = rng(`${seed}sauce`);
  const grad = g.createLinearGradient(s.cx, s.cy - s.r, s.cx, s.cy + s.r * 0.6);
  grad.addColorStop(0, light);
  grad.addColorStop(1, dark);
  g.fillStyle = grad;
  const edge = s.cy - s.r * 0.05; // where the sauce stops between drips
  g.beginPath();
  g.moveTo(s.cx - s.r - 2, edge);
  g.arc(s.cx, s.cy, s.r + 2, Math.PI, Math.PI * 2);
  // back from right to left along the lower edge, with rounded drips
  const drips = [0.72, 0.36, 0.02, -0.34, -0.68];
  let x = s.cx + s.r + 2;
  for (const d of drips) {
    const dx = s.cx + d * s.r;
    const w = s.r * (0.16 + rand() * 0.08);
    const len = s.r * (0.22 + rand() * 0.42) * (1 - Math.abs(d) * 0.4);
    g.quadraticCurveTo((x + dx + w / 2) / 2, edge + s.r * 0.12, dx + w / 2, edge + s.r * 0.06);
    g.lineTo(dx + w / 2, edge + len);
    g.arc(dx, edge + len, w / 2, 0, Math.PI);
    g.lineTo(dx - w / 2, edge + s.r * 0.06);
    x = dx - w / 2;
  }
  g.quadraticCurveTo((x + s.cx - s.r) / 2, edge + s.r * 0.12, s.cx - s.r - 2, edge);
  g.closePath();
  g.fill();
  g.fillStyle = "rgba(255,255,255,0.35)";
  g.beginPath();
  g.ellipse(s.cx - s.r * 0.35, s.cy - s.r * 0.62, s.r * 0.22, s.r * 0.07, -0.5, 0, Math.PI * 2);
  g.fill();
}

function drizzle(g, s, colour) {
  g.strokeStyle = colour;
  g.lineWidth = 4;
  g.beginPath();
  g.moveTo(s.cx - s.r * 0.85, s.cy - s.r * 0.2);
  g.bezierCurveTo(s.cx - s.r * 0.3, s.cy + s.r * 0.2, s.cx + s.r * 0.2, s.cy - s.r * 0.5, s.cx + s.r * 0.85, s.cy);
  g.stroke();
}

function whipped(g, s) {
  const base = s.cy - s.r * 0.72;
  const tiers = [
    { y: base, w: s.r * 1.0, h: s.r * 0.42 },
    { y: base - s.r * 0.34, w: s.r * 0.74, h: s.r * 0.36 },
    { y: base - s.r * 0.64, w: s.r * 0.46, h: s.r * 0.3 },
  ];
  for (const t of tiers) {
    const grad = g.createLinearGradient(0, t.y - t.h, 0, t.y + t.h);
    grad.addColorStop(0, "#ffffff");
    grad.addColorStop(1, "#e9e4ee");
    g.fillStyle = grad;
    g.strokeStyle = "#d5cedd";
    g.lineWidth = 2;
    g.beginPath();
    g.ellipse(s.cx, t.y, t.w, t.h, 0, 0, Math.PI * 2);
    g.fill();
    g.stroke();
  }
  // the curl on top
  const tipY = base - s.r * 0.64 - s.r * 0.3;
  g.fillStyle = "#ffffff";
  g.beginPath();
  g.moveTo(s.cx - 12, tipY + 6);
  g.quadraticCurveTo(s.cx - 2, tipY - 22, s.cx + 10, tipY - 14);
  g.quadraticCurveTo(s.cx + 2, tipY - 4, s.cx + 12, tipY + 6);
  g.closePath();
  g.fill();
  g.strokeStyle = "#d5cedd";
  g.stroke();
}

function wafer(g, x, y, angle) {
  g.save();
  g.translate(x, y);
  g.rotate(angle);
  roundRect(g, -9, -78, 18, 84, 5);
  g.fillStyle = "#f2c777";
  g.fill();
  g.strokeStyle = "#b8843a";
  g.lineWidth = 2.5;
  g.stroke();
  g.strokeStyle = "rgba(160, 104, 40, 0.6)";
  g.lineWidth = 2;
  for (let yy = -70; yy < 2; yy += 12) {
    g.beginPath();
    g.moveTo(-8, yy);
    g.lineTo(8, yy + 7);
    g.stroke();
  }
  g.restore();
}

// ---- helpers -----------------------------------------------------------------------------

function capsule(g, x, y, angle, len, width) {
  g.save();
  g.translate(x, y);
  g.rotate(angle);
  roundRect(g, -len / 2, -width / 2, len, width, width / 2);
  g.fill();
  g.restore();
}

function roundRect(g, x, y, w, h, r) {
  g.beginPath();
  g.moveTo(x + r, y);
  g.arcTo(x + w, y, x + w, y + h, r);
  g.arcTo(x + w, y + h, x, y + h, r);
  g.arcTo(x, y + h, x, y, r);
  g.arcTo(x, y, x + w, y, r);
  g.closePath();
}

function lighten(hex) {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c) => Math.round(c + (255 - c) * 0.45);
  const r = mix((n >> 16) & 255);
  const gg = mix((n >> 8) & 255);
  const b = mix(n & 255);
  return `rgb(${r}, ${gg}, ${b})`;
}

// ---- canvases ------------------------------------------------------------------------------

/**
 * A canvas with the sundae at `scale` (1 = 300 × 420 pixels).
 * @param {object} sundae
 * @param {{scale?: number, background?: boolean, ghost?: boolean, crop?: boolean}} [opts]
 *   crop: cut the empty space above the sundae (for stickers)
 */
export function sundaeCanvas(sundae, { scale = 1, background = false, ghost = false, crop = false } = {}) {
  const top = crop ? topOf(sundae) : 0;
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(WIDTH * scale);
  canvas.height = Math.round((HEIGHT - top) * scale);
  const g = canvas.getContext("2d");
  g.setTransform(scale, 0, 0, scale, 0, -top * scale);
  drawSundae(g, sundae, { background, ghost });
  return canvas;
}

/**
 * The bubble's picture: a square (the transcript shows images at most as tall
 * as they are wide), the sundae centred on its backdrop.
 * @param {object} sundae
 * @param {number} [scale] 1 = 420 × 420 pixels
 */
export function bubbleCanvas(sundae, scale = 1) {
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(HEIGHT * scale);
  canvas.height = Math.round(HEIGHT * scale);
  const g = canvas.getContext("2d");
  g.setTransform(scale, 0, 0, scale, ((HEIGHT - WIDTH) / 2) * scale, 0);
  drawSundae(g, sundae, { background: HEIGHT });
  return canvas;
}

/**
 * Draws the sundae into an on-screen canvas, sharp at the device's pixel ratio.
 * The canvas's CSS width (or, with fitHeight, its CSS height) decides how big
 * it looks; `top`/`bottom`/`left`/`right` crop the 300 × 420 space.
 */
export function paint(canvas, sundae, { ghost = false, top = 0, bottom = HEIGHT, left = 0, right = WIDTH, fitHeight = false } = {}) {
  const ratio = Math.min(3, globalThis.devicePixelRatio || 1);
  const scale = fitHeight
    ? ((canvas.clientHeight || bottom - top) / (bottom - top)) * ratio
    : ((canvas.clientWidth || right - left) / (right - left)) * ratio;
  canvas.width = Math.round((right - left) * scale);
  canvas.height = Math.round((bottom - top) * scale);
  const g = canvas.getContext("2d");
  g.setTransform(scale, 0, 0, scale, -left * scale, -top * scale);
  drawSundae(g, sundae, { ghost });
  canvas.dataset.painted = "";
}
