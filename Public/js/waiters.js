// Promises someone awaits until a story ends: a send until the server stores or
// refuses it, an app's staged item until it is sent or removed. The store holds
// them, beside the state they are about, so every pending outcome is in one place.

export class Waiters {
  constructor() {
    /** @type {Map<string, {resolve: Function, reject: Function}>} */
    this.byKey = new Map();
  }

  /** A promise that settles when `key`'s story ends. */
  wait(key) {
    return new Promise((resolve, reject) => this.byKey.set(key, { resolve, reject }));
  }

  has(key) {
    return this.byKey.has(key);
  }

  /**
   * Ends `key`'s story: an Error rejects the promise, anything else resolves it.
   * @returns {boolean} false when nobody was waiting
   */
  settle(key, outcome) {
    const w = this.byKey.get(key);
    if (!w) return false;
    this.byKey.delete(key);
    if (outcome instanceof Error) w.reject(outcome);
    else w.resolve(outcome);
    return true;
  }
}
