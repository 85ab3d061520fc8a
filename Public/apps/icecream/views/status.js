// A one-line banner saying what the app is waiting for: the step staged in
// the message box, sent, or overtaken by someone else's step.

import { h } from "../dom.js";

/**
 * @param {{kind: "staged"|"sent"|"sticker"|"turn"|"stale"|"error", text: string, action?: string} | null} status
 * @param {() => void} [onAction]
 */
export function statusBanner(status, onAction) {
  if (!status) return null;
  const icon = { staged: "👆", sent: "✅", sticker: "👆", turn: "🍨", stale: "⏩", error: "⚠️" }[status.kind] || "ℹ️";
  return h("div", { class: ["status", `status-${status.kind}`], role: status.kind === "error" || status.kind === "stale" ? "alert" : "status", id: "status" },
    h("span", { class: "status-icon", "aria-hidden": "true" }, icon),
    h("span", { class: "status-text" }, status.text),
    status.action && onAction ? h("button", { type: "button", class: "status-action", id: "status-action", onclick: onAction }, status.action) : null);
}
