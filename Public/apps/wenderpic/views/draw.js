// The artist's view (the seed's DrawingViewController): the word, the ink
// gauge, the paper, the guesses so far, and Done. Ink drains as they draw;
// when it is gone the pen stops.

import { h } from "../dom.js";
import { Board } from "./board.js";
import { InkGauge, guessList, notice } from "./parts.js";
import { strokesInk } from "../strokes.js";

export class DrawingView {
  /**
   * @param {object} props
   * @param {object} props.game the game as sent so far (maybe nothing drawn yet)
   * @param {string} props.me
   * @param {number[][][]} props.draft the round being drawn, kept by the caller
   * @param {number} props.available ink for this round
   * @param {(strokes: number[][][]) => boolean} props.fits
   * @param {string | null} props.notice
   * @param {string | null} [props.bonus] why there is new ink ("👎 dog")
   * @param {boolean} props.canChangeWord
   * @param {() => void} props.onChangeWord
   * @param {() => void} props.onChange the draft changed
   * @param {() => void} props.onDone
   */
  constructor(props) {
    this.props = props;
    const { game, me, draft } = props;
    this.gauge = new InkGauge();
    this.board = new Board({ rounds: game.rounds, draft, label: `Your drawing of ${game.word}` });
    this.undo = h("button", { type: "button", class: "secondary", id: "undo", onclick: () => this.undoStroke() }, "↶ Undo");
    this.done = h("button", { type: "button", class: "primary", id: "done", onclick: () => props.onDone() }, "Done");
    this.hint = h("p", { class: "hint", id: "hint" });
    this.guesses = h("div", { class: "guesses-slot" }, guessList(game, me));
    this.noticeSlot = h("div", { class: "notice-slot" }, notice(props.notice));
    this.bonusSlot = h("div", { class: "bonus-slot" }, bonusLine(props.bonus));
    this.change = props.canChangeWord
      ? h("button", { type: "button", class: "link", id: "change-word", onclick: props.onChangeWord }, "Another word")
      : null;
    this.el = h("section", { class: "play drawing" },
      h("div", { class: "sheet" }, this.board.el),
      h("div", { class: "side" },
        h("h1", { class: "visually-hidden" }, "Draw your WenderPic"),
        h("div", { class: "word-card" },
          h("span", { class: "word-label" }, game.rounds.length ? "You are drawing" : "Draw this"),
          h("strong", { class: "word", id: "word" }, game.word),
          this.change),
        this.gauge.el,
        this.bonusSlot,
        this.noticeSlot,
        this.hint,
        this.guesses,
        h("div", { class: "toolbar" }, this.undo, this.done)));
    this.board.enableDrawing({
      inkLeft: () => this.left(),
      fits: props.fits,
      onInk: () => this.refresh(),
      onEmpty: () => {
        this.gauge.flash();
        this.refresh(true);
      },
      onStroke: () => {
        this.refresh();
        props.onChange();
      },
    });
    this.refresh();
  }

  left() {
    return Math.max(0, this.props.available - strokesInk(this.props.draft));
  }

  refresh(dry = false) {
    const { draft, available } = this.props;
    this.gauge.set(this.left(), available);
    this.undo.disabled = draft.length === 0;
    if (this.change) this.change.hidden = draft.length > 0;
    this.done.disabled = draft.length === 0;
    const empty = this.left() <= 0 || dry;
    this.hint.textContent = draft.length === 0
      ? (this.props.game.rounds.length ? "Add to your drawing with the ink you have, then press Done." : "Draw with your finger or mouse, or on the keyboard: arrow keys move the pen, Space puts it down or lifts it. Ink is limited — make every line count!")
      : empty ? "Out of ink! Press Done to send your drawing." : "Press Done when you're happy with it.";
    this.el.classList.toggle("dry", empty && draft.length > 0);
  }

  undoStroke() {
    const focused = document.activeElement === this.undo;
    this.props.draft.pop();
    this.board.schedule();
    this.refresh();
    this.props.onChange();
    // nothing left to undo: the button is disabled, and the focus goes back to the paper rather than to the page
    if (focused && this.undo.disabled) this.board.canvas.focus();
  }

  /**
   * The game moved on while the artist draws (a guess came in): new ink and
   * guesses, same paper and pen.
   */
  update({ game, available, notice: text, bonus }) {
    this.props = { ...this.props, game, available };
    this.board.setRounds(game.rounds);
    this.guesses.replaceChildren(guessList(game, this.props.me) || "");
    this.noticeSlot.replaceChildren(notice(text) || "");
    this.bonusSlot.replaceChildren(bonusLine(bonus) || "");
    this.refresh();
  }
}

function bonusLine(text) {
  return text ? h("p", { class: "bonus", id: "bonus" }, h("span", { "aria-hidden": "true" }, "💧 "), text) : null;
}
