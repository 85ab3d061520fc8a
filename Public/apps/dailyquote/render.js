// The bubble's image: a warm banner with a large quotation mark, drawn on a
// canvas (the SDK uploads it as a PNG). The quote itself is the caption, so
// it stays text: readable at any size, and read aloud.

const WIDTH = 600;
const HEIGHT = 200;
const SERIF = 'Georgia, "Liberation Serif", "DejaVu Serif", serif';
const SANS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", sans-serif';

/**
 * @param {{label: string, line: string | null}} text what the banner says (quotes.js: bannerText)
 * @returns {HTMLCanvasElement}
 */
export function renderBanner({ label, line }) {
  const canvas = document.createElement("canvas");
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  const g = canvas.getContext("2d");
  const bg = g.createLinearGradient(0, 0, WIDTH, HEIGHT);
  bg.addColorStop(0, "#fb923c");
  bg.addColorStop(0.55, "#f43f5e");
  bg.addColorStop(1, "#9f1239");
  g.fillStyle = bg;
  g.fillRect(0, 0, WIDTH, HEIGHT);

  // soft circles of light
  for (const [x, y, r, a] of [[520, 30, 120, 0.16], [80, 190, 90, 0.12], [330, -40, 70, 0.1]]) {
    g.fillStyle = `rgba(255,255,255,${a})`;
    g.beginPath();
    g.arc(x, y, r, 0, Math.PI * 2);
    g.fill();
  }

  // the quotation mark
  g.fillStyle = "rgba(255,255,255,.92)";
  g.font = `bold 210px ${SERIF}`;
  g.textBaseline = "alphabetic";
  g.fillText("\u201C", 34, 218);

  // the label
  g.fillStyle = "#ffffff";
  g.textAlign = "right";
  g.font = `700 22px ${SANS}`;
  spaced(g, label, WIDTH - 40, line ? 92 : 112, 3);
  if (line) {
    g.font = `italic 30px ${SERIF}`;
    g.fillStyle = "rgba(255,255,255,.9)";
    g.fillText(line, WIDTH - 40, 138);
  }
  return canvas;
}

/** Right-aligned text with letter spacing (canvas letterSpacing is not everywhere yet). */
function spaced(g, text, right, y, spacing) {
  const widths = [...text].map((ch) => g.measureText(ch).width);
  const total = widths.reduce((a, b) => a + b, 0) + spacing * (text.length - 1);
  let x = right - total;
  g.textAlign = "left";
  [...text].forEach((ch, i) => {
    g.fillText(ch, x, y);
    x += widths[i] + spacing;
  });
  g.textAlign = "right";
}
