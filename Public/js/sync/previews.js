// Keeps the conversation list's previews (state/previews.js) in step with what
// the page holds: after any change to the conversations, a transcript (a
// message, a history page, a participant map that arrived), the user or the
// app catalog, each preview is derived again, and the store keeps the result
// (and a copy in this browser, restored on the next load).

import { derivePreviews, nameParticipants } from "../state/previews.js";
import { participantsKey } from "../state/participants.js";

const RELEVANT = (part) => part === "conversations" || part === "user" || part === "apps" || part.startsWith("transcript:");

export class Previews {
  /**
   * @param {import("../store.js").Store} store
   * @param {{appName: (appId: string) => string}} opts
   */
  constructor(store, { appName }) {
    this.store = store;
    this.appName = appName;
    store.addEventListener("change", (e) => {
      if ([...e.detail.parts].some(RELEVANT)) this.refresh();
    });
  }

  /** Derives the previews again (also when the app catalog changed: an app's name). */
  refresh() {
    const s = this.store.state;
    if (!s.user) return;
    const howFor = (conversationId) => ({
      selfId: s.user.id,
      appName: this.appName,
      names: (text, appId) => nameParticipants(text, s.participants[participantsKey(conversationId, appId)], (userId) => this.store.memberName(conversationId, userId)),
    });
    const next = derivePreviews(s.previews, s.conversations, s.transcripts, howFor);
    if (next !== s.previews) this.store.savePreviews(next);
  }
}
