// The browser's notifications of new messages, for a person who turned them on
// (Account and devices): one per conversation, replaced by its next message and
// closed once it is read, here or on another device. They come while a tab of
// Parlor is open; a closed tab tells nothing (that would need a push service
// outside this server). Shown through a service worker (notices-worker.js):
// a phone's browser has no other way, and a click still opens the conversation
// after the tab closed. The choice is this browser's, for this account; which
// conversations tell of what is each member's level there (sync/notifyLevels.js).

import { readJSON, writeJSON, forget } from "../kept.js";

const KEY = (userId) => `parlor.notify.${userId}`;
const WORKER = "/js/notices-worker.js";

/**
 * Whether notifications can be had here: "on", "off" (not chosen), "blocked" (the
 * browser refused them for this site), "insecure" (not over HTTPS) or "unsupported".
 * @param {string | undefined} userId
 */
export function noticeState(userId) {
  if (!isSecureContext) return "insecure";
  if (typeof Notification === "undefined" || !("serviceWorker" in navigator)) return "unsupported";
  if (Notification.permission === "denied") return "blocked";
  return userId !== undefined && readChoice(userId) && Notification.permission === "granted" ? "on" : "off";
}

/**
 * Turns them on (asking the browser, which needs the click that calls this) or off.
 * @returns {Promise<string>} the state after, as `noticeState` says it
 */
export async function chooseNotices(userId, on) {
  if (on && noticeState(userId) === "off") {
    const permission = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
    writeChoice(userId, permission === "granted");
  } else if (!on) {
    writeChoice(userId, false);
  }
  return noticeState(userId);
}

const readChoice = (userId) => readJSON(KEY(userId), false) === true;

function writeChoice(userId, on) {
  if (on) writeJSON(KEY(userId), true);
  else forget(KEY(userId));
}

export class Notices {
  /**
   * @param {{onOpen: (conversationId: string) => void, onElsewhere?: () => void}} opts
   * `onElsewhere`: another tab's being in front is over (it went without saying so)
   */
  constructor({ onOpen, onElsewhere }) {
    /** the worker's registration, once asked for (only when notifications are on) */
    this.worker = null;
    /**
     * The browser's notifications are shown, listed and closed one call at a time, in
     * all of this browser's tabs (a lock): Chromium drops a notification still being
     * shown from a list asked for meanwhile (8 to 14 of 30 in a test that listed while
     * it showed, none without), and then nothing can close it once it is read.
     */
    this.queue = Promise.resolve();
    /** conversationId → the seq of the message told of, each closed once read */
    this.told = new Map();
    // One tab of this browser tells (the holder of a lock): two tabs in the background
    // each rang for every message. Without the Web Locks API, each tab tells.
    this.leader = !globalThis.navigator?.locks;
    globalThis.navigator?.locks?.request("parlor.notices", () => {
      this.leader = true;
      return new Promise(() => {}); // held until the tab goes
    });
    // Nor does any while another tab of this browser is in front: a tab in the back rang
    // for each message read in the front one, then closed it when the read mark came.
    this.tab = Math.random().toString(36).slice(2);
    this.attendedTabs = new Set();
    this.attending = false;
    this.onElsewhere = onElsewhere;
    // A tab that went without saying so (its "not in front" lost as its page was torn
    // down, or a reloading tab's old page answering the new one's question as it went)
    // would count as in front for good, and nothing rang again in this browser. Each
    // tab holds a lock named for it while it lives; another tab told it is in front
    // waits for that lock, which the browser gives once the tab is gone.
    this.watched = new Set();
    this.alive = globalThis.navigator?.locks
      ? new Promise((granted) => navigator.locks.request(TAB_LOCK + this.tab, () => { granted(); return new Promise(() => {}); }))
      : Promise.resolve();
    this.channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("parlor.attention") : null;
    this.channel?.addEventListener("message", (e) => {
      if (typeof e.data?.tab !== "string") return;
      if (e.data.attended) {
        this.attendedTabs.add(e.data.tab);
        this.watch(e.data.tab);
      } else {
        this.attendedTabs.delete(e.data.tab);
      }
      if (e.data.ask && this.attending) this.post({ tab: this.tab, attended: true });
    });
    this.post({ tab: this.tab, attended: false, ask: true });
    addEventListener("pagehide", () => this.attended(false));
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.addEventListener("message", (e) => {
        if (e.data?.type === "parlor.open" && typeof e.data.conversationId === "string") onOpen(e.data.conversationId);
      });
      navigator.serviceWorker.startMessages();
    }
  }

  /** This tab is in front and has the focus (true), or not: the other tabs hear it. */
  attended(on) {
    if (on === this.attending) return;
    this.attending = on;
    this.post({ tab: this.tab, attended: on });
  }

  /** Said to the other tabs once this tab holds its lock, so they can wait for it. */
  post(message) {
    this.alive.then(() => this.channel?.postMessage(message));
  }

  /** Forgets a tab said to be in front once it is gone (its lock given to this one). */
  watch(tab) {
    if (!globalThis.navigator?.locks || this.watched.has(tab)) return;
    this.watched.add(tab);
    navigator.locks.request(TAB_LOCK + tab, () => {
      this.watched.delete(tab);
      if (this.attendedTabs.delete(tab)) this.onElsewhere?.();
    });
  }

  /** Another tab of this browser is in front. */
  get attendedElsewhere() {
    return this.attendedTabs.size > 0;
  }

  /**
   * The worker, registered the first time it is needed, once active (`serviceWorker.ready`
   * waits for a worker of the page's own scope, which this is not).
   */
  ready() {
    this.worker ??= navigator.serviceWorker.register(WORKER).then((registration) => new Promise((resolve, reject) => {
      const worker = registration.installing || registration.waiting;
      if (registration.active || !worker) return resolve(registration);
      worker.addEventListener("statechange", () => {
        if (worker.state === "activated") resolve(registration);
        else if (worker.state === "redundant") reject(new Error("the notifications' worker did not start"));
      });
    }));
    this.worker.catch(() => {
      this.worker = null; // asked for again next time
    });
    return this.worker;
  }

  /**
   * Tells of a conversation's new message `seq`, in place of what it told of it before;
   * `quiet`: the same news said again (the message told of was deleted), without a sound.
   */
  async show(conversationId, seq, title, body, { quiet = false } = {}) {
    if (!this.leader) return;
    this.told.set(conversationId, seq);
    try {
      const registration = await this.ready();
      // the same tag replaces what this conversation's last notification said, also another tab's
      await this.inTurn(() => registration.showNotification(title, { body, tag: tag(conversationId), renotify: !quiet, silent: quiet, icon: "/favicon.svg", data: { conversationId } }));
    } catch {
      // refused meanwhile (the site's permission taken back): the title still counts
    }
  }

  /** Runs `call` once the calls before it have ended, this tab's and the others' (see `queue`). */
  inTurn(call) {
    if (globalThis.navigator?.locks) return navigator.locks.request(CALLS_LOCK, () => call());
    const turn = this.queue.then(call);
    this.queue = turn.catch(() => {});
    return turn;
  }

  /** Closes what it told of a conversation (read here or elsewhere, or left). */
  close(conversationId) {
    if (!this.told.delete(conversationId)) return Promise.resolve();
    return this.closeTagged({ tag: tag(conversationId) });
  }

  /**
   * Closes every notification of this site (signed out, or turned off): what they say
   * must not stay on the screen after the account left the browser.
   */
  closeAll() {
    this.told.clear();
    return "serviceWorker" in navigator ? this.closeTagged({}) : Promise.resolve();
  }

  async closeTagged(filter) {
    try {
      const registration = await (this.worker ?? navigator.serviceWorker.getRegistration(WORKER));
      for (const n of (await this.inTurn(() => registration?.getNotifications(filter))) ?? []) n.close();
    } catch {
      // nothing shown that could be closed
    }
  }
}

const tag = (conversationId) => `parlor:${conversationId}`;
const TAB_LOCK = "parlor.tab.";
const CALLS_LOCK = "parlor.notices.calls";
