// A small key-value store for one user and one app (a sticker history, a
// high score, the last list). Values are JSON; a value is at most 16 KiB and
// an app's store at most 256 KiB. Kept by the host, never shared across apps.

export class AppStorage {
  constructor(bridge) {
    this._bridge = bridge;
  }

  /** The value for key, or null. */
  get(key) {
    return this._bridge.call("storage.get", { key });
  }

  set(key, value) {
    return this._bridge.call("storage.set", { key, value });
  }

  remove(key) {
    return this._bridge.call("storage.remove", { key });
  }

  /** All keys. */
  keys() {
    return this._bridge.call("storage.keys", {});
  }
}
