// Party list (seed 002): compact has "New party"; expanded edits a list
// (its title, add and remove elements; a new list starts with Mussels and
// Fries); Send composes a message in the list's session with a picture of
// the list, so the other side opens it, edits it and sends it back, and the
// conversation keeps one bubble that moves down with each version.
//
// Two people editing at once lose nothing: an update that arrives while
// this app is open is merged into the list being edited (three-way, against
// the version the edit started from) and a message waiting in the composer is
// replaced by the merged one; if the server refuses a send because the list
// moved on (a session conflict), the list the server holds is merged in the
// same way and the merged message goes back into the composer.

import { MessagesAppViewController, Message, Session, TemplateLayout, LiveLayout, SessionConflictError, h as el, keepFocus } from "../../sdk/index.js";
import * as L from "./list.js";
import { renderList } from "./render.js";

const $ = (id) => document.getElementById(id);


const sameSession = (a, b) => !!a && !!b && a.identifier === b.identifier;

/** A key for each element that survives a re-render: its name, and which of that name it is ("2:Chips"). */
function elementKeys(elements) {
  const seen = new Map();
  return elements.map((name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return `${n}:${name}`;
  });
}

/** "+ Andalouse sauce, − Fries" */
function describe({ added, removed, renamed }, list) {
  const parts = [...added.map((e) => `+ ${e}`), ...removed.map((e) => `− ${e}`)];
  if (renamed) parts.unshift(`renamed “${L.displayName(list)}”`);
  return parts.join(", ");
}

// ---- child view controllers ------------------------------------------------------------------

/** Compact: the seed's HomeViewController, with "New party". */
class HomeViewController {
  constructor(delegate) {
    this.delegate = delegate;
    this.status = el("p", { id: "home-status", class: "status", role: "status" });
    this.editButton = el("button", { type: "button", id: "edit-list", class: "secondary", onclick: () => delegate.homeDidSelectEdit() });
    this.view = el("section", { id: "home", class: "home" },
      this.status,
      el("div", { class: "home-main" },
        el("img", { class: "home-art", src: "icon.svg", alt: "", width: 52, height: 52 }),
        el("div", { class: "home-text" },
          el("h1", {}, "Party list"),
          el("p", { class: "lede" }, "Plan a party together: one list that everyone can edit."))),
      el("div", { class: "home-actions" },
        el("button", { type: "button", id: "new-party", class: "primary", onclick: () => delegate.homeViewControllerControllerDidSelectAdd() }, "New party"),
        this.editButton));
  }

  /** @param {{editing: object | null, status: {kind: string, text: string}}} state */
  update({ editing, status }) {
    // A new list nobody changed (Expand tapped to look, then collapsed) is not offered
    // back as one they made (a phone user's review: "Edit “Mussels Party”").
    const made = editing && (editing.base || JSON.stringify(editing.draft) !== JSON.stringify(L.newList(true)));
    this.editButton.hidden = !made;
    if (made) this.editButton.textContent = `Edit “${L.displayName(editing.draft)}”`;
    this.status.textContent = status.text;
    this.status.dataset.kind = status.kind;
  }
}

/** Expanded: the seed's DetailListViewController. */
class DetailListViewController {
  constructor(delegate) {
    this.delegate = delegate;
    this.title = el("input", {
      id: "list-title", class: "title-input", type: "text", maxLength: L.LIMITS.name, autocomplete: "off",
      "aria-label": "List title", placeholder: L.DEFAULT_NAME,
      oninput: () => delegate.detailDidChangeName(this.title.value),
      onkeydown: (e) => {
        if (e.key === "Enter") this.newElement.focus();
      },
    });
    this.count = el("span", { id: "count" });
    this.kind = el("span", { id: "list-kind" });
    this.note = el("p", { id: "merge-note", class: "note", role: "status", hidden: true });
    this.tableView = el("ul", { id: "elements", class: "elements", "aria-label": "On the list" });
    this.newElement = el("input", {
      id: "new-element", type: "text", maxLength: L.LIMITS.element, autocomplete: "off",
      placeholder: "Add something…", "aria-label": "New element",
      onkeydown: (e) => {
        if (e.key === "Enter" && !e.isComposing) this.addElement();
      },
    });
    this.addButton = el("button", { type: "button", id: "add", class: "add", onclick: () => this.addElement() }, "Add");
    this.sendButton = el("button", { type: "button", id: "send", class: "primary send", onclick: () => delegate.detailListViewControllerDidSend() }, "Send");
    this.error = el("p", { id: "send-error", class: "error", role: "alert", hidden: true });
    this.view = el("section", { id: "detail", class: "detail", "aria-label": "Edit the list" },
      el("div", { class: "detail-scroll" },
        el("header", { class: "detail-header" },
          el("h1", { class: "visually-hidden" }, "Edit the list"),
          this.title,
          el("p", { class: "detail-sub" }, this.count, " · ", this.kind)),
        this.note,
        this.tableView,
        el("div", { class: "add-row" }, this.newElement, this.addButton)),
      el("footer", { class: "detail-footer" }, this.error, this.sendButton));
  }

  addElement() {
    const value = this.newElement.value;
    if (L.clean(value, L.LIMITS.element) === "") {
      this.newElement.focus();
      return;
    }
    this.newElement.value = "";
    this.delegate.detailDidAdd(value);
    this.newElement.focus();
    this.tableView.lastElementChild?.scrollIntoView({ block: "nearest" });
  }

  /** Shows the list; what is being typed stays as it is. */
  update(editing, { note = null, error = null } = {}) {
    const list = editing.draft;
    if (document.activeElement !== this.title && this.title.value !== list.name) this.title.value = list.name;
    this.count.textContent = L.countLabel(list);
    this.kind.textContent = editing.base ? "Shared list: edit it and send it back" : "New list";
    // The rows are drawn anew: a Remove button that had the keyboard focus is noted first.
    const active = document.activeElement;
    const focused = document.hasFocus() && this.tableView.contains(active) ? active.dataset.item : undefined;
    const before = [...this.tableView.querySelectorAll("button.remove")].map((b) => b.dataset.item);
    const keys = elementKeys(list.elements);
    const rows = list.elements.map((name, index) => el("li", { class: "element" },
      el("span", { class: "dot", "aria-hidden": "true" }),
      el("span", { class: "element-name" }, name),
      el("button", {
        type: "button", class: "remove", "aria-label": `Remove ${name}`, dataset: { item: keys[index] },
        onclick: () => this.delegate.detailDidRemove(index),
      }, el("span", { "aria-hidden": "true" }, "×"))));
    if (rows.length === 0) rows.push(el("li", { class: "empty" }, "Nothing yet. Add the first thing below."));
    this.tableView.replaceChildren(...rows);
    if (focused !== undefined) this.refocus(focused, before);
    this.addButton.disabled = list.elements.length >= L.LIMITS.elements;
    if (note !== null) {
      this.note.textContent = note;
      this.note.hidden = note === "";
    }
    this.error.textContent = error || "";
    this.error.hidden = !error;
  }

  /**
   * The focus was on the Remove button of `key` (in the rows `before`): it
   * stays on that element's, or, if it is gone, on the next one's (which took
   * its place), else the one before; on an empty list, on the box to add one.
   */
  refocus(key, before) {
    const i = before.indexOf(key);
    const order = [key, ...before.slice(i + 1), ...before.slice(0, Math.max(0, i)).reverse()];
    const button = order.map((k) => this.tableView.querySelector(`button[data-item="${CSS.escape(k)}"]`)).find(Boolean);
    (button ?? this.newElement).focus();
  }
}

/**
 * The bubble, drawn live (presentation style "transcript"): the list as it is
 * in this message, on the notepad, in the reader's light or dark mode. Viewers
 * without Party list see the template layout (the picture) instead.
 */
class TranscriptViewController {
  constructor() {
    this.view = el("section", { id: "live", class: "live-list" });
  }

  update(message) {
    const list = L.listFromMessage(message) || L.newList(false);
    const MAX = 8;
    const shown = list.elements.length > MAX ? list.elements.slice(0, MAX - 1) : list.elements;
    const more = list.elements.length - shown.length;
    const rows = shown.map((name) => el("li", { class: "live-element" }, el("span", { class: "dot", "aria-hidden": "true" }), el("span", null, name)));
    if (more > 0) rows.push(el("li", { class: "live-more" }, `+ ${more} more`));
    if (rows.length === 0) rows.push(el("li", { class: "live-more" }, "Nothing on the list yet"));
    this.view.replaceChildren(
      el("header", { class: "live-band" }, el("h2", { id: "live-title" }, L.displayName(list)), el("span", { id: "live-count" }, L.countLabel(list))),
      el("ul", { id: "live-elements", "aria-labelledby": "live-title" }, ...rows));
  }
}

// ---- the controller -----------------------------------------------------------------------------

class MessagesViewController extends MessagesAppViewController {
  constructor() {
    super();
    this.root = $("root");
    this.home = new HomeViewController(this);
    this.detail = new DetailListViewController(this);
    this.transcript = new TranscriptViewController();
    this.child = null;
    /**
     * The list being edited: its session, the version the edit is based on
     * (`base`, null for a list never sent) and the edited list (`draft`).
     * @type {{session: Session, base: L.ShoppingList | null, baseVersion: number, draft: L.ShoppingList} | null}
     */
    this.editing = null;
    /** Every list edited while the app is open, by session id: switching lists keeps unsent edits. */
    this.edits = new Map();
    /** The message this app put in the composer, until it is sent or removed. */
    this.outgoing = null;
    /** An update that arrived while ours was on its way: merged once ours settles. */
    this.deferred = null;
    this.token = 0;
    this.status = { kind: "idle", text: "" };
    /** the last merge, in short ("+ Andalouse sauce") and as a sentence for the editor */
    this.news = "";
    this.note = "";
  }

  // ---- lifecycle --------------------------------------------------------------------

  willBecomeActive(conversation) {
    this.log("willBecomeActive");
    if (this.presentationStyle === "transcript") return this.presentViewController(conversation, "transcript");
    if (conversation.selectedMessage) this.editing = this.editingFrom(conversation.selectedMessage);
    this.presentViewController(conversation, this.presentationStyle);
  }

  didBecomeActive() { this.log("didBecomeActive"); }
  willResignActive() { this.log("willResignActive"); }
  didResignActive() { this.log("didResignActive"); }

  willTransition(style) {
    this.log(`willTransition:${style}`);
    this.presentViewController(this.activeConversation, style);
  }

  didTransition(style) { this.log(`didTransition:${style}`); }

  didSelect(message, conversation) {
    this.log("didSelect");
    const selected = conversation.selectedMessage || message;
    if (!selected) return;
    if (this.editing && sameSession(this.editing.session, selected.session)) {
      // the same list: keep what is being edited, take in what is new
      this.take(selected);
    } else {
      this.editing = this.editingFrom(selected);
      this.note = "";
    }
    // compact: the host expands next, and willTransition shows the list
    if (this.presentationStyle === "expanded") this.presentViewController(conversation, "expanded");
  }

  didReceive(message) {
    this.log("didReceive");
    if (!this.editing || !sameSession(this.editing.session, message.session)) return;
    this.take(message);
  }

  /** A newer version of the list: merged now, or once ours has settled if it is on its way. */
  take(message) {
    if (this.outgoing && this.outgoing.state === "sending") {
      this.deferred = message;
      return;
    }
    if (this.absorb(message)) this.afterAbsorb();
  }

  didStartSending(message) {
    this.log("didStartSending");
    if (this.outgoing && message.ref === this.outgoing.message.ref) {
      this.outgoing.state = "sending";
      this.setStatus("sending", "Sending…");
    }
  }

  didCancelSending(message) {
    this.log("didCancelSending");
    if (this.outgoing && message.ref === this.outgoing.message.ref) {
      this.outgoing = null;
      this.setStatus("idle", "");
    }
  }

  /**
   * An edit refused while the app was closed (sent offline, say): merged into
   * the list as it is now, three ways as live, and put back in the composer.
   */
  didFailSending(message, error) {
    this.log("didFailSending");
    const mine = L.listFromMessage(message);
    const current = error.current;
    if (!mine || !message.session || !L.listFromMessage(current)) return false;
    const base = L.listFromMessage(error.base);
    let e = this.edits.get(message.session.identifier);
    if (e) {
      // the list is open already (from the bubble that won): my refused edit goes into it
      e.draft = L.mergeLists(base, mine, e.draft);
    } else {
      e = this.remember({ session: message.session, base, baseVersion: message.baseVersion ?? 0, draft: L.copyList(mine) });
    }
    this.absorb(current, e);
    const theirs = L.listFromMessage(current);
    const news = base ? describe(L.changes(base, theirs), theirs) : "";
    this.editing = e;
    this.note = news ? `Someone changed the list before yours was sent: ${news}. Both changes are in.` : "Your changes are back on the list.";
    this.refresh();
    this.insertList(`Your changes were not sent: someone changed the list first${news ? ` (${news})` : ""}. Both changes are in: press Send.`, "merged");
    return true;
  }

  /** The live bubble is as tall as the list (the page itself fills the frame). */
  contentSizeThatFits({ width }) {
    return { width, height: Math.ceil(this.transcript.view.getBoundingClientRect().height) };
  }

  log(name) {
    $("lifecycle").append(el("li", {}, name));
  }

  // ---- presenting (the seed's presentViewController(for:with:)) ---------------------------------

  presentViewController(conversation, presentationStyle) {
    let controller;
    if (presentationStyle === "transcript") {
      controller = this.transcript;
      this.transcript.update(conversation.selectedMessage);
    } else if (presentationStyle === "compact") {
      controller = this.home;
      this.home.update({ editing: this.editing, status: this.status });
    } else {
      // a list from the selected message, or a new one with Mussels and Fries
      if (!this.editing) {
        this.editing = conversation?.selectedMessage ? this.editingFrom(conversation.selectedMessage) : this.newEditing();
      }
      controller = this.detail;
      this.detail.update(this.editing, { note: this.note });
    }
    if (this.child !== controller) {
      // another view: the focus goes to its first control (focus.js), not to the top of the page
      keepFocus(this.root, () => {
        this.child?.view.remove();
        this.child = controller;
        this.root.replaceChildren(controller.view);
      });
      this.root.dataset.view = controller === this.home ? "home" : controller === this.detail ? "detail" : "live";
    }
  }

  refresh(extra) {
    if (this.child === this.home) this.home.update({ editing: this.editing, status: this.status });
    else if (this.editing) this.detail.update(this.editing, { note: this.note, ...extra });
  }

  setStatus(kind, text) {
    this.status = { kind, text };
    this.refresh();
  }

  /** The edit of a message's list: the one already under way in this session, or a fresh one. */
  editingFrom(message) {
    const list = L.listFromMessage(message) || L.newList(true);
    if (!message.session) return this.remember({ session: new Session(), base: null, baseVersion: 0, draft: L.copyList(list) });
    const known = this.edits.get(message.session.identifier);
    if (known) {
      if (this.outgoing?.state === "sending" && this.outgoing.editing === known) this.deferred = message;
      else this.absorb(message, known);
      return known;
    }
    return this.remember({ session: message.session, base: list, baseVersion: message.session.version, draft: L.copyList(list) });
  }

  newEditing() {
    return this.remember({ session: new Session(), base: null, baseVersion: 0, draft: L.newList(true) });
  }

  remember(editing) {
    this.edits.set(editing.session.identifier, editing);
    return editing;
  }

  // ---- HomeViewControllerDelegate -------------------------------------------------------------------

  homeViewControllerControllerDidSelectAdd() {
    this.editing = this.newEditing();
    this.note = "";
    this.requestPresentationStyle("expanded").catch(() => {});
  }

  homeDidSelectEdit() {
    this.requestPresentationStyle("expanded").catch(() => {});
  }

  // ---- DetailListViewControllerDelegate ---------------------------------------------------------------

  detailDidChangeName(name) {
    this.editing.draft = L.changeName(this.editing.draft, name);
  }

  detailDidAdd(name) {
    this.editing.draft = L.addElement(this.editing.draft, name);
    this.refresh({ error: null });
  }

  detailDidRemove(index) {
    this.editing.draft = L.removeElementAt(this.editing.draft, index);
    this.refresh({ error: null });
  }

  /** Send: the list goes into the composer, in its session; back to compact to press Send. */
  detailListViewControllerDidSend() {
    if (!this.editing) return;
    if (L.urlOf(this.editing.draft).length > L.LIMITS.url) {
      this.refresh({ error: "This list is too long to send. Remove a few things first." });
      return;
    }
    this.note = "";
    this.insertList("Ready: press Send to share the list.");
    this.requestPresentationStyle("compact").catch(() => {});
  }

  // ---- sending and merging ------------------------------------------------------------------------------

  /** Composes the message for the list being edited (the seed's composeMessage). */
  compose(list) {
    const e = this.editing;
    const me = this.activeConversation.localParticipantIdentifier;
    const name = L.displayName(list);
    // The message is based on the version this edit has merged, whatever the
    // SDK's shared Session object has been shown since.
    e.session.version = e.baseVersion;
    const message = new Message(e.session);
    message.url = L.urlOf(list);
    message.summaryText = `$${me} ${e.base ? "updated" : "started"} “${name}”`;
    // drawn live by this app for those who have it; the picture for everyone else
    message.layout = new LiveLayout(new TemplateLayout({
      image: renderList(list),
      caption: name,
      subcaption: L.elementsLine(list),
      trailingCaption: L.countLabel(list),
    }));
    return message;
  }

  /** Puts the list being edited into the composer; settles when it is sent, removed or refused. */
  async insertList(readyText, kind = "staged") {
    const conversation = this.activeConversation;
    const e = this.editing;
    if (!conversation || !e) return;
    const token = ++this.token;
    const list = { name: L.displayName(e.draft), elements: [...e.draft.elements] };
    const message = this.compose(list);
    this.outgoing = { token, state: "staged", editing: e, list, baseVersion: e.baseVersion, message };
    this.setStatus(kind, readyText);
    let sent;
    try {
      sent = await conversation.insert(message);
    } catch (error) {
      if (token === this.token) this.insertFailed(error);
      return;
    }
    if (token === this.token) this.insertSucceeded(sent);
  }

  insertSucceeded() {
    const o = this.outgoing;
    const e = o?.editing;
    this.outgoing = null;
    if (e && o) {
      // The server gave our message the next version of the session.
      e.base = o.list;
      e.baseVersion = Math.max(e.baseVersion, o.baseVersion + 1);
    }
    this.setStatus("sent", "Sent ✓ Everyone sees the new list.");
    const later = this.deferred;
    this.deferred = null;
    if (later && this.absorb(later, e)) this.afterAbsorb();
  }

  insertFailed(error) {
    const o = this.outgoing;
    this.outgoing = null;
    const current = error instanceof SessionConflictError || error.code === "session_conflict" ? error.current : null;
    const e = o?.editing;
    if (current && e) {
      // Someone else's version got there first: merge it and try again.
      this.deferred = null;
      this.absorb(current, e);
      if (e !== this.editing) {
        this.setStatus("error", `“${L.displayName(o.list)}” changed before it was sent. Open it to send your changes again.`);
        return;
      }
      if (sameSession(e.session, current.session) && e.baseVersion >= current.session.version && L.listFromMessage(current)) {
        this.refresh();
        const news = this.news ? ` (${this.news})` : "";
        this.insertList(`Someone changed the list at the same time${news}. Both changes are in: press Send again.`, "merged");
        return;
      }
      this.setStatus("error", "The list changed and could not be merged. Open it to try again.");
      return;
    }
    if (error.code === "cancelled") {
      this.setStatus("idle", "");
      return;
    }
    this.setStatus("error", `Not sent: ${error.message}`);
  }

  /**
   * Takes in a newer version of the list being edited: a three-way merge of
   * the edit (against the version it started from) with that version.
   * @returns {boolean} whether anything was taken in
   */
  absorb(message, e = this.editing) {
    if (!e || !message || !sameSession(e.session, message.session)) return false;
    // The newest version the SDK has been shown is this message's (hooks run in order).
    const version = message.session.version;
    if (!(version > e.baseVersion)) return false;
    const theirs = L.listFromMessage(message);
    if (!theirs) return false;
    const news = describe(L.changes(e.base, theirs), theirs);
    e.draft = L.mergeLists(e.base, e.draft, theirs);
    e.base = theirs;
    e.baseVersion = version;
    this.news = news;
    this.note = news ? `Updated with the latest changes: ${news}` : "Updated with the latest version.";
    return true;
  }

  /** After a merge: show it, and replace a message waiting in the composer with the merged one. */
  afterAbsorb() {
    if (this.outgoing && this.outgoing.state === "staged") {
      const news = this.news ? ` (${this.news})` : "";
      this.insertList(`The list changed meanwhile${news}. Both changes are in: press Send.`, "merged");
    }
    this.refresh();
  }
}

MessagesViewController.start();
