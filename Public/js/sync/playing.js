// "Who is playing right now": while this page has a session open in the
// expanded pane (and is visible), it tells the server (`playing`), repeats it
// before the server's mark lapses, and says when it stops; after a reconnect
// it says it again (marks end with the connection). The others' marks come as
// `playing` events into the store.

import { applyPlaying, playingNow } from "../state/playing.js";

/** The server forgets a mark after 300 s; repeat well before. */
const RENEW_MS = 120_000;

export class PlayingMarks {
  /**
   * @param {import("../net/client.js").ParlorClient} client
   * @param {import("../store.js").Store} store
   */
  constructor(client, store) {
    this.client = client;
    this.store = store;
    /** the mark the server holds for this connection, as far as we know */
    this.sent = null;
    this.timer = null;
    store.addEventListener("change", (e) => {
      if (e.detail.parts.has("pane")) this.update();
    });
    client.addEventListener("playing", (e) => this.onEvent(e.detail));
    client.addEventListener("status", (e) => {
      if (e.detail.status === "online") return;
      // the connection's marks ended with it; nor do we know the others' any more
      this.sent = null;
      this.store.update(["playing"], () => ({ playing: {} }));
    });
    client.addEventListener("ready", () => this.update());
    if (typeof document !== "undefined") document.addEventListener("visibilitychange", () => this.update());
  }

  visible() {
    return typeof document === "undefined" || document.visibilityState !== "hidden";
  }

  onEvent(frame) {
    this.store.update(["playing"], (s) => ({
      playing: { ...s.playing, [frame.conversationId]: applyPlaying(s.playing[frame.conversationId], frame) },
    }));
  }

  /** Brings the server's mark in line with the pane. */
  update() {
    const want = playingNow(this.store.state.pane, this.visible());
    const same = want && this.sent && want.conversationId === this.sent.conversationId && want.sessionId === this.sent.sessionId;
    if (same || (!want && !this.sent)) return;
    clearInterval(this.timer);
    this.timer = null;
    if (this.client.status !== "online") return; // said again once ready
    if (this.sent) this.mark(this.sent, false);
    this.sent = want;
    if (!want) return;
    this.mark(want, true);
    this.timer = setInterval(() => this.mark(want, true), RENEW_MS);
  }

  mark({ conversationId, sessionId }, playing) {
    this.client.request("playing", { conversationId, sessionId, playing }).catch((error) => {
      // a session not on the server yet, or the connection gone: nothing to show anyone
      if (playing && this.sent?.sessionId === sessionId && error.code !== "offline") {
        clearInterval(this.timer);
        this.timer = null;
      }
    });
  }
}
