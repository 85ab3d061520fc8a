// The paper: a square canvas that shows the drawing, sharp at any size, and
// (for the artist) takes strokes from a mouse, a pen or a finger through
// pointer events.

import { h } from "../dom.js";
import { drawPicture, pointCount } from "../render.js";
import { GRID, startStroke, extendStroke, strokesInk } from "../strokes.js";

export class Board {
  /**
   * @param {object} opts
   * @param {number[][][][]} opts.rounds what is drawn already
   * @param {number[][][]} [opts.draft] the round being drawn (kept by the caller, changed in place)
   * @param {string} opts.label what the picture is, for screen readers
   */
  constructor({ rounds, draft = null, label }) {
    this.rounds = rounds;
    this.draft = draft;
    this.points = Infinity;
    this.canvas = h("canvas", { class: "board-canvas", role: "img", "aria-label": label });
    this.el = h("div", { class: "board" }, this.canvas);
    this.size = 0;
    this.resize = new ResizeObserver(() => this.fit());
    this.resize.observe(this.canvas);
    this.frame = 0;
  }

  fit() {
    const ratio = Math.min(3, globalThis.devicePixelRatio || 1);
    const size = Math.round(this.canvas.clientWidth * ratio);
    if (size > 0 && size !== this.size) {
      this.size = size;
      this.canvas.width = size;
      this.canvas.height = size;
      this.draw();
    }
  }

  draw() {
    if (!this.size) return;
    drawPicture(this.canvas.getContext("2d"), this.size, this.rounds, { draft: this.draft, points: this.points });
  }

  /** Redraws on the next frame (coalesces many pointer moves). */
  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  setRounds(rounds) {
    this.rounds = rounds;
    this.schedule();
  }

  /** Plays the drawing back, stroke by stroke, in about `ms`. */
  replay(ms = 1400) {
    const total = pointCount(this.rounds);
    if (total === 0 || globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
    const started = performance.now();
    const tick = (now) => {
      const t = Math.min(1, (now - started) / ms);
      this.points = t >= 1 ? Infinity : Math.ceil(total * t);
      this.draw();
      if (t < 1) requestAnimationFrame(tick);
    };
    this.points = 0;
    requestAnimationFrame(tick);
  }

  /**
   * Lets the artist draw into `this.draft`.
   * @param {object} opts
   * @param {() => number} opts.inkLeft ink still available for the draft
   * @param {(strokes: number[][][]) => boolean} opts.fits false when the URL would overflow
   * @param {() => void} opts.onInk called as ink is used (the gauge drains)
   * @param {() => void} opts.onEmpty called when the pen runs dry
   * @param {() => void} opts.onStroke called when a stroke is finished
   */
  enableDrawing({ inkLeft, fits, onInk, onEmpty, onStroke }) {
    this.el.classList.add("drawable");
    let active = null; // {id, stroke}
    const at = (e) => {
      const r = this.canvas.getBoundingClientRect();
      return [((e.clientX - r.left) / r.width) * GRID, ((e.clientY - r.top) / r.height) * GRID];
    };
    const finish = () => {
      if (!active) return;
      active = null;
      onStroke();
    };
    this.canvas.addEventListener("pointerdown", (e) => {
      if (active || (e.pointerType === "mouse" && e.button !== 0)) return;
      e.preventDefault();
      const [x, y] = at(e);
      const stroke = startStroke(x, y, inkLeft());
      if (!stroke) {
        onEmpty();
        return;
      }
      this.draft.push(stroke);
      if (!fits(this.draft)) {
        this.draft.pop();
        onEmpty();
        return;
      }
      active = { id: e.pointerId, stroke };
      try {
        this.canvas.setPointerCapture(e.pointerId);
      } catch {
        // capture is a nicety; drawing works without it
      }
      onInk();
      this.schedule();
    });
    this.canvas.addEventListener("pointermove", (e) => {
      if (!active || e.pointerId !== active.id) return;
      const events = typeof e.getCoalescedEvents === "function" ? e.getCoalescedEvents() : [];
      let dry = false;
      for (const ev of events.length ? events : [e]) {
        const [x, y] = at(ev);
        const before = active.stroke.length;
        const { out } = extendStroke(active.stroke, x, y, inkLeft());
        if (!fits(this.draft)) {
          active.stroke.length = before;
          dry = true;
          break;
        }
        if (out) {
          dry = true;
          break;
        }
      }
      onInk();
      this.schedule();
      if (dry) {
        finish();
        onEmpty();
      }
    });
    for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) {
      this.canvas.addEventListener(type, (e) => {
        if (active && e.pointerId === active.id) finish();
      });
    }
  }

  /** Ink the draft uses. */
  draftInk() {
    return this.draft ? strokesInk(this.draft) : 0;
  }
}
