// A member's notification level per conversation ("all", "mentions", "none"), kept
// on the server so every device of theirs follows (conversations.setNotify). It
// arrives in each Conversation (conversations.list, subscribe, the conversation
// event) and, when changed on another device, as a `notify` event.
//
// Before, muting was this browser's alone (a list in localStorage): a conversation
// muted here is set to "none" on the server once, and the list is forgotten.

import { readJSON, writeJSON, forget } from "../kept.js";

const MUTED = (userId) => `parlor.muted.${userId}`;

export class NotifyLevels {
  constructor(client, store) {
    this.client = client;
    this.store = store;
  }

  /** Sets the level (the list shows it at once); throws, putting it back, if refused. */
  async set(conversationId, notify) {
    const before = this.store.conversation(conversationId)?.notify ?? "all";
    this.heard(conversationId, notify);
    try {
      await this.client.request("conversations.setNotify", { conversationId, notify });
    } catch (e) {
      this.heard(conversationId, before);
      throw e;
    }
  }

  /** This user's level, set here or on another device. */
  heard(conversationId, notify) {
    if (!this.store.conversation(conversationId)) return;
    this.store.update(["conversations"], (s) => ({
      conversations: s.conversations.map((c) => (c.id === conversationId ? { ...c, notify } : c)),
    }));
  }

  /**
   * After a conversations.list: the conversations this browser muted on its own are
   * muted on the server, once; the local list goes when each was sent (one that failed
   * stays, to be sent after the next sign-in).
   */
  async migrate(userId) {
    const list = readJSON(MUTED(userId), []);
    if (!Array.isArray(list) || list.length === 0) return;
    const left = [];
    for (const id of list) {
      const c = this.store.conversation(id);
      if (!c || c.left) continue; // gone from the list: nothing to mute
      if (c.notify === "none") continue;
      try {
        await this.set(id, "none");
      } catch {
        left.push(id);
      }
    }
    if (left.length) writeJSON(MUTED(userId), left);
    else forget(MUTED(userId));
  }
}
