// An app's per-user storage. It lives on the server so it follows the user to
// every device; the store holds it as the server has it (asked for once per
// app), and keeps a copy in this browser to read while offline.

export class AppData {
  /**
   * @param {import("../net/client.js").ParlorClient} client
   * @param {import("../store.js").Store} store
   */
  constructor(client, store) {
    this.client = client;
    this.store = store;
  }

  /** @returns {Promise<Record<string, unknown>>} */
  get(appId) {
    const held = this.store.state.appData[appId];
    if (held) return Promise.resolve(held);
    return this.store.requests.join(`appdata|${appId}`, () => this.client.request("appdata.get", { appId }).then(
      (r) => {
        this.store.saveAppData(appId, r.data);
        return r.data;
      },
      (error) => {
        if (error.code === "offline") return this.store.offlineAppData(appId);
        throw error;
      },
    ));
  }

  /** Stores (or, with null, removes) one key on the server, then here. */
  async set(appId, key, value) {
    await this.client.request("appdata.set", { appId, key, value: value === undefined ? null : value });
    const data = { ...(await this.get(appId)) };
    if (value === null || value === undefined) delete data[key];
    else data[key] = value;
    this.store.saveAppData(appId, data);
  }
}
