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
    /** refused as rate_limited: the timer that says the pane's state again after the wait */
    this.retry = null;
    store.addEventListener("change", (e) => {
      if (e.detail.parts.has("pane")) this.update();
    });
    client.addEventListener("playing", (e) => this.onEvent(e.detail));
    client.addEventListener("status", (e) => {
      if (e.detail.status === "online") return;
      // the connection's marks ended with it; nor do we know the others' any more
      this.sent = null;
      clearInterval(this.timer);
      this.timer = null;
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
    if (this.retry) return; // said again when the rate limit's wait is over
    if (this.sent) this.mark(this.sent, false);
    this.sent = want;
    if (!want) return;
    this.mark(want, true);
    this.timer = setInterval(() => this.mark(want, true), RENEW_MS);
  }

  mark({ conversationId, sessionId }, playing) {
    this.client.request("playing", { conversationId, sessionId, playing }).catch((error) => {
      if (error.code === "rate_limited" && !this.retry) {
        // opened and closed too fast: wait, then say once what the pane shows by then
        // (a mark the server kept meanwhile lapses by itself)
        clearInterval(this.timer);
        this.timer = null;
        this.sent = null;
        this.retry = setTimeout(() => {
          this.retry = null;
          this.update();
        }, error.retryAfterMs || 2000);
      }
      // else: the connection went (said again once ready), or a session the server does
      // not know: the others just do not see a face
    });
  }
}
