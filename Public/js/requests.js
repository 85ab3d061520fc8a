// Requests on the wire, by key: a second ask for the same thing joins the first
// instead of asking the server again, and a request made stale (the members
// changed while a participant map was on its way) is told so when it lands.
// The store holds them beside the state their answers go into.

export class Requests {
  constructor() {
    /** @type {Map<string, Promise<unknown>>} */
    this.onWire = new Map();
  }

  /**
   * The request for `key` on the wire, or a new one from `start`, forgotten once
   * it settles. `start` gets a function saying whether its answer is still wanted.
   * @template T
   * @param {string} key
   * @param {(current: () => boolean) => Promise<T>} start
   * @returns {Promise<T>}
   */
  join(key, start) {
    let p = this.onWire.get(key);
    if (p) return p;
    p = start(() => this.onWire.get(key) === p);
    this.onWire.set(key, p);
    const done = () => {
      if (this.onWire.get(key) === p) this.onWire.delete(key);
    };
    p.then(done, done);
    return p;
  }

  has(key) {
    return this.onWire.has(key);
  }

  /** The keys on the wire that start with `prefix`. */
  keysStarting(prefix) {
    return [...this.onWire.keys()].filter((k) => k.startsWith(prefix));
  }

  /** What is on the wire for `key` is stale: its answer is not wanted, the next join asks afresh. */
  forget(key) {
    this.onWire.delete(key);
  }
}
