// The list of conversations, as plain data: most recently active first.

import { shownName } from "./sameNames.js";

/**
 * Adds or updates a conversation, keeping its place (or putting a new one first).
 * @param {object[]} list
 * @param {object} conv a Conversation from the server
 */
export function upsertConversation(list, conv) {
  const i = list.findIndex((c) => c.id === conv.id);
  if (i < 0) return [conv, ...list];
  const next = list.slice();
  next[i] = { ...list[i], ...conv, lastSeq: Math.max(list[i].lastSeq || 0, conv.lastSeq || 0) };
  return next;
}

/** A message arrived: the conversation moves to the top and remembers it. */
export function touchConversation(list, conversationId, message) {
  const i = list.findIndex((c) => c.id === conversationId);
  if (i < 0) return list;
  const c = list[i];
  if (message.kind === "reaction") {
    // a tapback: neither the list's order nor its line changes
    const next = list.slice();
    next[i] = { ...c, lastSeq: Math.max(c.lastSeq || 0, message.seq) };
    return next;
  }
  if (message.kind === "edit") {
    // not news either: the list keeps its order, and an edited last message previews its new words
    const next = list.slice();
    const last = c.lastMessage?.seq === message.edits && c.lastMessage.kind === "text" && typeof message.text === "string"
      ? { ...c.lastMessage, text: message.text } : c.lastMessage;
    next[i] = { ...c, lastSeq: Math.max(c.lastSeq || 0, message.seq), lastMessage: last };
    return next;
  }
  if (message.kind === "deletion") {
    // not news: the list keeps its order, and a deleted last message previews as such
    const next = list.slice();
    const last = c.lastMessage?.seq === message.deletes ? { ...c.lastMessage, kind: "deleted" } : c.lastMessage;
    next[i] = { ...c, lastSeq: Math.max(c.lastSeq || 0, message.seq), lastMessage: last };
    return next;
  }
  const newer = !c.lastMessage || message.seq >= c.lastMessage.seq;
  const updated = {
    ...c,
    lastSeq: Math.max(c.lastSeq || 0, message.seq),
    lastMessage: newer ? message : c.lastMessage,
  };
  if (!newer) {
    const next = list.slice();
    next[i] = updated;
    return next;
  }
  // By when it was said, not when it arrived: a new device's resume replays old messages,
  // which put their conversations above ones active since (a review of two devices)
  const at = message.createdAt ?? Infinity;
  const rest = [...list.slice(0, i), ...list.slice(i + 1)];
  const j = rest.findIndex((o) => lastActive(o) <= at);
  return j < 0 ? [...rest, updated] : [...rest.slice(0, j), updated, ...rest.slice(j)];
}

/** When a conversation last had news, as far as this page knows. */
function lastActive(c) {
  return c.lastMessage?.createdAt ?? c.createdAt ?? 0;
}

/**
 * Someone joined, was renamed, left or was removed (`change`; `memberCount` the
 * server's count after it). When the one who left is this user the conversation
 * stays listed, marked `left` ("left" or "removed"), and can no longer be sent to.
 */
export function applyMember(list, conversationId, member, { change, memberCount, by, selfId } = {}) {
  if (change === "left" || change === "removed") {
    return list.map((c) => {
      if (c.id !== conversationId) return c;
      const members = (c.members || []).filter((m) => m.userId !== member.userId);
      const count = memberCount ?? Math.max(members.length, (c.memberCount ?? members.length + 1) - 1);
      const gone = member.userId === selfId ? { left: change, leftBy: by } : {};
      // what they sent stays theirs by name while this page knows it ("Someone" after a reload)
      const former = member.name ? { ...c.former, [member.userId]: member.name } : c.former;
      return { ...c, members, memberCount: Math.max(count, members.length), former, ...gone };
    });
  }
  return list.map((c) => {
    if (c.id !== conversationId) return c;
    if (memberCount !== undefined && (c.members || []).some((m) => m.userId === member.userId) === false) {
      return { ...c, members: [...(c.members || []), member], memberCount: Math.max(memberCount, (c.members || []).length + 1) };
    }
    const members = c.members || [];
    const at = members.findIndex((m) => m.userId === member.userId);
    if (at >= 0) return { ...c, members: members.map((m, j) => (j === at ? { ...m, ...member } : m)) };
    // someone the list lacks: a join, unless the list was cut short (then maybe an old member)
    const complete = c.memberCount === undefined || members.length >= c.memberCount;
    const next = [...members, member];
    const count = Math.max(next.length, (c.memberCount ?? members.length) + (complete ? 1 : 0));
    return { ...c, members: next, memberCount: count };
  });
}

/** The name of someone who left a conversation, for what they sent (store.memberName). */
export function rememberFormer(list, conversationId, member) {
  return list.map((c) => (c.id === conversationId && c.former?.[member.userId] !== member.name
    ? { ...c, former: { ...c.former, [member.userId]: member.name } }
    : c));
}

/** Who may rename a conversation and remove its members: its creator, and admins. */
export function canModerate(conversation, user) {
  return !!user && (user.admin === true || (conversation?.createdBy !== undefined && conversation.createdBy === user.id));
}

/** A renamed user, in every conversation. */
export function renameEverywhere(list, user) {
  return list.map((c) => ({
    ...c,
    members: (c.members || []).map((m) => (m.userId === user.id ? { ...m, name: user.name } : m)),
  }));
}

/**
 * Presence: a snapshot replaces the set, a change edits it.
 * @param {Set<string>} online
 * @param {{online: string[] | boolean, userId?: string}} frame
 * @returns {Set<string>}
 */
export function applyPresence(online, frame) {
  if (Array.isArray(frame.online)) return new Set(frame.online);
  const next = new Set(online);
  if (frame.online) next.add(frame.userId);
  else next.delete(frame.userId);
  return next;
}

/** "Ana, Ben and 2 others" — the members other than me. */
export function membersLine(members, selfId) {
  const others = (members || []).filter((m) => m.userId !== selfId).map((m) => shownName(members, m));
  if (others.length === 0) return "Just you";
  if (others.length <= 3) return others.length === 1 ? others[0] : `${others.slice(0, -1).join(", ")} and ${others.at(-1)}`;
  return `${others.slice(0, 2).join(", ")} and ${others.length - 2} others`;
}
