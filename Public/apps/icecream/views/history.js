// The compact view (the seed's IceCreamsViewController): an "Add" tile to
// start a new sundae, then every finished sundae as a sticker. Tapping a
// sticker puts it in the message box.

import { h } from "../dom.js";
import { paint, topOf } from "../draw.js";
import { describe } from "../sundae.js";
import { statusBanner } from "./status.js";

/**
 * @param {object} props
 * @param {{entry: object, sundae: object}[]} props.stickers newest first
 * @param {object | null} props.status what the app is waiting for (see status.js)
 * @param {() => void} props.onNew
 * @param {(item: {entry: object, sundae: object}) => void} props.onSticker
 * @param {() => void} props.onStatusAction
 */
export function historyView({ stickers, status, onNew, onSticker, onStatusAction }) {
  const add = h("button", { type: "button", class: "tile add-tile", id: "new-sundae", "aria-label": "New sundae", onclick: onNew },
    h("span", { class: "plus", "aria-hidden": "true" }, "+"),
    h("span", { class: "tile-label" }, "New sundae"));
  const tiles = stickers.map((item) => {
    const label = describe(item.sundae);
    const canvas = h("canvas", { class: "sticker-canvas", "aria-hidden": "true" });
    const tile = h("button", {
      type: "button", class: "tile sticker-tile", title: label, "aria-label": `Sticker: ${label}`,
      dataset: { id: item.entry.id },
      onclick: () => onSticker(item),
    }, canvas);
    requestAnimationFrame(() => paint(canvas, item.sundae, { top: topOf(item.sundae), fitHeight: true }));
    return h("li", null, tile);
  });
  const empty = stickers.length === 0
    ? h("li", { class: "empty-hint" }, h("p", null, "Finished sundaes land here as stickers. Tap one to send it."))
    : null;
  return h("section", { class: "history", "aria-labelledby": "history-title", dataset: { stickers: stickersKey(stickers) } },
    h("header", { class: "compact-head" },
      h("h1", { id: "history-title" }, "Your sundaes"),
      h("p", null, stickers.length ? "Tap a sticker to put it in the message box." : "Build one together, a step each.")),
    statusBanner(status, onStatusAction),
    h("ul", { class: "tiles", role: "list" }, h("li", null, add), tiles, empty));
}

/** What the tiles show: the same key, the same tiles. */
export function stickersKey(stickers) {
  return stickers.map((item) => item.entry.id).join(" ");
}

/**
 * The status line of a history view already shown, changed in place: drawn again
 * whole, the tiles under a finger were replaced, and a tap on "New sundae" made while
 * a step's answer came in ("Sent!") was lost (its press on the old tile, its release
 * on the new one).
 */
export function updateStatus(view, status, onStatusAction) {
  const next = statusBanner(status, onStatusAction);
  const old = view.querySelector("#status");
  if (old && next) old.replaceWith(next);
  else if (old) old.remove();
  else if (next) view.querySelector(".tiles").before(next);
}
