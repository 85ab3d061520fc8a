// A picture that takes the place of another in the transcript (a game's next move
// in its session's bubble, one's own picture once stored) shows the one before until
// it has come, instead of an empty box for a round trip and a download: on a phone
// the drawing changes, it does not blink. The stand-in is a copy of the earlier
// picture's pixels (a canvas), so the row it came from keeps its own picture, and an
// object URL revoked once its message was sent is not needed again.

import { h } from "./dom.js";

/** Slots remembered: a conversation's worth of games at once. */
const SLOTS = 64;
/** Largest side of a stand-in's copy. */
const STAND_IN_SIDE = 1024;

/** slot → { img, seq }: the picture loaded there last (seq undefined: still sending) */
const last = new Map();

/** Whether a message with `seq` may stand on the picture of one with `before` (older or same: not). */
function later(seq, before) {
  return seq === undefined || before === undefined || seq > before;
}

function remember(slot, img, seq) {
  const known = last.get(slot);
  if (known && seq !== undefined && known.seq !== undefined && seq < known.seq) return; // an older page loaded late
  last.delete(slot);
  last.set(slot, { img, seq });
  if (last.size > SLOTS) last.delete(last.keys().next().value);
}

function copyOf(img, attrs) {
  const scale = Math.min(1, STAND_IN_SIDE / img.naturalWidth, STAND_IN_SIDE / img.naturalHeight);
  const canvas = h("canvas", {
    class: "stand-in", role: "img", "aria-label": attrs.alt || "",
    width: Math.max(1, Math.round(img.naturalWidth * scale)), height: Math.max(1, Math.round(img.naturalHeight * scale)),
  });
  try {
    canvas.getContext("2d").drawImage(img, 0, 0, canvas.width, canvas.height);
  } catch {
    return null;
  }
  return canvas;
}

/**
 * An <img> for a transcript row, or while a newer picture of `slot` is on its way,
 * a copy of the slot's last one that gives way to it once decoded.
 * @param {string | null} slot  what the picture is of over its updates: a session, or a message being sent
 * @param {number | undefined} seq  the message's (undefined: still sending)
 * @param {Record<string, unknown>} attrs  the <img>'s
 * @param {Record<string, string>} [style]  set on both (a stored picture's box)
 * @returns {HTMLElement}
 */
export function steadyPicture(slot, seq, attrs, style = {}) {
  const standIn = slot ? standInFor(slot, seq, attrs) : null;
  // one that waits behind a stand-in loads now (a lazy one would wait to be in the page)
  const img = h("img", standIn ? { ...attrs, loading: "eager" } : attrs);
  Object.assign(img.style, style);
  if (!slot) return img;
  img.addEventListener("load", () => remember(slot, img, seq));
  if (!standIn) return img;
  Object.assign(standIn.style, style);
  const show = () => standIn.replaceWith(img);
  img.decode().then(show, show);
  return standIn;
}

/** A copy of the slot's last picture, when a later one than it is not here yet. */
function standInFor(slot, seq, attrs) {
  const before = last.get(slot);
  if (!before || before.img.getAttribute("src") === attrs.src || !later(seq, before.seq)) return null;
  if (!before.img.complete || !before.img.naturalWidth) return null;
  const probe = new Image();
  probe.src = String(attrs.src);
  if (probe.complete && probe.naturalWidth) return null; // already here: nothing to wait for
  return copyOf(before.img, attrs);
}
