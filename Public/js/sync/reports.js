// How many reports wait for the admins: said at sign-in (openReports) and by the
// `reports` event whenever it changes, kept in the store (part "reports").

export class OpenReports {
  /**
   * @param {import("../net/client.js").ParlorClient} client
   * @param {import("../store.js").Store} store
   */
  constructor(client, store) {
    client.addEventListener("ready", (e) => this.set(e.detail.openReports ?? 0));
    client.addEventListener("reports", (e) => this.set(e.detail.open));
    this.store = store;
  }

  set(open) {
    if (this.store.state.openReports === open) return;
    this.store.update(["reports"], () => ({ openReports: open }));
  }
}
