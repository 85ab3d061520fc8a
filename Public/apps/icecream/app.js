// Ice Cream Builder (seed 003): friends build one sundae, a step each (base,
// scoops, topping). Each step is a message in the sundae's session, staged in
// the message box with insert(); the sender presses Send. The state travels
// as query items (?base=…&scoops=…&topping=…); the bubble shows a picture of
// the sundae so far. Finished sundaes become stickers, kept in this user's app
// storage and shown in the compact view.

import {
  MessagesAppViewController, Message, Session, TemplateLayout, Sticker, SessionConflictError, NewestMessages,
  queryItems, urlWithQueryItems, keepFocus,
} from "/sdk/index.js";
import {
  STEPS, emptySundae, nextStep, isComplete, withPart, toQueryItems, fromQueryItems, describe, summaryOf,
  layoutText, stagedText, addToHistory, historySundaes, part, rebase, scoopWords, scoopRoom, HISTORY_KEY,
} from "./sundae.js";
import { sundaeCanvas, bubbleCanvas } from "./draw.js";
import { historyView, stickersKey, updateStatus } from "./views/history.js";
import { builderView } from "./views/builder.js";
import { finishedView } from "./views/finished.js";

const root = document.getElementById("root");
/** The app storage's refusals of a value too big to keep: worth keeping less. */
const SIZE_REFUSALS = new Set(["too_long", "storage_full"]);

/** The sundae a message carries, or null. */
function sundaeOf(message) {
  return message && typeof message.url === "string" ? fromQueryItems(queryItems(message.url)) : null;
}

/** The last step a sundae has had. */
function lastStep(sundae) {
  return [...STEPS].reverse().find((s) => sundae[s]) ?? null;
}

/** "added the scoops", for notices about a friend's step. */
function stepDone(sundae, step) {
  if (step === "scoops") return `added ${scoopWords(sundae.scoops.slice(-1))}`;
  const name = part(step, sundae[step])?.name.toLowerCase() ?? step;
  if (step === "base") return `started it with a ${name}`;
  return `finished it with ${name}`;
}

class IceCreamBuilder extends MessagesAppViewController {
  constructor() {
    super();
    /** stored sticker history, newest first */
    this.history = [];
    /** what the compact view says we are waiting for */
    this.status = null;
    /** what the expanded view says changed under the user */
    this.notice = null;
    /**
     * The sundae the expanded view works on: {sundae, session, version}, or
     * null for a new one. `version` is the session version it was read at.
     */
    this.target = null;
    /** counts the user's picks of what the builder shows (a bubble, New sundae): see stage */
    this.picks = 0;
    /** the newest message of each sundae's session we have seen */
    this.latest = new NewestMessages();
    this.sendToken = 0;
    /** the step waiting in the message box or on its way: {sundae, step, partId, session, version} */
    this.move = null;
    /** where a transition under way goes: set at willTransition, cleared at didTransition (see viewStyle) */
    this.transitioningTo = null;
  }

  /**
   * The style the view shows. The view switches at willTransition, and a tap
   * on it may come before didTransition updates `presentationStyle` (on a
   * loaded machine, well before): a step chosen on the expanded view then
   * still collapses the pane so the message box shows.
   */
  get viewStyle() {
    return this.transitioningTo ?? this.presentationStyle;
  }

  // ---- lifecycle ------------------------------------------------------------------

  async willBecomeActive(conversation) {
    this.transitioningTo = null;
    this.history = (await this.storage.get(HISTORY_KEY).catch(() => null)) || [];
    this.target = this.targetOf(conversation.selectedMessage);
    this.picks++;
    this.render();
  }

  /** The sticker history changed on another device: this one shows (and later saves) that. */
  storageDidChange(key, value) {
    if (key !== HISTORY_KEY) return;
    this.history = Array.isArray(value) ? value : [];
    this.render();
  }

  willTransition(style) {
    this.transitioningTo = style;
    this.render(style);
  }

  didTransition() {
    this.transitioningTo = null;
  }

  didSelect(message) {
    this.notice = null;
    this.target = this.targetOf(message);
    this.picks++;
    // From compact the host now expands the pane (willTransition renders).
    if (this.viewStyle === "expanded") this.render();
  }

  /**
   * Who made a step: a friend, or this person elsewhere (another device, or an
   * earlier Send of theirs that went first): "A friend added…" was said of one's own.
   */
  whoMade(message) {
    const me = this.activeConversation?.localParticipantIdentifier ?? null;
    return message.senderParticipantIdentifier && message.senderParticipantIdentifier === me ? "You" : "A friend";
  }

  didReceive(message) {
    const sundae = sundaeOf(message);
    if (!sundae || !message.session) return;
    const id = message.session.identifier;
    const target = this.targetOf(message);
    if (isComplete(sundae)) this.keep(sundae, id);
    const news = `${this.whoMade(message)} ${stepDone(sundae, lastStep(sundae))}`;
    const next = nextStep(sundae);
    // the step ours was merged onto may arrive after the merge: ours is already on top of it
    const mergedOnto = this.move && this.move.session.identifier === id && this.move.version !== null && target.version <= this.move.version;
    if (mergedOnto) {
      // nothing to tell
    } else if (this.move && !this.move.sending && this.move.session.identifier === id && this.restage(target, news)) {
      return; // ours, still in the message box, now sits on top of theirs
    } else if (this.status && this.status.sessionId === id && this.status.kind === "staged") {
      this.status = { kind: "stale", sessionId: id, text: `${news} before you sent yours.`, action: "See it" };
    } else if (this.viewStyle !== "expanded") {
      // the compact view tells what a friend did, and offers the next step
      this.status = { kind: "turn", sessionId: id, text: next ? `${news}. Your turn?` : `${news}. It's in your stickers!`, action: next ? (next === "base" ? "Pick a base" : "Add to it") : "See it" };
    }
    const showing = this.target && this.target.session && this.target.session.identifier === id;
    if (showing) {
      this.target = target;
      this.notice = `${news}.`;
    }
    if (showing || this.viewStyle !== "expanded") this.render();
  }

  didStartSending(message) {
    // an older step of ours may be reported late, after it was staged again on a friend's
    if (!this.move || message?.url !== this.move.url) return;
    this.move.sending = true;
    if (this.status && this.status.kind === "staged") {
      this.status = { ...this.status, text: "Sending…" };
      if (this.viewStyle !== "expanded") this.render();
    }
  }

  didCancelSending() {
    // insert() rejects with "cancelled" too; that is where the status is cleared.
  }

  // ---- what the views ask for -------------------------------------------------------

  /** A session-aware reading of a message: {sundae, session, version}, or null. */
  targetOf(message) {
    const sundae = sundaeOf(message);
    if (!sundae) return null;
    const version = this.latest.note(message);
    return { sundae, session: message.session || null, version };
  }

  /** The newest state of the target's session we know of. */
  current() {
    const t = this.target;
    if (!t || !t.session) return t;
    const newer = this.latest.newerThan(t.session.identifier, t.version);
    return (newer && this.targetOf(newer)) || t;
  }

  /** The status line's button: open the sundae it is about. */
  openStatus() {
    const known = this.status?.sessionId ? this.latest.newest(this.status.sessionId) : null;
    if (known) this.target = this.targetOf(known);
    this.picks++;
    this.notice = null;
    this.requestPresentationStyle("expanded");
  }

  startNew() {
    this.target = null;
    this.picks++;
    this.notice = null;
    if (this.viewStyle === "expanded") this.render();
    else this.requestPresentationStyle("expanded");
  }

  /** Takes a step: composes the message and stages it in the message box. */
  async choose(step, partId) {
    const conversation = this.activeConversation;
    const me = conversation.localParticipantIdentifier;
    const t = this.current() ?? { sundae: emptySundae(), session: null, version: 0 };
    if (t.session && t.session.version > t.version) {
      // A friend's step arrived while the user was choosing: show it instead.
      this.target = this.current();
      this.notice = "A friend got there first; here is the sundae now.";
      this.render();
      return;
    }
    let sundae;
    try {
      sundae = withPart(t.sundae, step, partId, me);
    } catch (error) {
      this.notice = `That step is already taken (${error.message}).`;
      this.render();
      return;
    }
    this.notice = null;
    return this.stage({ sundae, step, partId, session: t.session || new Session(), version: t.session ? t.version : null }, stagedText(sundae, step));
  }

  /**
   * Stages a step in the message box and follows it until it is sent, removed
   * or refused. `move.version` is the session version it was taken on (null
   * for a new sundae), so that a step someone took meanwhile is a conflict,
   * not an overwrite. `collapse`: back to compact, so the message box shows.
   */
  async stage(move, text, { collapse = true } = {}) {
    const { sundae, step, session } = move;
    const conversation = this.activeConversation;
    const message = this.compose(sundae, step, session);
    if (move.version !== null) message.baseVersion = move.version;
    const token = ++this.sendToken;
    const picks = this.picks;
    this.move = { ...move, url: message.url, sending: false };
    this.status = { kind: "staged", sessionId: session.identifier, text };
    if (isComplete(sundae)) this.keep(sundae, session.identifier);
    const sending = conversation.insert(message);
    sending.catch(() => {});
    if (collapse && this.viewStyle === "expanded") await this.requestPresentationStyle("compact");
    else this.render();
    try {
      const sent = await sending;
      if (token !== this.sendToken) return;
      this.move = null;
      // The builder goes on from the sent sundae, unless the user picked another while
      // it was on its way (New sundae, on a slow network or a loaded machine): that one
      // stays (it was replaced by the sent one, and its base refused as already taken).
      const sentTarget = this.targetOf(sent);
      if (picks === this.picks) this.target = sentTarget;
      this.status = {
        kind: "sent", sessionId: session.identifier,
        text: isComplete(sundae) ? "Sent! Your sundae is in your stickers." : `Sent! Anyone can add ${nextStep(sundae) === "topping" && scoopRoom(sundae) > 0 ? "a scoop or the topping" : `the ${nextStep(sundae)}`} now.`,
      };
    } catch (error) {
      if (token !== this.sendToken) return;
      this.move = null;
      if (error instanceof SessionConflictError) return this.conflict(error.current, move);
      if (isComplete(sundae)) this.forget(session.identifier);
      this.status = error.code === "cancelled" ? null : { kind: "error", text: `Not sent: ${error.message}` };
    }
    if (this.viewStyle !== "expanded") this.render();
    return undefined;
  }

  /**
   * A step refused while the app was closed (sent offline, say): put on top of
   * the sundae that won, as after a live refusal, or asked about.
   */
  didFailSending(message, error) {
    const mine = sundaeOf(message);
    const step = mine && lastStep(mine);
    if (!step || !message.session || !sundaeOf(error.current)) return false;
    const partId = step === "scoops" ? mine.scoops.at(-1) : mine[step];
    // not awaited: it may ask for another pane style, which waits for this hook to return
    this.conflict(error.current, { sundae: mine, step, partId, session: message.session, version: message.baseVersion ?? null });
    return true;
  }

  /**
   * A friend's step arrived while ours waits in the message box: ours is put on
   * top of theirs at once (the Party list does the same), so one Send does it.
   * @returns {boolean} false when it no longer fits (the Send will be refused, and asked about)
   */
  restage(target, news) {
    const me = this.activeConversation?.localParticipantIdentifier ?? null;
    const merged = target.session ? rebase(target.sundae, this.move.step, this.move.partId, me) : null;
    if (!merged) return false;
    if (this.showing(target.session.identifier)) this.target = target;
    this.stage({ ...this.move, sundae: merged, session: target.session, version: target.version }, `${news} meanwhile; yours is on top. Press Send.`, { collapse: false });
    return true;
  }

  showing(sessionId) {
    return Boolean(this.target && this.target.session && this.target.session.identifier === sessionId);
  }

  /**
   * Someone else's step went first. Ours goes on top of theirs while it still
   * fits (another scoop until the cone is full, the topping on whatever scoops
   * won), staged again for one more Send; only when it cannot are they asked.
   */
  async conflict(current, move) {
    const sessionId = move.session.identifier;
    const target = this.targetOf(current);
    const theirs = target ? target.sundae : null;
    const me = this.activeConversation?.localParticipantIdentifier ?? null;
    const merged = theirs && target.session ? rebase(theirs, move.step, move.partId, me) : null;
    if (isComplete(move.sundae) && !merged) await this.forget(sessionId);
    this.target = target;
    const who = this.whoMade(current);
    if (merged) {
      const news = `${who} ${stepDone(theirs, lastStep(theirs))} ${who === "You" ? "just before" : "at the same time"}`;
      const onTop = isComplete(merged) ? "your topping" : who === "You" ? "this scoop" : "yours";
      const text = `${news}; ${onTop} is on top. Press Send again.`;
      return this.stage({ ...move, sundae: merged, session: target.session, version: target.version }, text);
    }
    const yours = who === "You" ? "this step" : "yours";
    if (theirs && isComplete(theirs)) {
      this.keep(theirs, sessionId);
      this.notice = `${who} finished this sundae before ${yours} was sent. Here it is!`;
    } else if (theirs) {
      this.notice = `${who} ${stepDone(theirs, lastStep(theirs))} before ${yours} was sent. Carry on from ${who === "You" ? "there" : "theirs"}!`;
    } else {
      this.notice = `${who} changed this sundae before ${yours} was sent.`;
    }
    this.status = { kind: "stale", sessionId, text: who === "You" ? "Your other step went first." : "A friend's step went first.", action: "See it" };
    if (this.viewStyle === "expanded") this.render();
    else await this.requestPresentationStyle("expanded");
  }

  compose(sundae, step, session) {
    const message = new Message(session);
    message.url = urlWithQueryItems(toQueryItems(sundae));
    message.summaryText = summaryOf(sundae, step);
    message.layout = new TemplateLayout({
      image: bubbleCanvas(sundae, 1.4),
      ...layoutText(sundae, step),
    });
    return message;
  }

  /** Puts a finished sundae in the message box as a sticker. */
  async sendSticker(item) {
    const sticker = new Sticker(sundaeCanvas(item.sundae, { scale: 1.2, crop: true }), describe(item.sundae));
    if (typeof item.entry?.hash === "string") sticker.hash = item.entry.hash;
    try {
      await this.activeConversation.insertSticker(sticker);
      this.status = { kind: "sticker", text: "Sticker in the message box: press Send, or press and hold it, then drag it onto a message to stick it there." };
      if (item.entry && sticker.hash && item.entry.hash !== sticker.hash) {
        this.history = this.history.map((h) => (h.id === item.entry.id ? { ...h, hash: sticker.hash } : h));
        await this.save();
      }
    } catch (error) {
      this.status = { kind: "error", text: `The sticker could not be added: ${error.message}` };
    }
    if (this.viewStyle === "expanded") await this.requestPresentationStyle("compact");
    else this.render();
  }

  // ---- the sticker history ---------------------------------------------------------

  keep(sundae, id) {
    const next = addToHistory(this.history, sundae, id, Date.now());
    if (next === this.history) return;
    this.history = next;
    this.save();
  }

  forget(id) {
    const next = this.history.filter((h) => h.id !== id);
    if (next.length === this.history.length) return Promise.resolve();
    this.history = next;
    return this.save();
  }

  async save() {
    let list = this.history;
    for (;;) {
      try {
        await this.storage.set(HISTORY_KEY, list);
        return;
      } catch (error) {
        // Only a refusal for size shortens it: any other (the server busy, say) is no
        // reason to drop stickers, and the next save tries again.
        if (!SIZE_REFUSALS.has(error?.code) || list.length <= 1) return;
        list = list.slice(0, Math.ceil(list.length / 2)); // storage full: keep the newest half
        this.history = list;
      }
    }
  }

  // ---- views -------------------------------------------------------------------------

  /** Shows the view for `style`; the keyboard focus stays put (focus.js). */
  render(style = this.viewStyle) {
    const conversation = this.activeConversation;
    if (!conversation) return;
    keepFocus(root, () => this.renderView(style, conversation.localParticipantIdentifier));
  }

  renderView(style, me) {
    document.documentElement.dataset.view = style === "expanded" ? "expanded" : "compact";
    if (style !== "expanded") {
      const stickers = historySundaes(this.history);
      const shown = root.firstElementChild;
      if (shown?.classList.contains("history") && shown.dataset.stickers === stickersKey(stickers)) {
        updateStatus(shown, this.status, () => this.openStatus());
        return;
      }
      root.replaceChildren(historyView({
        stickers,
        status: this.status,
        onNew: () => this.startNew(),
        onSticker: (item) => this.sendSticker(item),
        onStatusAction: () => this.openStatus(),
      }));
      return;
    }
    const t = this.current();
    const sundae = t ? t.sundae : emptySundae();
    if (isComplete(sundae)) {
      this.keep(sundae, t.session ? t.session.identifier : null);
      root.replaceChildren(finishedView({
        sundae, me, notice: this.notice,
        onSticker: () => this.sendSticker({ entry: this.history.find((h) => h.id === (t.session?.identifier)), sundae }),
        onNew: () => this.startNew(),
      }));
      return;
    }
    root.replaceChildren(builderView({
      sundae, step: nextStep(sundae), me, notice: this.notice,
      onChoose: (step, partId) => this.choose(step, partId),
    }));
  }
}

IceCreamBuilder.start();
