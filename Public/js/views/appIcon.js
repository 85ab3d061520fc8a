// An app's icon; if its file is missing or broken (an author's mistake), the app's
// initial on a tile instead of the browser's broken-image mark.

import { h } from "./dom.js";

/**
 * @param {{icon: string, name: string}} app
 * @param {string} [size] "small" or "large"
 */
export function appIcon(app, size = "") {
  const cls = ["app-icon", size].filter(Boolean).join(" ");
  const img = h("img", { class: cls, src: app.icon, alt: "" });
  img.addEventListener("error", () => {
    const letter = [...(app.name || "?").trim()][0]?.toUpperCase() || "?";
    img.replaceWith(h("span", { class: `${cls} fallback`, "aria-hidden": "true" }, letter));
  }, { once: true });
  return img;
}
