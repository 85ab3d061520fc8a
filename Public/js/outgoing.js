// What leaves through the composer: items staged by apps (insert) or the
// user, the typed text, and Send. Apps wait on their insert until the staged
// message is sent (or removed, or refused): the staged items are the store's
// `staged`, the waits its `waiters`. The pane listens to "startsending" and
// "cancelsending" to call the app's hooks.

import { stage, unstage, sendPlan } from "./state/composer.js";
import { withReply } from "./state/replies.js";
import { withMentions } from "./state/mentions.js";
import { newClientId } from "./net/frames.js";

const waiterKey = (key) => `staged:${key}`;

export class CancelledError extends Error {
  constructor(message = "the user removed the message") {
    super(message);
    this.code = "cancelled";
  }
}

export class Outgoing extends EventTarget {
  /**
   * @param {import("./store.js").Store} store
   * @param {import("./sync.js").Sync} sync
   */
  constructor(store, sync) {
    super();
    this.store = store;
    this.sync = sync;
    /** conversationId → the message being answered ({seq, who, line}), kept with the draft while this page lives */
    this.replies = new Map();
  }

  /** The message the next Send answers, if any. */
  replying(conversationId) {
    return this.replies.get(conversationId) || null;
  }

  /** Reply (a message's Reply button) or stop replying (null). */
  setReply(conversationId, reply) {
    if (reply) this.replies.set(conversationId, reply);
    else if (!this.replies.delete(conversationId)) return;
    this.dispatchEvent(new CustomEvent("reply", { detail: { conversationId, reply } }));
  }

  staged(conversationId) {
    return this.store.state.staged[conversationId] || [];
  }

  setStaged(conversationId, list) {
    this.store.saveStaged(conversationId, list);
  }

  /**
   * Stages an item in the composer.
   * @param {string} conversationId
   * @param {{message: object, appId?: string, ref?: string, image?: Blob}} item
   *   `image`: the layout's image, kept in sync.images and uploaded as it is staged (Send uses that upload)
   * @returns {Promise<object>} settles when the item is sent (the stored message) or not
   */
  stage(conversationId, { image = null, ...item }) {
    const full = { key: newClientId(), ...item };
    if (image) {
      full.imageKey = full.key;
      this.sync.images.keep(full.key, image);
      this.sync.outbox.uploadAhead(full.key); // Send then has nothing left to upload
    }
    // A refused move of this app leaves the transcript by itself once this is
    // staged (the store applies state/transcript.js: dropSettledConflicts).
    const { staged, replaced } = stage(this.staged(conversationId), full);
    this.setStaged(conversationId, staged);
    if (replaced?.imageKey) this.sync.images.forget(replaced.imageKey);
    if (replaced) this.settle(replaced.key, new CancelledError("replaced by a newer message from the app"));
    const promise = this.store.waiters.wait(waiterKey(full.key));
    promise.catch(() => {});
    this.dispatchEvent(new CustomEvent("staged", { detail: { conversationId, item: full } }));
    return promise;
  }

  /** The user removed a staged item. */
  remove(conversationId, key) {
    const item = this.staged(conversationId).find((s) => s.key === key);
    if (!item) return;
    this.setStaged(conversationId, unstage(this.staged(conversationId), key));
    if (item.imageKey) this.sync.images.forget(item.imageKey);
    this.dispatchEvent(new CustomEvent("cancelsending", { detail: { conversationId, item } }));
    this.settle(key, new CancelledError());
  }

  /** A staged item's story ended: sent (the stored message), or not (an Error). */
  settle(key, errorOrMessage) {
    this.store.waiters.settle(waiterKey(key), errorOrMessage);
  }

  /**
   * A staged sticker dropped onto a bubble: it is sent at once, stuck to that
   * message at (x, y), fractions of the bubble's size.
   */
  stick(conversationId, key, stuckTo) {
    const item = this.staged(conversationId).find((s) => s.key === key && s.message.kind === "sticker");
    if (!item) return;
    this.setStaged(conversationId, unstage(this.staged(conversationId), key));
    const message = { ...item.message, stuckTo };
    this.sync.send(conversationId, message).then(
      (stored) => this.settle(key, stored),
      (error) => {
        this.settle(key, error);
        this.dispatchEvent(new CustomEvent("failed", { detail: { conversationId, item, error } }));
      },
    );
  }

  /** Text an app inserted: the composer view appends it. */
  insertText(conversationId, text) {
    this.dispatchEvent(new CustomEvent("inserttext", { detail: { conversationId, text } }));
  }

  /**
   * Send: staged items first, then the text. Returns at once; each item is
   * echoed locally and kept in the outbox until the server stores it.
   */
  send(conversationId, text) {
    const items = this.staged(conversationId);
    // the reply goes with the text, or with a picture or sticker sent without one
    const plan = withMentions(withReply(sendPlan(items, text), this.replying(conversationId)?.seq),
      this.store.conversation(conversationId)?.members ?? []);
    if (plan.length === 0) return false;
    this.setStaged(conversationId, []);
    this.setReply(conversationId, null);
    for (const [i, item] of items.entries()) {
      this.dispatchEvent(new CustomEvent("startsending", { detail: { conversationId, item } }));
      this.sync.send(conversationId, plan[i], { imageKey: item.imageKey }).then(
        (message) => this.settle(item.key, message),
        (error) => {
          this.settle(item.key, error);
          this.dispatchEvent(new CustomEvent("failed", { detail: { conversationId, item, error } }));
        },
      );
    }
    if (plan.length > items.length) {
      this.sync.send(conversationId, plan.at(-1)).catch((error) => {
        this.dispatchEvent(new CustomEvent("failed", { detail: { conversationId, item: null, error } }));
      });
    }
    return true;
  }
}
