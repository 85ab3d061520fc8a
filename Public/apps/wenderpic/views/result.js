// The end of a game (guessed, or out of guesses), and the artist's wait when
// the ink is gone.

import { h } from "../dom.js";
import { Board } from "./board.js";
import { guessList, notice } from "./parts.js";
import { winningGuess, isArtist } from "../game.js";

const same = (a, b) => typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();

/**
 * @param {object} props
 * @param {object} props.game
 * @param {string} props.me
 * @param {string | null} props.notice
 * @param {() => void} props.onNewGame
 */
export function overView({ game, me, notice: text, onNewGame }) {
  const board = new Board({ rounds: game.rounds, label: `A drawing of ${game.word}` });
  const win = winningGuess(game);
  let title;
  if (!win) title = "Nobody got it!";
  else if (same(win.by, me)) title = "You got it! 🎉";
  else if (isArtist(game, me)) title = "They guessed it! 🎉";
  else title = "Guessed! 🎉";
  return h("section", { class: ["play", "over", win ? "solved" : "unsolved"] },
    h("div", { class: "sheet" }, board.el),
    h("div", { class: "side" },
      h("h1", { id: "result-title" }, title),
      h("p", { class: "answer" }, "The word was ", h("strong", { id: "answer" }, game.word)),
      notice(text),
      guessList(game, me),
      h("div", { class: "toolbar" }, h("button", { type: "button", class: "primary", id: "new-game", onclick: onNewGame }, "New Game"))));
}

/** The artist with no ink left, waiting for a guess. */
export function waitView({ game, me, notice: text }) {
  const board = new Board({ rounds: game.rounds, label: `Your drawing of ${game.word}` });
  const artist = isArtist(game, me);
  return h("section", { class: "play waiting" },
    h("div", { class: "sheet" }, board.el),
    h("div", { class: "side" },
      h("h1", null, artist ? "Waiting for a guess…" : "Waiting for the artist…"),
      artist ? h("div", { class: "word-card" }, h("span", { class: "word-label" }, "You drew"), h("strong", { class: "word", id: "word" }, game.word)) : null,
      h("p", { class: "lead", id: "wait-text" }, artist ? "Your pen is dry. Every wrong guess refills it a little." : "Nothing has been drawn yet."),
      notice(text),
      guessList(game, me)));
}
