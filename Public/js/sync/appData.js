// An app's per-user storage. It lives on the server so it follows the user to
// every device; the store holds it as the server has it (asked for once per
// app, then kept current by the server's `appdata` events: heard), and keeps a
// copy in this browser to read while offline. A write made
// offline is kept here, in the copy and in a list of pending writes, and sent
// once the page is signed in again (flushPending): an app's draft saved as it
// closed, offline, was lost, and Ice Cream cut its sticker history down for good.

const UNREACHABLE = new Set(["offline", "timeout"]);

/** An app's data with one key set, or removed by null. */
function withValue(data, key, value) {
  const next = { ...data };
  if (value === null) delete next[key];
  else next[key] = value;
  return next;
}

export class AppData {
  /**
   * @param {import("../net/client.js").ParlorClient} client
   * @param {import("../store.js").Store} store
   */
  constructor(client, store) {
    this.client = client;
    this.store = store;
    /** per app and key: the write on its way, and the latest value waiting for it */
    this.writes = new Map();
  }

  /** @returns {Promise<Record<string, unknown>>} */
  get(appId) {
    const held = this.store.state.appData[appId];
    if (held) return Promise.resolve(held);
    return this.store.requests.join(`appdata|${appId}`, () => this.client.request("appdata.get", { appId }).then(
      (r) => {
        // what was written offline and is not sent yet wins over the server's
        let data = r.data;
        for (const p of this.store.pendingAppData()) if (p.appId === appId) data = withValue(data, p.key, p.value);
        this.store.saveAppData(appId, data);
        return data;
      },
      (error) => {
        if (error.code === "offline") return this.store.offlineAppData(appId);
        throw error;
      },
    ));
  }

  /**
   * Stores (or, with null, removes) one key on the server, then here. One write per
   * key at a time: a value set while the last is on its way waits and is sent alone,
   * the latest only (an app saving as the user types makes a write per round trip,
   * not per key press, and stays within the server's limit on writes).
   */
  set(appId, key, value) {
    const slot = `${appId}\u0000${key}`;
    let s = this.writes.get(slot);
    if (!s) {
      s = { inFlight: null, waiting: null };
      this.writes.set(slot, s);
    }
    if (!s.inFlight) {
      s.inFlight = this.write(appId, key, value).finally(() => this.writeNext(slot, appId, key));
      return s.inFlight;
    }
    // every caller waiting meanwhile is answered by the write of the latest value
    if (!s.waiting) {
      let resolve;
      let reject;
      const promise = new Promise((a, b) => { resolve = a; reject = b; });
      s.waiting = { promise, resolve, reject, value };
    }
    s.waiting.value = value;
    return s.waiting.promise;
  }

  writeNext(slot, appId, key) {
    const s = this.writes.get(slot);
    const w = s.waiting;
    s.inFlight = null;
    s.waiting = null;
    if (!w) {
      this.writes.delete(slot);
      return;
    }
    s.inFlight = this.write(appId, key, w.value).finally(() => this.writeNext(slot, appId, key));
    s.inFlight.then(w.resolve, w.reject);
  }

  async write(appId, key, value) {
    // as the server keeps it (JSON): a Date, NaN or a Map read back the same before and
    // after a reload, not as themselves until then (an app author's review)
    const v = value === undefined ? null : JSON.parse(JSON.stringify(value) ?? "null");
    try {
      await this.client.request("appdata.set", { appId, key, value: v });
      this.pend(appId, key, undefined);
    } catch (error) {
      if (!UNREACHABLE.has(error.code)) throw error;
      this.pend(appId, key, v);
    }
    this.store.saveAppData(appId, withValue(await this.get(appId), key, v));
  }

  /**
   * An `appdata` event: a key written by this user on another device or tab (a
   * server before this one sent the page its own write back too).
   * The copy held here follows it, unless this page has its own write of that key
   * on its way, waiting, or kept while offline: that write comes after and wins, and
   * its echo must not roll the page back meanwhile. Returns whether the value held
   * changed (an open app is then told); the echo of the page's own write does not.
   */
  heard(appId, key, value) {
    if (this.writes.has(`${appId}\u0000${key}`)) return false;
    if (this.store.pendingAppData().some((p) => p.appId === appId && p.key === key)) return false;
    const held = this.store.state.appData[appId];
    // not held yet: the next read asks the server, which has it
    if (!held) return true;
    const next = value === null || value === undefined ? null : value;
    if (JSON.stringify(held[key] ?? null) === JSON.stringify(next)) return false;
    this.store.saveAppData(appId, withValue(held, key, next));
    return true;
  }

  /** Notes (or, with undefined, forgets) a write the server does not have yet. */
  pend(appId, key, value) {
    const list = this.store.pendingAppData();
    const others = list.filter((p) => p.appId !== appId || p.key !== key);
    if (value === undefined && others.length === list.length) return;
    this.store.savePendingAppData(value === undefined ? others : [...others, { appId, key, value }]);
  }

  /** Signed in again: the writes made offline go to the server, each the latest of its key. */
  async flushPending() {
    for (const p of this.store.pendingAppData()) {
      try {
        await this.set(p.appId, p.key, p.value);
      } catch (error) {
        // refused for good (too long, the store full, an app gone): it never will be stored
        this.pend(p.appId, p.key, undefined);
        console.warn(`Parlor: ${p.appId}'s storage write of "${p.key}" was refused`, error);
      }
    }
  }
}
