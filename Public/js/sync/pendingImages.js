// The images of messages that wait to be sent: an app's move with a drawing, made
// offline, goes into the composer or the outbox at once and its image is uploaded
// just before the message is sent (sync/outbox.js). So the move belongs to the page,
// not to the app's frame, and closing the app cannot drop it. Kept in IndexedDB too,
// so a reload keeps them as it keeps the outbox; in memory alone where IndexedDB is
// not there (then a reload loses the image, and the send says so: image_lost).

const DB = "parlor-pending-images";
const STORE = "images";

function request(r) {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

export class PendingImages {
  /** @param {IDBFactory | undefined} idb */
  constructor(idb = globalThis.indexedDB) {
    /** @type {Map<string, Blob>} */
    this.memory = new Map();
    /** @type {Map<string, string>} object URLs for previews, by key */
    this.urls = new Map();
    this.db = null;
    /** keys on disk are the signed-in user's id, "/", then the item's key */
    this.user = "";
    if (idb) {
      this.db = new Promise((resolve) => {
        const open = idb.open(DB, 1);
        open.onupgradeneeded = () => open.result.createObjectStore(STORE);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => resolve(null); // private windows may refuse: memory only
      });
    }
  }

  /** The person signed in: a shared browser keeps each person's images apart. */
  forUser(userId) {
    this.user = userId || "";
  }

  disk(key) {
    return `${this.user}/${key}`;
  }

  async tx(mode, body) {
    const db = this.db && (await this.db);
    if (!db) return undefined;
    try {
      return await request(body(db.transaction(STORE, mode).objectStore(STORE)));
    } catch {
      return undefined;
    }
  }

  /** Keeps an image under a key (a staged item's key or a send's clientId). */
  async keep(key, blob) {
    this.memory.set(key, blob);
    await this.tx("readwrite", (s) => s.put(blob, this.disk(key)));
  }

  /** The image kept under a key, or null. */
  async take(key) {
    const here = this.memory.get(key);
    if (here) return here;
    const stored = await this.tx("readonly", (s) => s.get(this.disk(key)));
    if (!(stored instanceof Blob)) return null;
    this.memory.set(key, stored);
    return stored;
  }

  /** A URL to show the image before it is uploaded, or null while it is only on disk. */
  url(key) {
    if (this.urls.has(key)) return this.urls.get(key);
    const blob = this.memory.get(key);
    if (!blob) return null;
    const url = URL.createObjectURL(blob);
    this.urls.set(key, url);
    return url;
  }

  forget(key) {
    this.memory.delete(key);
    const url = this.urls.get(key);
    if (url) URL.revokeObjectURL(url);
    this.urls.delete(key);
    return this.tx("readwrite", (s) => s.delete(this.disk(key)));
  }

  /** Drops what no staged item or outbox entry names any more (left by a crash between two writes). */
  async prune(liveKeys) {
    const prefix = this.disk("");
    const keys = (await this.tx("readonly", (s) => s.getAllKeys())) || [];
    const gone = [];
    for (const k of keys) {
      if (typeof k !== "string" || !k.startsWith(prefix)) continue; // another person's
      const key = k.slice(prefix.length);
      if (!liveKeys.has(key)) gone.push(this.forget(key));
    }
    await Promise.all(gone);
  }

  /** Loads the images of items kept across a reload, so their previews can show. */
  async load(keys) {
    await Promise.all([...keys].map((k) => this.take(k)));
  }
}
