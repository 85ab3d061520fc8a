// Who is typing in a conversation: each member's notice lasts NOTICE_MS after the
// last one heard (the server stores nothing, and a notice can be lost with its
// connection), a "stopped" or a message from them ends it. And when this page says
// that its person types: once on the first key, again every RESEND_MS while they go on.

export const NOTICE_MS = 6000;
export const RESEND_MS = 3000;
const NAME_CHARS = 20;

/**
 * A conversation's typers after a `typing` event.
 * @param {Record<string, number> | undefined} held userId → when the notice ends (ms), in the order the notices began
 * @param {{userId: string, typing: boolean}} frame
 * @param {number} now
 */
export function applyTyping(held, frame, now) {
  const next = { ...held };
  // the entries keep the order in which their notices began (an object keeps its keys'
  // order): a notice renewed keeps its place, one that had ended begins anew at the end
  if (!(next[frame.userId] > now)) delete next[frame.userId];
  if (frame.typing) next[frame.userId] = now + NOTICE_MS;
  else delete next[frame.userId];
  return next;
}

/**
 * The typers still typing at `now`, but oneself, in the order they began: each page
 * renews its notice every RESEND_MS, and ordered by the latest notice the names changed
 * places at every renewal ("Ben and Cy", then "Cy and Ben").
 */
export function typersNow(held, now, selfId) {
  return Object.entries(held || {}).filter(([userId, until]) => until > now && userId !== selfId).map(([userId]) => userId);
}

/**
 * "Ben is typing…", "Ben and Cy are typing…", "Ben, Cy and 2 others are typing…", "" for
 * none. A long name is cut, so that "is typing…" always shows (a name made to read like
 * a message, "Ana: sure, I'll send you my key", showed in italics where the last
 * message stands, its ending cut off).
 */
export function typingLine(allNames) {
  if (!allNames.length) return "";
  const names = allNames.map((n) => (n.length > NAME_CHARS ? `${n.slice(0, NAME_CHARS - 1)}…` : n));
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are typing…`;
  const others = names.length - 2;
  return `${names[0]}, ${names[1]} and ${others} ${others === 1 ? "other" : "others"} are typing…`;
}

/**
 * The line for a conversation's typers at `now` ("" for none), names as `nameOf` gives them.
 * @param {Record<string, number> | undefined} held
 * @param {(userId: string) => string} nameOf
 */
export function typingNow(held, now, selfId, nameOf) {
  return typingLine(typersNow(held, now, selfId).map(nameOf));
}

/** When the first notice held ends, to draw the line again then (undefined: none). */
export function nextEnd(typing, now) {
  let next;
  for (const held of Object.values(typing)) for (const until of Object.values(held)) if (until > now && (next === undefined || until < next)) next = until;
  return next;
}

/**
 * What to tell the server as the draft changes: true (typing), false (emptied
 * without sending) or null (nothing new). `said` is what was said last and when.
 * @param {{typing: boolean, at: number} | undefined} said
 * @param {string} draft
 * @param {number} now
 */
export function typingToSay(said, draft, now) {
  const typing = draft.trim() !== "";
  if (typing) return !said?.typing || now - said.at >= RESEND_MS ? true : null;
  return said?.typing ? false : null;
}
