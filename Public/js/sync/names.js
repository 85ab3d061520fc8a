// Names of senders the member list does not carry: big rooms list only their
// first members, so a sender beyond them is looked up, in one batch with any
// others met in the same moment (a page of history meets many at once).

const MAX_BATCH = 200;

export class Names {
  /**
   * @param {import("../net/client.js").ParlorClient} client
   * @param {import("../store.js").Store} store
   * @param {(conversationId: string, member: object, o?: {former?: boolean}) => void} learned  gets each member the
   *   server named, and each who left (`former`: what they sent is theirs by name, they are not listed)
   */
  constructor(client, store, learned) {
    Object.assign(this, { client, store, learned });
    /** @type {Map<string, {userIds: Set<string>, answer: Promise<object>}>} the batch being gathered, by conversation */
    this.batches = new Map();
  }

  /** A message from `userId`: look their name up unless it is known or on its way. */
  learn(conversationId, userId) {
    const c = this.store.conversation(conversationId);
    if (!c || !userId || userId === this.store.state.user?.id || c.members.some((m) => m.userId === userId) || c.former?.[userId]) return;
    this.store.requests.join(`names|${conversationId}|${userId}`, () => this.batchFor(conversationId, userId)).catch(() => {});
  }

  /** The batch of this moment for a conversation, with `userId` in it. */
  batchFor(conversationId, userId) {
    let batch = this.batches.get(conversationId);
    if (!batch) {
      const userIds = new Set();
      const answer = new Promise((resolve) => queueMicrotask(() => {
        this.batches.delete(conversationId);
        resolve(this.client.request("members", { conversationId, userIds: [...userIds].slice(0, MAX_BATCH) }));
      }));
      answer.then((r) => {
        for (const member of r.members) this.learned(conversationId, member);
        for (const member of r.formerMembers ?? []) this.learned(conversationId, member, { former: true });
      }, () => {});
      batch = { userIds, answer };
      this.batches.set(conversationId, batch);
    }
    batch.userIds.add(userId);
    return batch.answer;
  }
}
