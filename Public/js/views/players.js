// Who is playing right now: the faces of the others who have a session open in
// their expanded pane, on that session's current bubble. Drawn over the rows
// the transcript view made (a row carries its session in data-session).

import { h } from "./dom.js";
import { avatar } from "./sidebar.js";
import { othersPlaying } from "../state/playing.js";

const listOf = (names) => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);

/**
 * @param {HTMLElement} transcriptEl
 * @param {Record<string, string[]> | undefined} held this conversation's players, by session
 * @param {string} selfId
 * @param {(userId: string) => string} nameOf
 */
export function renderPlayers(transcriptEl, held, selfId, nameOf) {
  for (const row of transcriptEl.querySelectorAll(".row[data-session]:not(.pending)")) {
    const users = othersPlaying(held, row.dataset.session, selfId);
    const old = row.querySelector(":scope > .players");
    const key = users.join(",");
    if (old && old.dataset.users === key) continue;
    old?.remove();
    if (!users.length) continue;
    const names = users.map(nameOf);
    // neutral for a game and a list alike
    const label = `${listOf(names)} ${names.length === 1 ? "has" : "have"} it open now`;
    const faces = h("div", { class: "players", role: "status", "aria-label": label, title: label, dataset: { users: key } },
      ...users.slice(0, 4).map((u, i) => avatar(names[i], u, { small: true })),
      h("span", { class: "players-text", "aria-hidden": "true" }, names.length <= 2 ? `${listOf(names)} ${names.length === 1 ? "has" : "have"} it open` : `${names.length} people have it open`));
    const bubble = row.querySelector(":scope > .bubble");
    if (bubble) bubble.after(faces);
    else row.append(faces);
  }
}
