// The expanded view of a finished sundae (the seed's
// CompletedIceCreamViewController): the sundae, who made it, and what to do
// with it: send it as a sticker, or start another.

import { h } from "../dom.js";
import { paint } from "../draw.js";
import { describe } from "../sundae.js";
import { stepper } from "./builder.js";

/**
 * @param {object} props
 * @param {object} props.sundae
 * @param {string} props.me
 * @param {string | null} props.notice
 * @param {() => void} props.onSticker
 * @param {() => void} props.onNew
 */
export function finishedView({ sundae, me, notice, onSticker, onNew }) {
  const canvas = h("canvas", { class: "preview-canvas", role: "img", "aria-label": describe(sundae) });
  requestAnimationFrame(() => paint(canvas, sundae));
  const confetti = h("div", { class: "confetti", "aria-hidden": "true" },
    Array.from({ length: 14 }, (_, i) => h("i", { style: { "--i": String(i), "--d": `${-((i * 7) % 13) * 0.2}s` } })));
  return h("section", { class: "finished" },
    h("div", { class: "plate" }, confetti, canvas),
    h("div", { class: "picker" },
      stepper(sundae, me, null),
      notice ? h("p", { class: "notice", role: "alert", id: "notice" }, notice) : null,
      h("h1", { id: "finished-title" }, "Our finished ice cream"),
      h("p", { class: "lead" }, `${describe(sundae)}. It's in your stickers now.`),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "primary", id: "send-sticker", onclick: onSticker }, "Send as a sticker"),
        h("button", { type: "button", class: "secondary", id: "another", onclick: onNew }, "Build another"))));
}
