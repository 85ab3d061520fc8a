// Direct conversations and blocks, as plain data (no DOM): a direct conversation is
// named after the other person, as now named; whom the person blocked.

import { NOBODY } from "./transcript.js";

/** The other person of a direct conversation (its `directUserIds`), or null for a group. */
export function otherPerson(c, selfId) {
  if (c?.direct !== true || !Array.isArray(c.directUserIds)) return null;
  return c.directUserIds.find((id) => id !== selfId) ?? null;
}

/**
 * A direct conversation's title: the other person's name as its members say it (a
 * rename and "Deleted account" follow), or once they left as the server last named
 * them (`directNames`, also after a reload) or this page last knew them.
 */
export function directTitle(c, selfId) {
  const other = otherPerson(c, selfId);
  if (!other) return c.title;
  const name = c.members?.find((m) => m.userId === other)?.name
    || c.directNames?.[c.directUserIds.indexOf(other)] || c.former?.[other];
  return name || (c.title && c.title !== "" ? c.title : "Direct conversation");
}

/**
 * The list with each direct conversation titled after its other person; the same
 * list (and the same objects) when no title changed, so nothing is drawn again.
 */
export function nameDirect(list, selfId) {
  if (!selfId) return list;
  let next = null;
  list.forEach((c, i) => {
    if (c.direct !== true) return;
    const title = directTitle(c, selfId);
    if (title === c.title) return;
    next ??= list.slice();
    next[i] = { ...c, title };
  });
  return next ?? list;
}

/** The direct conversation with `userId` this page holds (and has not left), if any. */
export function directWith(list, selfId, userId) {
  return list.find((c) => !c.left && otherPerson(c, selfId) === userId) ?? null;
}

/**
 * Whom this user blocked that a direct conversation is with ({userId, name}, named as
 * the conversation is), or null: a group, or no block. Only the blocker's list says it:
 * the person blocked holds no such list, and learns nothing.
 * @param {{userId: string}[] | undefined} blocked
 */
export function blockedOther(c, selfId, blocked) {
  const other = otherPerson(c, selfId);
  if (!other || !(blocked ?? []).some((b) => b.userId === other)) return null;
  return { userId: other, name: directTitle(c, selfId) };
}

const idsOf = new WeakMap();

/**
 * The ids of a blocked list, made once per list (the store replaces the list on every
 * change, never alters it): the unread counts ask for them per conversation at each render.
 * @param {{userId: string}[] | undefined} blocked @returns {Set<string>}
 */
export function blockedIds(blocked) {
  if (!blocked) return NOBODY;
  let ids = idsOf.get(blocked);
  if (!ids) idsOf.set(blocked, (ids = new Set(blocked.map((b) => b.userId))));
  return ids;
}

/** Checks the `blocked` list of a sign-in result or a `blocked` event; a reason or null. */
export function blockedProblem(list) {
  if (!Array.isArray(list)) return "users";
  for (const b of list) {
    if (!b || typeof b !== "object" || typeof b.userId !== "string" || !b.userId || typeof b.name !== "string") return "users";
  }
  return null;
}
