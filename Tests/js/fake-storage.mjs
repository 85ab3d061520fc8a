// A stand-in for the browser's localStorage that counts reads, so a test can
// tell what the store reads once and then keeps in memory.
export function installFakeStorage() {
  const storage = {
    m: new Map(),
    reads: 0,
    getItem(k) {
      this.reads++;
      return this.m.has(k) ? this.m.get(k) : null;
    },
    setItem(k, v) { this.m.set(k, String(v)); },
    removeItem(k) { this.m.delete(k); },
    get length() { return this.m.size; },
    key(i) { return [...this.m.keys()][i] ?? null; },
    clear() {
      this.m.clear();
      this.reads = 0;
    },
  };
  globalThis.localStorage = storage;
  return storage;
}
