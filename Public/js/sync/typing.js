// "Ben is typing…": this page tells the server when its person types in a
// conversation (state/typing.js says when), and keeps the others' notices in the
// store, each until it ends (a timer draws the line again then), a message from them
// arrives or the connection drops (notices are not replayed).

import { applyTyping, nextEnd, typingToSay } from "../state/typing.js";

export class TypingNotices {
  /**
   * @param {import("../net/client.js").ParlorClient} client
   * @param {import("../store.js").Store} store
   * @param {EventTarget} messages where a message that arrived is told ("message": {conversationId, message})
   */
  constructor(client, store, messages) {
    this.client = client;
    this.store = store;
    /** conversationId → what this page said last, and when */
    this.said = new Map();
    this.timer = null;
    client.addEventListener("typing", (e) => this.heard(e.detail));
    // a tapback is no sign of having stopped writing
    messages.addEventListener("message", (e) => {
      if (e.detail.message.kind !== "reaction") this.stopped(e.detail.conversationId, e.detail.message.sender);
    });
    client.addEventListener("status", (e) => {
      if (e.detail.status === "online") return;
      this.said.clear();
      this.store.update(["typing"], () => ({ typing: {} }));
    });
  }

  /** The person's draft in a conversation changed. */
  drafted(conversationId, draft, now = Date.now()) {
    const typing = typingToSay(this.said.get(conversationId), draft, now);
    if (typing === null || this.client.status !== "online") return;
    this.said.set(conversationId, { typing, at: now });
    // refused (rate limited, left meanwhile) or lost with the connection: a notice is only a hint
    this.client.request("typing", { conversationId, typing }).catch(() => {});
  }

  /** The draft was sent: the message itself tells the others, the next key starts anew. */
  sent(conversationId) {
    this.said.delete(conversationId);
  }

  heard(frame, now = Date.now()) {
    this.store.update(["typing"], (s) => ({
      typing: { ...s.typing, [frame.conversationId]: applyTyping(s.typing[frame.conversationId], frame, now) },
    }));
    this.schedule(now);
  }

  stopped(conversationId, userId) {
    if (!this.store.state.typing[conversationId]?.[userId]) return;
    this.heard({ conversationId, userId, typing: false });
  }

  /** Draws the line again when the next notice ends. */
  schedule(now) {
    clearTimeout(this.timer);
    const end = nextEnd(this.store.state.typing, now);
    if (end === undefined) return;
    this.timer = setTimeout(() => {
      this.store.update(["typing"], (s) => ({ typing: { ...s.typing } }));
      this.schedule(Date.now());
    }, end - now + 20);
  }
}
