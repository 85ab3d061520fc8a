// What an app is allowed to see, built from what the host knows: its own
// messages (never another app's, never user ids) and app-scoped participant
// identifiers. Pure functions.

const LAYOUT_FIELDS = ["imageTitle", "imageSubtitle", "caption", "subcaption", "trailingCaption", "trailingSubcaption"];

/**
 * A message of this app, as the SDK receives it.
 * @param {object} m a Message from the server, or an outbound body for a staged one
 * @param {{ref?: string, isPending?: boolean, origin?: string, senderParticipantId?: string}} [extra]
 */
export function appMessageSnapshot(m, { ref, isPending = false, origin = "", senderParticipantId } = {}) {
  const layout = {};
  const l = m.layout || {};
  for (const key of LAYOUT_FIELDS) if (typeof l[key] === "string") layout[key] = l[key];
  if (typeof l.image === "string") layout.imageURL = `${origin}/blobs/${l.image}`;
  return {
    ref: ref ?? (m.seq ? `s${m.seq}` : null),
    url: m.url,
    layout,
    summaryText: m.summaryText ?? null,
    session: m.session ? { id: m.session.id, version: m.session.version ?? m.session.baseVersion ?? 0 } : null,
    senderParticipantIdentifier: m.senderParticipantId ?? senderParticipantId ?? null,
    isPending,
    live: !!m.live,
  };
}

/**
 * The conversation as an app sees it.
 * @param {{local: string, toParticipant: Map<string, string>}} participants
 * @param {string} selfId
 * @param {object[]} members
 * @param {object | null | undefined} selected a snapshot (or null), omitted to leave it unchanged
 */
export function conversationSnapshot(participants, selfId, members, selected) {
  const remote = [];
  for (const m of members) {
    if (m.userId === selfId) continue;
    const pid = participants.toParticipant.get(m.userId);
    if (pid) remote.push(pid);
  }
  const snap = { localParticipantIdentifier: participants.local, remoteParticipantIdentifiers: remote };
  if (selected !== undefined) snap.selectedMessage = selected;
  return snap;
}

/** Builds the outbound app message body from an app's checked draft. */
export function draftToMessage(appId, draft) {
  const body = { kind: "app", appId, url: draft.url, live: !!draft.live };
  if (draft.layout && Object.keys(draft.layout).length) body.layout = { ...draft.layout };
  if (draft.summaryText) body.summaryText = draft.summaryText;
  if (draft.session) body.session = { id: draft.session.id, baseVersion: draft.session.baseVersion };
  return body;
}
