// Direct conversations and blocks (docs/PROTOCOL.md, "Direct conversations"): opening
// the one with a person, and the list of whom this person blocked, said at sign-in
// (`blocked`) and by the `blocked` event whenever it changes on any of their devices,
// kept in the store (part "blocked").

import { upsertConversation } from "../state/conversations.js";
import { blockedIds } from "../state/direct.js";
import { recountHeld } from "../state/transcript.js";

export class People {
  /**
   * @param {import("../net/client.js").ParlorClient} client
   * @param {import("../store.js").Store} store
   * @param {{subscribe: (conversationId: string) => Promise<unknown>}} sync
   */
  constructor(client, store, sync) {
    Object.assign(this, { client, store, sync });
    client.addEventListener("ready", (e) => this.set(e.detail.blocked ?? []));
    client.addEventListener("blocked", (e) => this.set(e.detail.users));
  }

  /** The list, and the messages held back from a reader far up counted again by it. */
  set(blocked) {
    const ids = blockedIds(blocked);
    const held = Object.entries(this.store.state.transcripts).filter(([, t]) => t.heldBackBy);
    this.store.update(["blocked", ...held.map(([id]) => `transcript:${id}`)], (s) => ({
      blocked,
      ...(held.length && { transcripts: { ...s.transcripts, ...Object.fromEntries(held.map(([id, t]) => [id, recountHeld(t, ids)])) } }),
    }));
  }

  /** The direct conversation with `userId` (made if need be), subscribed; its id. */
  async open(userId) {
    const r = await this.client.request("conversations.direct", { userId });
    // a member again if they had left it (the kept copy said so)
    this.store.update(["conversations"], (s) => ({ conversations: upsertConversation(s.conversations, { ...r.conversation, left: undefined }) }));
    await this.sync.subscribe(r.conversation.id);
    return r.conversation.id;
  }

  /** Shown here at once; the event that follows says the same to every device. */
  async block(userId, name) {
    await this.client.request("users.block", { userId });
    if (!this.store.state.blocked.some((b) => b.userId === userId)) this.set([...this.store.state.blocked, { userId, name }]);
  }

  async unblock(userId) {
    await this.client.request("users.unblock", { userId });
    this.set(this.store.state.blocked.filter((b) => b.userId !== userId));
  }
}
