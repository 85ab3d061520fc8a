// The paper: a square canvas that shows the drawing, sharp at any size, and
// (for the artist) takes strokes from a mouse, a pen or a finger through
// pointer events, or from the keyboard: arrow keys move a pen drawn on the
// paper, Space puts it down or lifts it. Both make strokes the same way.

import { h } from "../dom.js";
import { drawPicture, pointCount } from "../render.js";
import { GRID, LINE_WIDTH, startStroke, extendStroke, strokesInk } from "../strokes.js";

/** How far an arrow key moves the pen, in grid units (a sixteenth of the paper; with Shift, a quarter). */
const PEN_STEP = 64;
const PEN_BIG_STEP = 256;
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
/** The keyboard's stroke, told apart from a pointer's (whose ids are numbers). */
const KEYBOARD = "keyboard";
export const KEYBOARD_LABEL = "Drawing canvas: arrow keys move the pen, Shift with an arrow moves it further, Space puts it down or lifts it";

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
    const g = this.canvas.getContext("2d");
    drawPicture(g, this.size, this.rounds, { draft: this.draft, points: this.points });
    if (this.pen && this.pen.shown) drawPen(g, this.size, this.pen);
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
    let active = null; // {id, stroke}: a pointer's id, or KEYBOARD
    const at = (e) => {
      const r = this.canvas.getBoundingClientRect();
      return [((e.clientX - r.left) / r.width) * GRID, ((e.clientY - r.top) / r.height) * GRID];
    };
    const finish = () => {
      if (!active) return;
      const last = active.stroke[active.stroke.length - 1];
      this.pen.x = last[0];
      this.pen.y = last[1];
      active = null;
      this.penState();
      onStroke();
    };
    /** A stroke begins at (x, y): false when there is no ink, or no room in the message, for it. */
    const begin = (id, x, y) => {
      const stroke = startStroke(x, y, inkLeft());
      if (!stroke) {
        onEmpty();
        return false;
      }
      this.draft.push(stroke);
      if (!fits(this.draft)) {
        this.draft.pop();
        onEmpty();
        return false;
      }
      active = { id, stroke };
      return true;
    };
    /** The stroke goes on through `points`, until the ink or the room runs out (then it ends). */
    const extend = (points) => {
      let dry = false;
      for (const [x, y] of points) {
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
    };
    this.canvas.addEventListener("pointerdown", (e) => {
      if (active?.id === KEYBOARD) finish();
      if (active || (e.pointerType === "mouse" && e.button !== 0)) return;
      e.preventDefault();
      const [x, y] = at(e);
      if (!begin(e.pointerId, x, y)) return;
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
      extend((events.length ? events : [e]).map(at));
    });
    for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) {
      this.canvas.addEventListener(type, (e) => {
        if (active && e.pointerId === active.id) finish();
      });
    }

    // The keyboard: a pen that starts in the middle of the paper, shown while the paper has the focus.
    this.pen = { x: GRID / 2, y: GRID / 2, down: false, shown: false };
    this.penText = h("span", { class: "visually-hidden", id: "pen-state" });
    this.el.append(this.penText);
    Object.assign(this.canvas, { tabIndex: 0, id: "paper" });
    this.canvas.setAttribute("role", "application");
    this.canvas.setAttribute("aria-label", KEYBOARD_LABEL);
    this.canvas.setAttribute("aria-describedby", "pen-state");
    this.penDown = () => active?.id === KEYBOARD;
    this.canvas.addEventListener("keydown", (e) => {
      const arrow = ARROWS[e.key];
      if (arrow && !e.altKey && !e.ctrlKey && !e.metaKey) {
        e.preventDefault(); // the page does not scroll
        const step = e.shiftKey ? PEN_BIG_STEP : PEN_STEP;
        const clamp = (v) => Math.max(0, Math.min(GRID - 1, v));
        const to = [clamp(this.pen.x + arrow[0] * step), clamp(this.pen.y + arrow[1] * step)];
        if (active?.id === KEYBOARD) {
          extend([to]);
          // the pen stays at the stroke's end, where the ink ran out if it did
          const last = active ? active.stroke[active.stroke.length - 1] : null;
          [this.pen.x, this.pen.y] = last ?? [this.pen.x, this.pen.y];
        } else if (!active) {
          [this.pen.x, this.pen.y] = to;
        }
        this.schedule();
      } else if (e.key === " " || e.key === "Enter") {
        e.preventDefault();
        if (e.repeat) return;
        if (active?.id === KEYBOARD) finish();
        else if (!active && begin(KEYBOARD, this.pen.x, this.pen.y)) {
          this.penState();
          onInk();
          this.schedule();
        }
      } else if (e.key === "Escape" && active?.id === KEYBOARD) {
        e.preventDefault(); // lifts the pen; the next Escape closes the pane as usual
        finish();
      }
    });
    this.canvas.addEventListener("focus", () => {
      this.pen.shown = true;
      this.penState();
      this.schedule();
    });
    this.canvas.addEventListener("blur", () => {
      this.pen.shown = false;
      if (active?.id === KEYBOARD) finish();
      this.schedule();
    });
  }

  /** Says where the keyboard's pen is (for screen readers; the paper shows it). */
  penState() {
    if (!this.penText) return;
    this.pen.down = this.penDown();
    this.penText.textContent = this.pen.down ? "Pen down: arrow keys draw." : "Pen up.";
    this.schedule();
  }

  /** Ink the draft uses. */
  draftInk() {
    return this.draft ? strokesInk(this.draft) : 0;
  }
}

/** The keyboard's pen: a ring where it is, filled while it is down. Light and dark edges show on paper and ink. */
function drawPen(g, size, pen) {
  const k = size / GRID;
  const x = pen.x * k;
  const y = pen.y * k;
  const r = Math.max(6, LINE_WIDTH * 1.2 * k);
  g.save();
  g.lineWidth = Math.max(2, 3 * k * 2);
  for (const [colour, width] of [["#ffffff", g.lineWidth + 3], ["#5b5cf6", g.lineWidth]]) {
    g.strokeStyle = colour;
    g.lineWidth = width;
    g.beginPath();
    g.arc(x, y, r, 0, Math.PI * 2);
    for (const [dx, dy] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
      g.moveTo(x + dx * r * 1.4, y + dy * r * 1.4);
      g.lineTo(x + dx * r * 2.2, y + dy * r * 2.2);
    }
    g.stroke();
  }
  if (pen.down) {
    g.fillStyle = "#5b5cf6";
    g.beginPath();
    g.arc(x, y, r * 0.55, 0, Math.PI * 2);
    g.fill();
  }
  g.restore();
}
