// Small pieces the WenderPic views share: the guesses so far, the ink gauge,
// a notice, and the compact view's status line.

import { h } from "../dom.js";
import { isRight } from "../game.js";

const same = (a, b) => typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();

/** The guesses so far, as 👍 / 👎 chips, newest last. */
export function guessList(game, me) {
  if (game.guesses.length === 0) return null;
  return h("ol", { class: "guesses", "aria-label": "Guesses so far" },
    game.guesses.map((g) => {
      const right = isRight(game.word, g.text);
      return h("li", { class: ["guess", right ? "right" : "wrong"] },
        h("span", { "aria-hidden": "true" }, right ? "👍" : "👎"),
        h("span", { class: "guess-text" }, g.text),
        same(g.by, me) ? h("span", { class: "guess-who" }, "you") : null);
    }));
}

/** Something that changed under the user (a friend's move). */
export function notice(text) {
  return text ? h("p", { class: "notice", role: "alert", id: "notice" }, text) : null;
}

/** The ink gauge: a pen and a bar that drains as the artist draws. */
export class InkGauge {
  constructor() {
    this.fill = h("span", { class: "ink-fill" });
    this.label = h("span", { class: "ink-label" });
    this.bar = h("span", { class: "ink-bar" }, this.fill);
    this.el = h("div", { class: "ink", role: "meter", "aria-label": "Ink left", "aria-valuemin": "0", "aria-valuemax": "100", id: "ink" },
      h("span", { class: "ink-icon", "aria-hidden": "true" }, inkIcon()),
      this.bar,
      this.label);
  }

  /** @param {number} left ink left @param {number} capacity ink this round started with */
  set(left, capacity) {
    const pct = capacity > 0 ? Math.max(0, Math.min(100, Math.round((left / capacity) * 100))) : 0;
    this.fill.style.width = `${pct}%`;
    this.label.textContent = pct === 0 ? "Out of ink" : `${pct}%`;
    this.el.setAttribute("aria-valuenow", String(pct));
    this.el.dataset.level = pct === 0 ? "empty" : pct < 20 ? "low" : "ok";
  }

  /** A shake when the pen runs dry. */
  flash() {
    this.el.classList.remove("flash");
    void this.el.offsetWidth;
    this.el.classList.add("flash");
  }
}

function inkIcon() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "22");
  svg.setAttribute("height", "22");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M12 2.5c-.4 0-.7.2-.9.5C9.4 5.6 6 10.4 6 14a6 6 0 0 0 12 0c0-3.6-3.4-8.4-5.1-11-.2-.3-.5-.5-.9-.5z");
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

/**
 * What the compact view says the app is waiting for.
 * @param {{kind: string, text: string, action?: string} | null} status
 * @param {() => void} onAction
 */
export function statusBanner(status, onAction) {
  if (!status) return null;
  const icon = { staged: "👆", sent: "✅", turn: "🎨", stale: "⏩", error: "⚠️" }[status.kind] || "ℹ️";
  return h("div", { class: ["status", `status-${status.kind}`], id: "status", role: status.kind === "stale" || status.kind === "error" ? "alert" : "status" },
    h("span", { class: "status-icon", "aria-hidden": "true" }, icon),
    h("span", { class: "status-text" }, status.text),
    status.action ? h("button", { type: "button", class: "status-action", onclick: onAction }, status.action) : null);
}
