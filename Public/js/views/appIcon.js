// An app's icon; if its file is missing or broken (an author's mistake), the app's
// initial on a tile instead of the browser's broken-image mark.

import { h } from "./dom.js";

/**
 * @param {{icon: string, name: string}} app
 * @param {string} [size] "small" or "large"
 */
export function appIcon(app, size = "") {
  const cls = ["app-icon", size].filter(Boolean).join(" ");
  const tile = () => h("span", { class: `${cls} fallback`, "aria-hidden": "true" }, [...(app.name || "?").trim()][0]?.toUpperCase() || "?");
  // once missing, not asked for again at every drawing (dozens of 404s; an app author's review)
  if (MISSING.has(app.icon)) return tile();
  const img = h("img", { class: cls, src: app.icon, alt: "" });
  img.addEventListener("error", () => {
    MISSING.add(app.icon);
    img.replaceWith(tile());
  }, { once: true });
  return img;
}

/** Icons that failed to load in this page. */
const MISSING = new Set();
