// Editing a sent text, as in Messages: one's own text, for 15 minutes after sending
// it, at most 5 times (docs/PROTOCOL.md, "messages.edit"). The server changes the
// message where it stands and sends an edit record ({kind: "edit", edits: seq, text,
// editCount}) at the next seq; here a record is folded onto the message it edits and
// is never a row of its own, nor news (not unread, not the list's order, no sound).
// Pure functions, no DOM.

/** How long after sending a text its sender may edit it (the server's default). */
export const EDIT_WINDOW_MS = 15 * 60 * 1000;
/** How many times a text may be edited. */
export const MAX_EDITS = 5;

/** Until when (ms) this person may edit this message, or 0 if they may not. */
export function editableUntil(m, selfId) {
  if (!m || m.kind !== "text" || m.sender !== selfId || m.supersededBy !== undefined) return 0;
  if ((m.editCount ?? 0) >= MAX_EDITS) return 0;
  return m.createdAt + EDIT_WINDOW_MS;
}

/** Whether the Edit button shows on this message now. */
export function canEdit(m, selfId, now) {
  return now < editableUntil(m, selfId);
}

/**
 * The message as an edit record leaves it: its new words (when the record still has
 * them: an older record scrubbed by a newer one has none), when it was edited and how
 * many times. An older record than what the message already shows changes nothing
 * (history brings the message as it is now, then its records), nor does a record on
 * anything but a text (a deleted message, say).
 * @param {object} m the message the record names
 * @param {{seq: number, createdAt: number, edits: number, text?: string, editCount?: number}} record
 * @returns {object} m itself when nothing changes
 */
export function edited(m, record) {
  if (!m || m.kind !== "text") return m;
  const count = record.editCount ?? (m.editCount ?? 0) + 1;
  if (count <= (m.editCount ?? 0)) return m;
  const next = { ...m, editedAt: record.createdAt, editCount: count };
  if (typeof record.text === "string") {
    next.text = record.text;
    // whom the new words name (state/mentions.js): the record says, with its text
    if (Array.isArray(record.mentions) && record.mentions.length) next.mentions = record.mentions;
    else delete next.mentions;
  }
  return next;
}

/** An edit record, not a message of its own. */
export const isEditRecord = (m) => m?.kind === "edit";

/** What a screen reader says of an edit: "Ana edited a message: see you at 6". */
export function editedLine(name, words) {
  return `${name} edited a message: ${words}`;
}

/**
 * What to tell a person whose edit was not saved: the rule it met, said plainly (the
 * server's `forbidden` is about this message: too late, or edited 5 times already).
 * @param {{code?: string}} error
 * @param {object | undefined} m the message as held
 * @param {(error: object) => string} otherwise the general sentences (state/errors.js)
 */
export function editRefusal(error, m, otherwise) {
  switch (error?.code) {
    case "offline":
      return "You're offline, so the edit was not saved. Try again when you're back.";
    case "forbidden":
      return (m?.editCount ?? 0) >= MAX_EDITS
        ? `A message can be edited ${MAX_EDITS} times at most.`
        : "This message can no longer be edited: the 15 minutes after sending it are over.";
    case "not_found":
      return "That message was deleted.";
    default:
      return `Edit not saved: ${otherwise(error)}`;
  }
}
