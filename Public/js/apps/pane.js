// The app pane: where an app runs, compact (in the keyboard's place, under
// the composer) or expanded (over the conversation, with a handle to
// collapse). It runs the lifecycle plans of apps/lifecycle.js one at a time,
// and answers the calls of the app in it. What the pane shows (which app, in
// which style, for which conversation and selected message) is the store's
// `pane`; this view holds only the frame and the queue of intents.

import { h, icon, ICONS, replaceChildren } from "../views/dom.js";
import { AppFrame } from "./frame.js";
import { appIcon } from "../views/appIcon.js";
import { checkedImage } from "../state/imageType.js";
import { planOpen, planClose, planTransition, stateAfter, COMPACT, EXPANDED } from "./lifecycle.js";
import { appMessageSnapshot, conversationSnapshot, draftToMessage } from "./snapshot.js";
import { participantsKey } from "../state/participants.js";
import { nameParticipants } from "../state/previews.js";
import { dueRefused, winnerOf, baseOf } from "../state/refused.js";
import { say } from "../views/spoken.js";

const refused = (code, message) => Object.assign(new Error(message), { code });

/** What an app may no longer do once the user has closed it (it is still saying goodbye). */
const PUTS_IN_COMPOSER = new Set(["insert", "send", "insertText", "insertSticker", "insertAttachment", "requestPresentationStyle"]);

/** Sends an app did not hear (it was closed) kept for it, at most (the newest). */
const UNHEARD_KEPT = 32;

/** The seqs an open app was handed through didReceive that are remembered, to hand none twice. */
const HEARD_KEPT = 64;

export class AppPane extends EventTarget {
  /**
   * @param {object} deps
   * @param {HTMLElement} deps.element  the pane's <section>
   * @param {import("../store.js").Store} deps.store
   * @param {import("../sync.js").Sync} deps.sync
   * @param {import("./registry.js").AppCatalog} deps.catalog
   * @param {import("../outgoing.js").Outgoing} deps.outgoing
   * @param {(text: string) => void} deps.announce
   */
  constructor({ element, store, sync, catalog, outgoing, announce }) {
    super();
    Object.assign(this, { element, store, sync, catalog, outgoing, announce });
    this.frame = null;
    this.queue = Promise.resolve();
    this.build();
    outgoing.addEventListener("startsending", (e) => this.forwardSending("didStartSending", e.detail));
    outgoing.addEventListener("cancelsending", (e) => this.forwardSending("didCancelSending", e.detail));
    outgoing.addEventListener("staged", (e) => this.sayStaged(e.detail.item));
    // a move refused with no app awaiting it (sent from the outbox after a reload)
    sync.addEventListener("sendfailed", (e) => {
      if (e.detail.error.code === "session_conflict") this.offerRefused();
    });
    // not an Escape pressed in a dialog: that one closes the dialog, and the dialog may
    // be closed already when this hears it (then the pane closed too, and the focus
    // went to the message box: seen once under load, after the App Store)
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && !(e.target instanceof Element && e.target.closest("dialog")) && this.escape()) e.preventDefault();
    });
  }

  /** Escape, in the host or forwarded by the app: expanded → compact → closed. */
  escape() {
    if (!this.state.active || document.querySelector("dialog[open]")) return false;
    if (this.state.style === EXPANDED) this.transition(COMPACT);
    else this.close();
    return true;
  }

  build() {
    this.title = h("span", { class: "pane-title" });
    this.toggle = h("button", { class: "icon-button pane-toggle", type: "button", onclick: () => this.toggleStyle() });
    this.closeButton = h("button", { class: "icon-button", type: "button", onclick: () => this.close() }, icon(ICONS.close));
    // a pointer taps or drags it (dragHandle); a click with no pointer behind it (detail 0) is Enter or Space
    // a grip for a finger or a mouse; the keyboard and screen readers have the toggle,
    // which says the same (two buttons named alike read as one said twice)
    this.handle = h("button", { class: "pane-handle", type: "button", tabindex: "-1", "aria-hidden": "true", onclick: (e) => e.detail === 0 && this.toggleStyle() });
    this.dragHandle();
    this.body = h("div", { class: "pane-body" });
    // shown instead of the offline banner while the pane is expanded (app.css): the
    // banner floated over the app's own heading there
    const offline = h("span", { class: "pane-offline", "aria-hidden": "true" }, icon(ICONS.offline), "Offline");
    // An expanded app covers the transcript: a message that came meanwhile showed
    // nowhere (a phone user's review). Tapping this goes back to compact, where it is.
    this.news = h("button", { class: "pane-news", type: "button", hidden: true, onclick: () => this.transition(COMPACT) });
    replaceChildren(this.element, this.handle, h("div", { class: "pane-bar" }, this.title, h("span", { class: "spacer" }), this.news, offline, this.toggle, this.closeButton), this.body);
    this.element.hidden = true;
  }

  toggleStyle() {
    if (this.state.active) this.transition(this.state.style === EXPANDED ? COMPACT : EXPANDED);
  }

  /** The handle is dragged, as in the Daily Quote seed: up expands, down collapses; a tap toggles. */
  dragHandle() {
    const DRAG_PX = 24;
    this.handle.addEventListener("pointerdown", (e) => {
      const y0 = e.clientY;
      this.handle.setPointerCapture(e.pointerId);
      const up = (ev) => {
        this.handle.removeEventListener("pointerup", up);
        this.handle.removeEventListener("pointercancel", up);
        if (ev.type !== "pointerup") return;
        const dy = ev.clientY - y0;
        if (Math.abs(dy) < DRAG_PX) return this.toggleStyle();
        const style = dy < 0 ? EXPANDED : COMPACT;
        if (this.state.active && this.state.style !== style) this.transition(style);
      };
      this.handle.addEventListener("pointerup", up);
      this.handle.addEventListener("pointercancel", up);
    });
  }

  /** Runs intents one after another (each one plans against the state it finds). */
  enqueue(fn) {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch((error) => console.warn("Parlor pane:", error));
    return run;
  }

  /** Opens an app: from the drawer (no message) compact, from a bubble expanded. */
  open(appId, message) {
    return this.enqueue(async () => {
      const conversationId = this.store.state.currentId;
      if (!conversationId) return;
      if (this.state.active && this.conversationId !== conversationId) await this.run(planClose(this.state));
      const app = this.catalog.get(appId);
      if (!app) throw refused("unknown_app", `${appId} is not on this server`);
      await this.run(planOpen(this.state, { appId, message }), { conversationId, app });
      await this.handOver();
    });
  }

  /**
   * The app never said it was ready: its pane says so, with Try again (and, offline,
   * tries again by itself once the connection is back), instead of staying blank; an
   * author learns why in the console. Its hooks are not sent, so Close is at once.
   */
  startFailed(ctx, step, note, why) {
    const name = ctx.app.name;
    const offline = this.offline;
    note.replaceChildren(
      offline ? `You're offline: ${name} could not be loaded. It opens when you're back.` : `${name} did not start.`,
    );
    const retry = () => {
      this.sync.client.removeEventListener("status", whenBack);
      if (this.frame?.iframe === frameNow && !this.frame.closed) this.reopen(step.appId, step.message);
    };
    const whenBack = (e) => { if (e.detail.status === "online") retry(); };
    const frameNow = this.frame.iframe;
    const again = h("button", { type: "button", class: "button small", onclick: retry }, "Try again");
    if (offline) this.sync.client.addEventListener("status", whenBack);
    note.append(" ", again);
    this.announce(offline ? `You're offline: ${name} could not be loaded.` : `${name} did not start.`);
    if (!offline) {
      console.warn(why === "loaded"
        ? `Parlor: ${name} (${ctx.app.entry}) loaded but never said it was ready: does its script call YourApp.start()? See the app frame's console for an error.`
        : `Parlor: ${name} (${ctx.app.entry}) did not load within a minute.`);
    }
  }

  get offline() {
    return this.sync.client.status !== "online" || navigator.onLine === false;
  }

  /** Closes the app and opens it again as it was asked for. */
  reopen(appId, message) {
    return this.enqueue(async () => {
      if (this.state.active) await this.run(planClose(this.state));
    }).then(() => this.open(appId, message));
  }

  /** Hands the active app its refused moves (see handOver), after what is queued. */
  offerRefused() {
    return this.enqueue(() => this.handOver());
  }

  /**
   * A move of the active app refused while no app was there to hear it (closed
   * before the refusal came back) is handed to it now, as didFailSending: the
   * moves of the session it shows, or all of them when it shows none (opened
   * from the drawer). The app says whether it took the move; one it took is not
   * handed again (its grey copy stays until the move is made again or discarded).
   */
  async handOver() {
    const s = this.state;
    const frame = this.frame;
    // a frame that never started hears nothing: what it would hear waits for the next one
    if (!s.active || !frame || frame.failed || s.style === "transcript") return;
    await this.handOverUnheard();
    const due = dueRefused(this.store.state.refused, { conversationId: s.conversationId, appId: s.appId, sessionId: s.selected?.session?.id ?? null });
    for (const record of due) {
      if (frame !== this.frame || frame.closed || frame.leaving) return;
      const t = this.store.transcript(record.conversationId);
      const winner = winnerOf(t, record);
      if (!winner) continue;
      const base = baseOf(t, record);
      const value = await frame.hook("didFailSending", {
        message: this.snapshotOf(record.message, { senderParticipantId: this.participants?.local }),
        current: this.snapshotOf(winner),
        base: base ? this.snapshotOf(base) : null,
        conversation: this.conversationFor(undefined),
      });
      if (value?.taken === true) this.sync.takeRefused(record.clientId);
    }
  }

  /**
   * Its staged messages sent while it was closed go to the active app as
   * didSendWhileClosed, oldest first, each once.
   */
  async handOverUnheard() {
    const s = this.state;
    const frame = this.frame;
    // one started in this frame is still its own to hear (its insert answers it)
    const mine = (u) => u.conversationId === s.conversationId && u.appId === s.appId && u.startedIn !== frame;
    for (const u of this.store.unheard().filter(mine)) {
      if (frame !== this.frame || frame.closed || frame.leaving) return;
      this.store.saveUnheard(this.store.unheard().filter((v) => v !== u));
      await frame.hook("didSendWhileClosed", { message: this.snapshotOf(u.message, { isPending: false, senderParticipantId: this.participants?.local }) });
    }
  }

  close() {
    // From now on the app is leaving: a refusal that comes back before it has gone
    // is not handed to it (it would be merged into a list about to be dropped), but
    // kept and offered when the app is opened again.
    if (this.frame) this.frame.leaving = true;
    return this.enqueue(() => this.run(planClose(this.state)));
  }

  transition(style) {
    return this.enqueue(() => this.run(planTransition(this.state, style)));
  }

  /** {active, appId, style, conversationId, selected} or {active: false} */
  get state() {
    return this.store.state.pane;
  }

  setState(pane) {
    this.store.update(["pane"], () => ({ pane }));
  }

  get activeAppId() {
    return this.state.active ? this.state.appId : null;
  }

  get conversationId() {
    return this.state.conversationId;
  }

  /** The active app's participant map, as the store has it now (refreshed when members change). */
  get participants() {
    return this.store.state.participants[participantsKey(this.state.conversationId, this.state.appId)];
  }

  async run(steps, ctx = {}) {
    if (this.frame && steps.some((step) => step.do === "unmount")) this.frame.leaving = true;
    for (const step of steps) {
      if (step.call) {
        await this.callStep(step);
        continue;
      }
      await this.doStep(step, ctx);
      const next = stateAfter(this.state, [step]);
      this.setState(next.active ? { ...this.state, ...next } : next);
    }
    this.dispatchEvent(new Event("change"));
  }

  snapshotOf(message, extra = {}) {
    return appMessageSnapshot(message, { origin: location.origin, ...extra });
  }

  conversationFor(selected) {
    const c = this.store.conversation(this.conversationId);
    return conversationSnapshot(this.participants, this.store.state.user.id, c ? c.members : [], selected);
  }

  async callStep(step) {
    const f = this.frame;
    if (!f || f.failed) return; // hooks are not sent to it (nor their snapshots made)
    switch (step.call) {
      case "willBecomeActive":
        await f.hook("willBecomeActive", { style: this.state.style, conversation: this.conversationFor(this.state.selected) });
        break;
      case "willTransition":
      case "didTransition":
        await f.hook(step.call, { style: step.arg });
        break;
      case "didSelect":
        await f.hook("didSelect", { conversation: this.conversationFor(this.state.selected) });
        break;
      default:
        await f.hook(step.call, {});
    }
  }

  async doStep(step, ctx) {
    try {
      await this.doStepOnly(step, ctx);
    } finally {
      this.coverChat();
    }
  }

  /**
   * The expanded pane covers the conversation: what it covers is inert, so the
   * keyboard cannot reach it and a screen reader does not read it first.
   */
  coverChat() {
    const covering = !this.element.hidden && this.element.dataset.style === EXPANDED;
    for (const el of this.element.parentElement?.children ?? []) {
      // what is said stays said ("Ben has Party list open", the offline banner)
      const spoken = el.matches("[role=status], [role=alert], [aria-live]:not([aria-live=off])");
      if (el !== this.element) el.inert = covering && !spoken;
    }
  }

  async doStepOnly(step, ctx) {
    switch (step.do) {
      case "mount": {
        // The participant map (into the store, where this.participants reads it) is
        // asked for while the app's page loads: a first opening waited a round trip
        // for it before making the frame. The app's calls wait for it (handleCall).
        const asked = this.sync.participants(ctx.conversationId, step.appId);
        const before = this.state;
        const selected = step.message ? this.snapshotOf(step.message) : null;
        this.frame = new AppFrame({ app: ctx.app, style: step.style, handle: (m, a, f, activation) => this.handleCall(m, a, f, activation), onHidden: (f) => this.showHidden(f), onEscape: () => this.escape() });
        this.frame.participantsAsked = asked.then(() => {}, () => {});
        this.title.replaceChildren(appIcon(ctx.app, "small"), ctx.app.name);
        this.element.setAttribute("aria-label", `${ctx.app.name} app`);
        this.element.dataset.style = step.style;
        this.element.dataset.appId = step.appId;
        this.element.classList.add("mounting");
        this.element.hidden = false;
        this.body.replaceChildren(this.frame.iframe);
        this.setState({ active: true, appId: step.appId, style: step.style, conversationId: ctx.conversationId, selected });
        this.updateControls();
        this.dispatchEvent(new Event("layout"));
        const note = h("p", { class: "pane-note", role: "status" }, `Opening ${ctx.app.name}…`);
        this.body.append(note);
        try {
          await asked;
        } catch (error) {
          this.frame.failed = true; // no hooks, no calls: it has no map (a reopening asks again)
          if (!this.offline) {
            this.mountUndone(before);
            throw error;
          }
          // offline: said in the pane, and opened once back, as when its files could not come
          this.startFailed(ctx, step, note, "offline");
          break;
        }
        try {
          await this.frame.ready;
          note.remove();
        } catch (error) {
          this.startFailed(ctx, step, note, error.why);
        }
        break;
      }
      case "present":
        this.element.classList.remove("mounting");
        this.element.dataset.style = step.style;
        this.dispatchEvent(new Event("layout"));
        this.toggle.focus();
        break;
      case "resize":
        if (step.style !== EXPANDED) this.news.hidden = true;
        this.element.dataset.style = step.style;
        if (this.frame) this.frame.iframe.dataset.style = step.style; // was left at the style it opened in
        this.setState({ ...this.state, style: step.style });
        this.updateControls();
        this.dispatchEvent(new Event("layout"));
        break;
      case "select":
        this.setState({ ...this.state, selected: this.snapshotOf(step.message) });
        break;
      case "hide":
        this.news.hidden = true;
        this.element.hidden = true;
        this.dispatchEvent(new Event("layout"));
        break;
      case "unmount":
        if (this.confirming) this.sendDialog.close("cancel");
        this.frame?.destroy();
        this.frame = null;
        delete this.element.dataset.appId;
        this.body.replaceChildren();
        this.dispatchEvent(new Event("closed"));
        break;
    }
  }

  /** The participant map was refused while online (no longer a member): the pane goes
   * as if never opened, and the opening says why (open()'s caller announces it). */
  mountUndone(before) {
    this.frame.destroy();
    this.frame = null;
    delete this.element.dataset.appId;
    this.body.replaceChildren();
    this.element.classList.remove("mounting");
    this.element.hidden = true;
    this.setState(before);
    this.dispatchEvent(new Event("layout"));
  }

  /** Someone else's message came to the open conversation: said in the bar while expanded. */
  noteNews(conversationId, senderName) {
    if (!this.state.active || conversationId !== this.conversationId || this.state.style !== EXPANDED) return;
    this.news.textContent = `${senderName} wrote`; // the name first: it survives a narrow bar
    this.news.setAttribute("aria-label", `${senderName} wrote: show the conversation`); // what it says, first (label in name)
    this.news.hidden = false;
  }

  updateControls() {
    const name = this.catalog.name(this.state.appId);
    const expanded = this.state.style === EXPANDED;
    this.toggle.replaceChildren(icon(expanded ? ICONS.collapse : ICONS.expand));
    this.toggle.setAttribute("aria-label", expanded ? `Collapse ${name}` : `Expand ${name}`);
    this.closeButton.setAttribute("aria-label", `Close ${name}`);
  }

  // ---- events from the conversation -------------------------------------------

  /**
   * A message arrived: the active app hears of its own messages from others, and
   * from this person's other devices (a phone's open game never heard the move made
   * on the other one, then refused the next as made on a stale state).
   */
  deliver(conversationId, message) {
    if (message.kind !== "app") return;
    const ownHere = message.sender === this.store.state.user?.id && this.sync.outbox.sentHere.has(message.clientId);
    if (ownHere && this.sync.outbox.retried.delete(message.clientId)) {
      // Sent by Retry in the transcript after the app was told it was not sent: the
      // app hears it went (now, or when next there), or it kept the move as unsent
      // (WenderPic said "Not sent" and kept the lines, which Done sent again).
      this.keepUnheard(conversationId, { appId: message.appId, message, ref: null });
      if (this.state.active && conversationId === this.conversationId && message.appId === this.state.appId) this.offerRefused();
      return;
    }
    if (!this.state.active || conversationId !== this.conversationId) return;
    if (message.appId !== this.state.appId || ownHere) return;
    this.enqueue(async () => {
      if (!this.frame || this.state.appId !== message.appId) return;
      await this.hearOnce(this.frame, message.seq, this.snapshotOf(message));
    });
  }

  /**
   * didReceive, once per message: a move refused as a conflict after the app had
   * heard the winner live (catching up after a reconnect) was handed it twice.
   */
  async hearOnce(frame, seq, snapshot) {
    if (seq !== undefined && frame.heard.includes(seq)) return;
    if (seq !== undefined) frame.heard = [...frame.heard, seq].slice(-HEARD_KEPT);
    await frame.hook("didReceive", { message: snapshot, conversation: this.conversationFor(undefined) });
  }

  /** Membership changed: the app's remote participants change too. */
  async membersChanged(conversationId) {
    if (!this.state.active || conversationId !== this.conversationId) return;
    await this.sync.participants(conversationId, this.state.appId); // the map asked again for the newcomer
    this.frame?.hook("conversationDidChange", { conversation: this.conversationFor(undefined) });
  }

  /**
   * This user's storage of an app changed elsewhere (another device): the open app
   * of it hears storageDidChange, while active, in turn with its other hooks.
   */
  storageChanged({ appId, key, value }) {
    if (!this.state.active || this.state.appId !== appId) return;
    const frame = this.frame;
    this.enqueue(async () => {
      if (!this.state.active || this.frame !== frame || this.state.appId !== appId) return;
      await frame.hook("storageDidChange", { key, value });
    });
  }

  forwardSending(hook, { conversationId, item }) {
    if (!item.ref) return;
    const here = this.state.active && conversationId === this.conversationId && item.appId === this.state.appId;
    if (here && item.frame === this.frame) {
      // Kept until the app hears it was sent (its insert answers): closed or reloaded
      // before that, it kept the move as unsent (WenderPic's lines came back as a draft,
      // and Done sent them again); it hears didSendWhileClosed when it is next there.
      if (hook === "didStartSending") this.keepUnheard(conversationId, item, this.frame);
      const snap = this.snapshotOf(item.message, { ref: item.ref, isPending: hook === "didCancelSending", senderParticipantId: this.participants.local });
      this.enqueue(async () => {
        if (this.frame && item.frame === this.frame) await this.frame.hook(hook, { message: snap });
        else if (hook === "didStartSending") this.keepUnheard(conversationId, item);
      });
      return;
    }
    // The app that staged it was closed (or closed and opened again) before Send:
    // it hears of it when it is next there (handOver: didSendWhileClosed), so what it
    // keeps of that move (a drawing in progress, a typed guess) ends as if it had
    // watched it go. A removal from the composer meanwhile changes nothing it keeps.
    if (hook === "didStartSending") {
      this.keepUnheard(conversationId, item);
      if (here) this.offerRefused();
    }
  }

  /** An app's image for a message, checked by its bytes and typed by them (state/imageType.js), or null. */
  async checkedAppImage(blob) {
    if (!blob) return null;
    try {
      return await checkedImage(blob);
    } catch (error) {
      throw refused(error.code || "not_an_image", error.message);
    }
  }

  keepUnheard(conversationId, item, startedIn = null) {
    const record = { conversationId, appId: item.appId, message: item.message, ref: item.ref ?? null, startedIn };
    this.store.saveUnheard([...this.store.unheard(), record].slice(-UNHEARD_KEPT));
  }

  /** The app that started sending it heard it was sent: nothing to hand over. */
  heard(frame, ref) {
    const left = this.store.unheard().filter((u) => !(u.startedIn === frame && u.ref === ref));
    if (left.length !== this.store.unheard().length) this.store.saveUnheard(left);
  }

  // ---- calls from the app ---------------------------------------------------------

  /** An app put a message in the message box: nothing is sent until the person sends it, so say where it waits. */
  sayStaged({ message: m, appId }) {
    const caption = m.kind === "app" && (m.layout?.caption || m.summaryText);
    const what = caption ? `“${this.named(caption)}”` : m.kind === "sticker" ? "a sticker" : m.kind === "attachment" ? "a picture" : "a message";
    say(`${this.catalog.name(appId)}: ${what} is in the message box, ready to send. Press Send.`);
  }

  /** An app's text with its participants' "$<id>" as names. */
  named(text) {
    return nameParticipants(text, this.participants, (userId) => this.store.memberName(this.state.conversationId, userId));
  }

  async handleCall(method, args, frame, activation = null) {
    if (frame !== this.frame) throw refused("inactive", "this app is not active");
    await frame.participantsAsked; // a call made as the app starts, before the map came
    if (frame !== this.frame || frame.failed) throw refused("inactive", "this app is not active");
    if (frame.leaving && PUTS_IN_COMPOSER.has(method)) throw refused("inactive", "this app is closing");
    const appId = this.state.appId;
    const conversationId = this.conversationId;
    switch (method) {
      case "insert": {
        const message = draftToMessage(appId, args.message);
        const image = await this.checkedAppImage(args.image);
        // A tap or key in the app put its move in the message box: Send is next, so it
        // gets the focus (a keyboard user had to Shift+Tab out of the app to find it).
        const sendIsNext = frame.sendVerdict(activation) === "yes";
        try {
          const staging = this.outgoing.stage(conversationId, { message, appId, ref: args.ref, frame, image });
          if (sendIsNext) this.dispatchEvent(new CustomEvent("sendisnext", { detail: { iframe: frame.iframe } }));
          const stored = await staging;
          if (frame === this.frame && !frame.closed) this.heard(frame, args.ref ?? null);
          return this.snapshotOf(stored);
        } catch (error) {
          // not sent: the app hears why now, or, refused, as didFailSending when next there
          this.heard(frame, args.ref ?? null);
          throw await this.sendError(error, frame);
        }
      }
      case "send": {
        const verdict = this.confirming ? "no" : frame.sendVerdict(activation);
        const noGesture = () => refused("no_user_interaction", "send() is only allowed right after the user interacted with the app");
        if (verdict === "no") throw noGesture();
        const message = draftToMessage(appId, args.message);
        const image = await this.checkedAppImage(args.image);
        if (verdict === "ask") {
          // One question at a time: two sends in one breath both got "ask" before
          // either opened it, and one answer closed both (a yes sent both messages).
          if (this.confirming) throw noGesture();
          if (!(await this.confirmSend(frame, message))) throw refused("cancelled", "the user did not send it");
        }
        if (frame !== this.frame) throw refused("inactive", "this app is not active");
        try {
          const stored = await this.sync.send(conversationId, message, { image });
          return this.snapshotOf(stored);
        } catch (error) {
          const refusal = await this.sendError(error, frame);
          // A move the app sent itself, and heard refused, is its own to show (an app
          // author's review): its grey copy went only with the app's next insert, and
          // an app that moves with send() never makes one (nine copies after a double tap).
          if (refusal.code === "session_conflict" && error.clientId && frame === this.frame && !frame.closed) {
            this.sync.discard(conversationId, error.clientId);
          }
          throw refusal;
        }
      }
      case "insertText":
        this.outgoing.insertText(conversationId, args.text);
        return null;
      case "insertSticker":
        this.outgoing.stage(conversationId, { message: { kind: "sticker", image: args.image, description: args.description || "" }, appId });
        return null;
      case "insertAttachment":
        this.outgoing.stage(conversationId, { message: { kind: "attachment", image: args.image, name: args.name || "image" }, appId });
        return null;
      case "upload": {
        const hash = await this.sync.upload(args.blob);
        return { hash };
      }
      case "requestPresentationStyle":
        await this.transition(args.style);
        return { style: this.state.style };
      case "dismiss":
        this.close();
        return null;
      case "storage.get": {
        const data = await this.sync.appData(appId);
        return Object.prototype.hasOwnProperty.call(data, args.key) ? data[args.key] : null;
      }
      case "storage.set":
        await this.sync.setAppData(appId, args.key, args.value ?? null).catch((e) => {
          throw refused(e.code || "storage_failed", e.message || "could not store this");
        });
        return null;
      case "storage.remove":
        await this.sync.setAppData(appId, args.key, null).catch((e) => {
          throw refused(e.code || "storage_failed", e.message || "could not store this");
        });
        return null;
      case "storage.keys":
        return Object.keys(await this.sync.appData(appId));
      case "contentSize":
        return null;
      default:
        throw refused("unknown_method", method);
    }
  }

  /** An app that kept taking the keyboard is hidden (frame.js); the user may bring it back. */
  showHidden(frame) {
    if (frame !== this.frame) return;
    const name = frame.app.name;
    const notice = h("div", { class: "notice pane-hidden", role: "alert" },
      h("span", null, `${name} was hidden: it tried to take the keyboard while you were typing.`),
      h("button", { class: "button", type: "button", onclick: () => {
        notice.remove();
        frame.show();
      } }, `Show ${name}`));
    this.body.prepend(notice);
    this.announce(`${name} was hidden: it tried to take the keyboard.`);
  }

  /**
   * The host's own question before an app sends without proof that the user
   * clicked or tapped in it: drawn outside the frame, modal (the frame is
   * inert meanwhile), Cancel focused first so a keystroke meant for somewhere
   * else cannot say yes, Send armed only after a moment, Escape cancels.
   * @returns {Promise<boolean>}
   */
  confirmSend(frame, message) {
    if (!this.sendDialog) {
      this.sendTitle = h("h2", { id: "app-send-title" });
      this.sendPreview = h("p", { id: "app-send-preview" });
      this.sendNo = h("button", { class: "button", type: "button", onclick: () => this.sendDialog.close("cancel") }, "Cancel");
      this.sendYes = h("button", { class: "button primary", type: "button", onclick: () => this.sendDialog.close("send") }, "Send");
      this.sendDialog = h("dialog", { id: "app-send", "aria-labelledby": "app-send-title", "aria-describedby": "app-send-preview" },
        h("div", { class: "dialog-body" }, this.sendTitle, this.sendPreview, h("div", { class: "dialog-actions" }, this.sendNo, this.sendYes)));
      document.body.append(this.sendDialog);
    }
    const d = this.sendDialog;
    // what the move does ("Ben voted yes on …") says more than the bubble's caption (the question)
    const text = this.named(message.summaryText || message.layout?.caption || "");
    this.sendTitle.textContent = `${frame.app.name} wants to send a message`;
    this.sendPreview.textContent = text ? `“${text}” will be sent to this conversation.` : "It will be sent to this conversation.";
    this.confirming = true;
    return new Promise((resolve) => {
      d.returnValue = "";
      this.sendYes.disabled = true;
      const arm = setTimeout(() => { this.sendYes.disabled = false; }, 400);
      d.addEventListener("close", () => {
        clearTimeout(arm);
        this.confirming = false;
        const yes = d.returnValue === "send";
        frame.answered(yes);
        // back to the app the question came from (Chromium leaves the focus on the
        // closed dialog's button, which counts as lost)
        if (frame === this.frame && !frame.closed && !frame.hidden) frame.iframe.focus();
        resolve(yes);
      }, { once: true });
      d.showModal();
      this.sendNo.focus();
    });
  }

  /**
   * A refused send: a conflict reaches the app through didReceive too, and the
   * promise's rejection hands it the move. A frame that is gone cannot hear it:
   * the app active now is handed the move instead (handOver).
   */
  async sendError(error, frame) {
    if (error.code === "session_conflict" && error.current) {
      const current = this.snapshotOf(error.current);
      if (frame === this.frame && !frame.closed && !frame.leaving) {
        if (error.clientId) this.sync.takeRefused(error.clientId);
        await this.hearOnce(frame, error.current.seq, current);
      } else this.offerRefused();
      return Object.assign(new Error(error.message || "someone else updated this first"), { code: "session_conflict", current });
    }
    return error;
  }
}
