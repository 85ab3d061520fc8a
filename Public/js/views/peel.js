// Peel and stick: a staged sticker carried onto a bubble. By pointer (a mouse
// drags it; a finger long-presses it, then drags), or by keyboard (Enter on the
// sticker; the arrow keys move it over the newest bubble, Page Up/Down pick
// another bubble, Enter sticks it, Escape puts it back). Pointer events, not
// HTML5 drag and drop, which neither touch screens nor keyboards have.

import { h } from "./dom.js";

const LONG_PRESS_MS = 400; // a touch peels after this; moving first is a scroll or a slip
const SLIP_PX = 10;
const DRAG_PX = 5;         // a mouse peels once it moves this far with the button down
const STEP = 0.1;          // one arrow key, as a fraction of the bubble

const clamp = (v) => Math.min(1, Math.max(0, v));

export class StickerPeel {
  /**
   * @param {object} opts
   * @param {HTMLElement} opts.transcript the transcript element holding the rows
   * @param {(key: string, seq: number, x: number, y: number) => void} opts.onStick
   * @param {(text: string) => void} opts.announce
   */
  constructor({ transcript, onStick, announce }) {
    Object.assign(this, { transcript, onStick, announce });
    this.ghost = null;
    this.target = null;
  }

  /** Makes a staged sticker's element peelable. */
  attach(el, key, src, description) {
    el.tabIndex = 0;
    el.setAttribute("aria-roledescription", "sticker");
    el.setAttribute("aria-keyshortcuts", "Enter");
    el.title = "Drag onto a message to stick it there (touch: press and hold; keyboard: Enter)";
    el.addEventListener("pointerdown", (e) => this.pointerDown(e, el, key, src));
    el.addEventListener("keydown", (e) => this.keyDown(e, el, key, src, description));
    el.addEventListener("blur", () => this.keyboard && this.keyboard.el === el && this.cancel());
  }

  // ---- pointer ------------------------------------------------------------------

  pointerDown(e, el, key, src) {
    if (e.button !== 0 || e.target.closest("button")) return;
    const start = { x: e.clientX, y: e.clientY };
    const touch = e.pointerType !== "mouse";
    let peeled = false;
    let timer = 0;
    const peel = (x, y) => {
      peeled = true;
      el.classList.add("peeled");
      this.showGhost(src, x, y);
      this.aim(x, y);
    };
    const move = (ev) => {
      if (peeled) {
        ev.preventDefault();
        this.moveGhost(ev.clientX, ev.clientY);
        this.aim(ev.clientX, ev.clientY);
        return;
      }
      const far = Math.hypot(ev.clientX - start.x, ev.clientY - start.y);
      if (touch && far > SLIP_PX) end();
      else if (!touch && far > DRAG_PX) peel(ev.clientX, ev.clientY);
    };
    const up = (ev) => {
      if (peeled) {
        this.aim(ev.clientX, ev.clientY);
        this.drop(key, ev.clientX, ev.clientY);
      }
      end();
    };
    const end = () => {
      clearTimeout(timer);
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", end);
      if (el.hasPointerCapture(e.pointerId)) el.releasePointerCapture(e.pointerId);
      el.classList.remove("peeled");
      this.cleanup();
    };
    el.setPointerCapture(e.pointerId); // the moves keep coming to the chip wherever the pointer goes
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", end);
    if (touch) timer = setTimeout(() => peel(start.x, start.y), LONG_PRESS_MS);
  }

  /** The bubble under a point, highlighted as the drop target. */
  aim(x, y) {
    const hit = document.elementFromPoint(x, y);
    const row = hit && this.transcript.contains(hit) ? hit.closest(".row[data-seq]") : null;
    this.setTarget(row ? row.querySelector(".bubble") : null);
  }

  drop(key, x, y) {
    const bubble = this.target;
    if (!bubble) return;
    const r = bubble.getBoundingClientRect();
    this.onStick(key, Number(bubble.closest(".row").dataset.seq), clamp((x - r.left) / r.width), clamp((y - r.top) / r.height));
  }

  // ---- keyboard -----------------------------------------------------------------

  keyDown(e, el, key, src, description) {
    const k = this.keyboard;
    if (!k) {
      if (e.key !== "Enter" && e.key !== " ") return;
      const bubbles = this.bubbles();
      e.preventDefault();
      if (!bubbles.length) {
        this.announce("There is no message to stick it on yet.");
        return;
      }
      this.keyboard = { el, key, index: bubbles.length - 1, x: 0.5, y: 0.5 };
      this.showGhost(src, 0, 0);
      this.place();
      this.announce(`Sticking ${description ? `“${description}”` : "the sticker"}: arrow keys move it, Page Up and Page Down pick another message, Enter sticks it, Escape puts it back.`);
      return;
    }
    const moves = { ArrowLeft: [-STEP, 0], ArrowRight: [STEP, 0], ArrowUp: [0, -STEP], ArrowDown: [0, STEP] };
    if (moves[e.key]) {
      k.x = clamp(k.x + moves[e.key][0]);
      k.y = clamp(k.y + moves[e.key][1]);
    } else if (e.key === "PageUp" || e.key === "PageDown") {
      const n = this.bubbles().length;
      k.index = Math.min(n - 1, Math.max(0, k.index + (e.key === "PageUp" ? -1 : 1)));
    } else if (e.key === "Enter" || e.key === " ") {
      const bubble = this.target;
      const seq = bubble && Number(bubble.closest(".row").dataset.seq);
      const { x, y } = k;
      this.cancel();
      if (bubble) this.onStick(key, seq, x, y);
    } else if (e.key === "Escape") {
      this.cancel();
      this.announce("The sticker is back in the message box.");
    } else if (e.key !== "Tab") {
      return;
    }
    if (e.key !== "Tab") {
      e.preventDefault();
      e.stopPropagation(); // Escape here is the sticker's, not the app pane's
    }
    if (this.keyboard) this.place();
  }

  bubbles() {
    return [...this.transcript.querySelectorAll(".row[data-seq]")].map((row) => row.querySelector(".bubble")).filter(Boolean);
  }

  /** Draws the keyboard sticker where it is, on the bubble it is over. */
  place() {
    const k = this.keyboard;
    const bubble = this.bubbles()[k.index];
    if (!bubble) return this.cancel();
    bubble.scrollIntoView({ block: "nearest" });
    this.setTarget(bubble);
    const r = bubble.getBoundingClientRect();
    this.moveGhost(r.left + k.x * r.width, r.top + k.y * r.height);
  }

  cancel() {
    this.keyboard = null;
    this.cleanup();
  }

  // ---- drawing ------------------------------------------------------------------

  showGhost(src, x, y) {
    this.ghost?.remove();
    this.ghost = h("img", { class: "sticker-ghost", src, alt: "", "aria-hidden": "true" });
    document.body.append(this.ghost);
    this.moveGhost(x, y);
  }

  moveGhost(x, y) {
    if (this.ghost) this.ghost.style.translate = `${x}px ${y}px`;
  }

  setTarget(bubble) {
    if (this.target === bubble) return;
    this.target?.classList.remove("drop-target");
    this.target = bubble;
    bubble?.classList.add("drop-target");
  }

  cleanup() {
    this.ghost?.remove();
    this.ghost = null;
    this.setTarget(null);
  }
}
