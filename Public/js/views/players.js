// Who is playing right now: the faces of the others who have a session open in
// their expanded pane, on that session's current bubble. Drawn over the rows
// the transcript view made (a row carries its session in data-session), and
// said in a polite live region when someone opens or closes one.

import { h } from "./dom.js";
import { avatar } from "./sidebar.js";
import { othersPlaying } from "../state/playing.js";

/** transcript element → {region, heard: Map(sessionId → the users last announced)} */
const announced = new WeakMap();

/**
 * The polite live region beside the transcript that says who opened or closed
 * a session (a label alone is not read when it changes): one region that
 * stays, since a region inserted with its text is not reliably read.
 */
function liveOf(transcriptEl) {
  let a = announced.get(transcriptEl);
  if (!a || !a.region.isConnected) {
    const region = h("div", { class: "visually-hidden", id: "players-live", role: "status", "aria-live": "polite" });
    transcriptEl.after(region);
    a = { region, heard: a?.heard ?? new Map() };
    announced.set(transcriptEl, a);
  }
  return a;
}

/** What changed for one session since it was last said: "Kate has Party list open.", "John closed Party list." */
export function playersNews(before, after, nameOf, app) {
  const opened = after.filter((u) => !before.includes(u)).map(nameOf);
  const closed = before.filter((u) => !after.includes(u)).map(nameOf);
  const news = [];
  if (opened.length) news.push(`${listOf(opened)} ${opened.length === 1 ? "has" : "have"} ${app} open.`);
  if (closed.length) news.push(`${listOf(closed)} closed ${app}.`);
  return news;
}

const listOf = (names) => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);

/**
 * @param {HTMLElement} transcriptEl
 * @param {Record<string, string[]> | undefined} held this conversation's players, by session
 * @param {string} selfId
 * @param {(userId: string) => string} nameOf
 * @param {(appId: string) => string} [appName]
 */
export function renderPlayers(transcriptEl, held, selfId, nameOf, appName = (appId) => appId) {
  const live = liveOf(transcriptEl);
  const news = [];
  for (const row of transcriptEl.querySelectorAll(".row[data-session]:not(.pending)")) {
    const users = othersPlaying(held, row.dataset.session, selfId);
    news.push(...playersNews(live.heard.get(row.dataset.session) ?? [], users, nameOf, appName(row.dataset.appId)));
    live.heard.set(row.dataset.session, users);
    const old = row.querySelector(":scope > .players");
    const key = users.join(",");
    if (old && old.dataset.users === key) continue;
    old?.remove();
    if (!users.length) continue;
    const names = users.map(nameOf);
    // neutral for a game and a list alike
    const label = `${listOf(names)} ${names.length === 1 ? "has" : "have"} it open now`;
    // an image of faces with its label; the change itself is said by the live region
    const faces = h("div", { class: "players", role: "img", "aria-label": label, title: label, dataset: { users: key } },
      ...users.slice(0, 4).map((u, i) => avatar(names[i], u, { small: true })),
      h("span", { class: "players-text", "aria-hidden": "true" }, names.length <= 2 ? `${listOf(names)} ${names.length === 1 ? "has" : "have"} it open` : `${names.length} people have it open`));
    const bubble = row.querySelector(":scope > .bubble");
    if (bubble) bubble.after(faces);
    else row.append(faces);
  }
  if (news.length) live.region.textContent = news.join(" ");
}
