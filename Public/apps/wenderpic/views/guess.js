// The guesser's view (the seed's GuessViewController): the drawing, played
// back stroke by stroke, the guesses so far, and a box for a guess.

import { h } from "../dom.js";
import { Board } from "./board.js";
import { guessList, notice } from "./parts.js";
import { MAX_GUESS_LENGTH } from "../game.js";

/**
 * @param {object} props
 * @param {object} props.game
 * @param {string} props.me
 * @param {string | null} props.notice
 * @param {string} props.draft the guess typed so far (kept across views)
 * @param {(text: string) => void} props.onDraft
 * @param {(text: string) => void} props.onGuess
 * @param {boolean} [props.replay]
 */
export function guessView({ game, me, notice: text, draft, onDraft, onGuess, replay = true }) {
  const board = new Board({ rounds: game.rounds, label: "A drawing to guess" });
  if (replay) board.replay();
  const input = h("input", {
    id: "guess-input", type: "text", placeholder: "What is it?", maxLength: MAX_GUESS_LENGTH, value: draft || "",
    autocomplete: "off", autocapitalize: "none", spellcheck: "false", "aria-label": "Your guess", enterKeyHint: "send",
  });
  const button = h("button", { type: "button", class: "primary", id: "guess-button" }, "Guess");
  const submit = () => {
    const value = input.value.trim();
    if (value) onGuess(value);
  };
  const sync = () => {
    button.disabled = input.value.trim() === "";
    onDraft(input.value);
  };
  input.addEventListener("input", sync);
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      submit();
    }
  });
  button.addEventListener("click", submit);
  button.disabled = input.value.trim() === "";
  const rounds = game.rounds.length;
  return h("section", { class: "play guessing" },
    h("div", { class: "sheet" }, board.el),
    h("div", { class: "side" },
      h("h1", null, "What's this WenderPic?"),
      h("p", { class: "lead" }, rounds > 1 ? `The artist has added ink ${rounds - 1} time${rounds > 2 ? "s" : ""}; new lines are in a new colour.` : "Guess the word. A wrong guess gives the artist more ink."),
      notice(text),
      guessList(game, me),
      h("div", { class: "guess-row" }, input, button)));
}
