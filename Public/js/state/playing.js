// Who has which session open in the expanded pane, per conversation: the
// server's `playing` events folded into {sessionId: [userId…]}. Pure functions.

/**
 * @param {Record<string, string[]>} held this conversation's players, by session
 * @param {object} frame a `playing` event: a snapshot ({sessions}) or a change
 * @returns {Record<string, string[]>}
 */
export function applyPlaying(held = {}, frame) {
  if (frame.sessions) return { ...frame.sessions };
  const now = (held[frame.sessionId] || []).filter((u) => u !== frame.userId);
  if (frame.playing) now.push(frame.userId);
  const next = { ...held };
  if (now.length) next[frame.sessionId] = now;
  else delete next[frame.sessionId];
  return next;
}

/** The others playing a session (the viewer knows they are playing themselves). */
export function othersPlaying(held, sessionId, selfId) {
  return ((held || {})[sessionId] || []).filter((u) => u !== selfId);
}

/**
 * The session this page shows open in the expanded pane, if any: what it tells
 * the others it is playing.
 * @param {object} pane the store's pane state
 * @returns {{conversationId: string, sessionId: string} | null}
 */
export function playingNow(pane, visible = true) {
  const sid = pane?.active && pane.style === "expanded" && visible ? pane.selected?.session?.id : null;
  return sid ? { conversationId: pane.conversationId, sessionId: sid } : null;
}
