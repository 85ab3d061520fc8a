// Keeps the conversation list's previews (state/previews.js) in step with what
// the page holds: after any change to the conversations, a transcript (a
// message, a history page, a participant map that arrived), the user or the
// app catalog, each preview is derived again, and the store keeps the result
// (and a copy in this browser, restored on the next load).

import { derivePreviews, nameParticipants } from "../state/previews.js";
import { participantsKey } from "../state/participants.js";

/** More than two members: a preview then says who wrote it. */
const isGroup = (c) => Math.max(c?.memberCount ?? 0, c?.members?.length ?? 0) > 2;

export class Previews {
  /**
   * @param {import("../store.js").Store} store
   * @param {{appName: (appId: string) => string}} opts
   */
  constructor(store, { appName }) {
    this.store = store;
    this.appName = appName;
    /** each conversation as last derived: the same object has not changed since */
    this.seen = new Map();
    store.addEventListener("change", (e) => this.changed(e.detail.parts));
  }

  /**
   * Only the conversations a change touched are derived again: deriving all of them
   * for each message took a sixth of a phone's time to load 300 conversations.
   */
  changed(parts) {
    if (parts.has("user") || parts.has("apps") || parts.has("blocked")) return this.refresh();
    const ids = new Set();
    for (const part of parts) if (part.startsWith("transcript:")) ids.add(part.slice("transcript:".length));
    if (parts.has("conversations")) {
      for (const c of this.store.state.conversations) if (this.seen.get(c.id) !== c) ids.add(c.id);
    }
    if (ids.size) this.refresh(ids);
  }

  /**
   * How a conversation's messages are put in a line (state/previews.js `previewLine`).
   * @param {string} conversationId
   */
  how(conversationId) {
    const s = this.store.state;
    return {
      selfId: s.user?.id,
      group: isGroup(this.store.conversation(conversationId)),
      appName: this.appName,
      names: (text, appId) => nameParticipants(text, s.participants[participantsKey(conversationId, appId)], (userId) => this.store.memberName(conversationId, userId)),
      nameOf: (userId) => this.store.memberName(conversationId, userId),
      blocked: (userId) => s.blocked.some((b) => b.userId === userId),
    };
  }

  /**
   * Derives the previews again (also when the app catalog changed: an app's name).
   * @param {Set<string>} [only] these conversations' alone
   */
  refresh(only) {
    const s = this.store.state;
    if (!s.user) return;
    const conversations = only ? s.conversations.filter((c) => only.has(c.id)) : s.conversations;
    for (const c of conversations) this.seen.set(c.id, c);
    const next = derivePreviews(s.previews, conversations, s.transcripts, (id) => this.how(id));
    if (next !== s.previews) this.store.savePreviews(next);
  }
}
