// The compact view (the seed's SummaryViewController): the game's title and
// New Game, plus a line about what the app is waiting for.

import { h } from "../dom.js";
import { statusBanner } from "./parts.js";

/**
 * @param {object} props
 * @param {object | null} props.status
 * @param {() => void} props.onNewGame
 * @param {() => void} props.onStatusAction
 */
export function summaryView({ status, onNewGame, onStatusAction }) {
  return h("section", { class: "summary" },
    h("div", { class: "hero", "aria-hidden": "true" },
      h("span", { class: "scribble s1" }), h("span", { class: "scribble s2" }), h("span", { class: "scribble s3" }),
      h("img", { src: "icon.svg", alt: "", class: "hero-icon" })),
    h("div", { class: "summary-text" },
      h("h1", null, "WenderPic"),
      h("p", null, "Draw a secret word with a little ink. Your friends guess; every wrong guess refills your pen."),
      statusBanner(status, onStatusAction),
      h("button", { type: "button", class: "primary big", id: "new-game", onclick: onNewGame }, "New Game")));
}
