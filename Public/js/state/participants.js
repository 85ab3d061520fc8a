// Participant maps as plain data: which user is behind each app-scoped
// identifier of one app in one conversation, and which of a conversation's
// messages need one to be drawn (their captions say "$<identifier>").

import { mentionedParticipants } from "./text.js";

const NAMED = ["caption", "subcaption", "trailingCaption", "trailingSubcaption", "imageTitle", "imageSubtitle"];

/** The key of a map in the store's `participants`. */
export const participantsKey = (conversationId, appId) => `${conversationId}|${appId}`;

/**
 * A map from the server's `participants` answer.
 * @param {{local: string, participants: {userId: string, participantId: string}[]}} r
 */
export function participantMap(r) {
  return {
    local: r.local,
    toUser: new Map(r.participants.map((x) => [x.participantId.toLowerCase(), x.userId])),
    toParticipant: new Map(r.participants.map((x) => [x.userId, x.participantId])),
  };
}

/** Does an app message show a "$<identifier>" (in a caption, its summary, or the line left when superseded)? */
export function namesParticipants(m) {
  if (!m || m.kind !== "app") return false;
  const l = m.layout || {};
  return [...NAMED.map((k) => l[k]), m.summaryText, m.summary].some((text) => mentionedParticipants(text).length > 0);
}

/**
 * The apps whose participant map the messages need and the store lacks.
 * @param {object[]} messages
 * @param {string} conversationId
 * @param {Record<string, object>} held the store's `participants`
 * @returns {Set<string>} app ids
 */
export function mapsWanted(messages, conversationId, held) {
  const apps = new Set();
  for (const m of messages) {
    if (m?.kind === "app" && !apps.has(m.appId) && !held[participantsKey(conversationId, m.appId)] && namesParticipants(m)) apps.add(m.appId);
  }
  return apps;
}
