// The bubble's image: the icon on a card of its colour, drawn on a canvas and
// handed to the SDK as a PNG. The SVG is fetched and drawn from a blob: URL,
// so the canvas stays clean in this opaque-origin frame.

const WIDTH = 600;
const HEIGHT = 400;

const images = new Map();

/** Loads an image from the app's folder (cached). */
export function loadImage(path) {
  if (!images.has(path)) {
    const loading = (async () => {
      const res = await fetch(path);
      if (!res.ok) throw new Error(`could not load ${path}`);
      const url = URL.createObjectURL(await res.blob());
      const img = new Image();
      img.decoding = "async";
      img.src = url;
      await img.decode();
      return img;
    })();
    loading.catch(() => images.delete(path));
    images.set(path, loading);
  }
  return images.get(path);
}

function mix(hex, other, t) {
  const a = parseInt(hex.slice(1), 16);
  const b = parseInt(other.slice(1), 16);
  const ch = (n, s) => (n >> s) & 255;
  const c = (s) => Math.round(ch(a, s) + (ch(b, s) - ch(a, s)) * t);
  return `rgb(${c(16)}, ${c(8)}, ${c(0)})`;
}

/**
 * The icon as a 600×400 card.
 * @param {import("./icons.js").Icon} icon
 * @returns {Promise<HTMLCanvasElement>}
 */
export async function renderIconCard(icon) {
  const canvas = document.createElement("canvas");
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  const g = canvas.getContext("2d");
  const bg = g.createLinearGradient(0, 0, WIDTH, HEIGHT);
  bg.addColorStop(0, mix(icon.tint, "#ffffff", 0.72));
  bg.addColorStop(1, mix(icon.tint, "#ffffff", 0.38));
  g.fillStyle = bg;
  g.fillRect(0, 0, WIDTH, HEIGHT);
  // soft light behind the icon, and a few dots of colour
  const glow = g.createRadialGradient(WIDTH / 2, HEIGHT / 2, 10, WIDTH / 2, HEIGHT / 2, 260);
  glow.addColorStop(0, "rgba(255,255,255,.85)");
  glow.addColorStop(1, "rgba(255,255,255,0)");
  g.fillStyle = glow;
  g.fillRect(0, 0, WIDTH, HEIGHT);
  g.fillStyle = mix(icon.tint, "#ffffff", 0.15);
  for (const [x, y, r] of [[70, 70, 10], [530, 90, 7], [90, 330, 6], [520, 320, 12], [470, 40, 4], [140, 200, 4]]) {
    g.globalAlpha = 0.35;
    g.beginPath();
    g.arc(x, y, r, 0, Math.PI * 2);
    g.fill();
  }
  g.globalAlpha = 1;
  if (icon.imagePath) {
    const img = await loadImage(icon.imagePath);
    const size = 272;
    g.save();
    g.shadowColor = "rgba(20, 16, 40, .28)";
    g.shadowBlur = 28;
    g.shadowOffsetY = 12;
    g.drawImage(img, (WIDTH - size) / 2, (HEIGHT - size) / 2, size, size);
    g.restore();
  }
  return canvas;
}
