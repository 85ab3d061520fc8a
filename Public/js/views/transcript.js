// The transcript view: draws transcriptRows() with keyed reuse, so a new
// message appends one row and a session update rewrites two, never the whole
// list (live frames and scroll position survive). Sticks to the bottom while
// the reader is there, also when a bubble grows after it is drawn (an image
// or an app frame gets its size later); a reader who scrolled up is not moved
// but gets a "new messages" pill. One far up stops getting new rows below them
// (sync.js: HOLD): "Show newer messages" pages them in, the pill jumps to the newest.

import { h } from "./dom.js";
import { counted } from "../state/format.js";
import { transcriptRows } from "../state/transcript.js";
import { messageRow, summaryRow, pendingRow, spokenLine, reactedLine } from "./bubble.js";
import { say } from "./spoken.js";
import { blockedRow } from "./blocked.js";
import { reopenPicker } from "./reactions.js";

const GROUP_MS = 5 * 60 * 1000;

function dayLabel(ms) {
  const d = new Date(ms);
  const today = new Date();
  const yesterday = new Date(Date.now() - 86400000);
  if (d.toDateString() === today.toDateString()) return "Today";
  if (d.toDateString() === yesterday.toDateString()) return "Yesterday";
  return d.toLocaleDateString(undefined, { weekday: "long", day: "numeric", month: "long" });
}

export class TranscriptView {
  /**
   * @param {HTMLElement} el  the scrolling log element
   * @param {{onLoadOlder: () => void, onLoadNewer: () => void, onNewest: () => void}} opts
   */
  constructor(el, { onLoadOlder, onLoadNewer, onNewest }) {
    this.el = el;
    this.cache = new Map();
    this.conversationId = null;
    this.onNewest = onNewest;
    /** "conversationId seq" of blocked people's messages the reader chose to see (views/blocked.js) */
    this.unfolded = new Set();
    this.loadOlderButton = h("button", { class: "button small load-older", type: "button", onclick: onLoadOlder }, "Show earlier messages");
    this.loadNewerButton = h("button", { class: "button small load-newer", type: "button", onclick: onLoadNewer }, "Show newer messages");
    this.emptyHint = h("div", { class: "transcript-empty" },
      h("p", null, "No messages yet."),
      h("p", null, "Say hello, or open an app with the apps button next to the message box."));
    this.pill = h("button", { class: "new-pill", type: "button", hidden: true, onclick: () => this.toNewest() });
    this.seenSeq = 0;
    /** the pill counts others' messages after this one, the last the reader had in view */
    this.seenThrough = 0;
    /** others' messages drawn since the reader left the bottom (seqs, ascending) */
    this.news = [];
    /** others' messages held back (not drawn), counted by the transcript */
    this.heldNew = 0;
    /** newer messages are held back (not drawn) since the last render */
    this.heldBack = false;
    this.seenEpoch = 0;
    /** the seq of the first message in view at the last render, while the reader is up */
    this.readerSeq = null;
    /** the "New messages" line stands above this message (the page says, at each render) */
    this.newFrom = undefined;
    this.newLine = h("div", { class: "day new-line", role: "separator" }, "New messages");
    el.addEventListener("scroll", () => {
      if (this.atBottom && !this.heldBack) this.showPill(0);
      else if (!this.pill.hidden) this.countUnseen();
    });
    this.following = true;
    this.seenTop = 0;
    this.seenHeight = 0;
    this.seenView = 0;
    // rows change size after they are drawn: keep the newest one in view
    this.resized = new ResizeObserver(() => {
      const follow = this.atBottom;
      this.fit();
      if (follow) this.scrollToBottom();
    });
    this.resized.observe(el);
  }

  /**
   * Whether new rows should scroll into view: the reader is at the bottom.
   * Read from where the transcript is scrolled whenever that moved since it
   * was last read, not only from scroll events: a message that arrives in the
   * same frame as the reader's swipe comes before the event, and must not
   * take them back down.
   */
  get atBottom() {
    const el = this.el;
    if (el.scrollTop !== this.seenTop) {
      // The browser moves scrollTop itself when what is drawn changes size (an image
      // or an app's frame growing, the app pane opening below): read as the reader
      // scrolling away, the newest message was left below the view, and new ones
      // too. Only a move while the sizes stayed as they were is the reader's.
      const resized = el.scrollHeight !== this.seenHeight || el.clientHeight !== this.seenView;
      if (!(this.following && resized)) this.following = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    }
    this.seen();
    return this.following;
  }

  set atBottom(value) {
    this.following = value;
    this.seen();
  }

  seen() {
    this.seenTop = this.el.scrollTop;
    this.seenHeight = this.el.scrollHeight;
    this.seenView = this.el.clientHeight;
  }

  showPill(unseen) {
    if (unseen === 0) {
      // all seen: what comes next is counted from the newest
      this.seenThrough = Math.max(this.seenThrough, this.seenSeq);
      this.news = [];
    }
    this.pill.hidden = unseen === 0;
    this.pill.textContent = `${counted(unseen, "new message", "new messages")} ↓`;
  }

  /**
   * The pill says how many of others' messages the reader has not had in view yet:
   * drawn below the view, or held back. It counts down as they scroll through them.
   */
  countUnseen() {
    const last = this.lastVisible();
    if (last) this.seenThrough = Math.max(this.seenThrough, Number(last.dataset.seq));
    const i = this.news.findIndex((seq) => seq > this.seenThrough);
    this.news = i < 0 ? [] : this.news.slice(i);
    this.showPill(this.news.length + this.heldNew);
  }

  /**
   * @param {string} conversationId
   * @param {import("../state/transcript.js").Transcript} t
   * @param {import("./bubble.js").BubbleContext} ctx
   * @param {number} ctxVersion changes when names, apps or participants change
   */
  render(conversationId, t, ctx, ctxVersion) {
    const switched = conversationId !== this.conversationId;
    if (switched) {
      this.clear();
      this.conversationId = conversationId;
      this.atBottom = true;
    }
    // started over (a resync, or a jump to the newest past what was held back): at the newest
    const restarted = (t.epoch ?? 0) !== this.seenEpoch;
    // read before the rows change: rows let go above the view move it (the browser keeps
    // what is in view in place), and read after, the reader at the bottom seemed to
    // have scrolled up by the rows that came below. The bottom of rows held back from
    // the newest is not the newest: a page of them coming in below stays below.
    const follow = switched || restarted || (this.atBottom && !this.heldBack);
    const anchor = follow ? null : this.firstVisible();
    const anchorTop = anchor && anchor.getBoundingClientRect().top;
    const anchorSeq = anchor?.dataset.seq;
    this.readerSeq = anchor ? Number(anchorSeq) : null;
    const rows = transcriptRows(t);
    // a first page of history is not news, nor what a conversation shows when opened
    if (!switched && this.wasLoaded) this.sayArrived(rows, ctx, t);
    this.wasLoaded = t.loaded;
    const wanted = [];
    if (t.hasMoreBefore) wanted.push(this.loadOlderButton);
    let prev = null;
    let lastDay = null;
    let newLineDrawn = this.newFrom === undefined;
    for (const row of rows) {
      const m = row.type === "pending" ? { ...row.pending, sender: row.pending.sender } : row.message;
      const day = new Date(m.createdAt).toDateString();
      if (day !== lastDay) {
        wanted.push(this.cached(`d:${day}`, day, () => h("div", { class: "day", role: "separator" }, dayLabel(m.createdAt))));
        lastDay = day;
        prev = null;
      }
      if (!newLineDrawn && row.type !== "pending" && m.seq >= this.newFrom) {
        wanted.push(this.newLine);
        newLineDrawn = true;
        prev = null;
      }
      if (row.type === "summary") {
        wanted.push(this.cached(`m:${m.seq}`, [row.message, ctxVersion], () => summaryRow(row.message, ctx)));
        prev = null;
        continue;
      }
      if (row.type === "pending") {
        wanted.push(this.cached(`p:${row.pending.clientId}`, [row.pending, row.quoted, ctxVersion], () => pendingRow(row.pending, ctx, row.quoted)));
        prev = null;
        continue;
      }
      if (ctx.isBlocked?.(m.sender) && m.kind !== "deleted" && !this.unfolded.has(`${conversationId} ${m.seq}`)) {
        wanted.push(this.cached(`b:${m.seq}`, [ctxVersion], () => blockedRow(m, () => this.unfold(conversationId, m.seq))));
        prev = null;
        continue;
      }
      const showSender = !prev || prev.sender !== m.sender || m.createdAt - prev.createdAt > GROUP_MS || prev.kind === "app" || m.kind === "app";
      wanted.push(this.cached(`m:${m.seq}`, [m, row.stickers.length, row.reactionsKey, row.quoted, showSender, ctxVersion], () => messageRow(m, row.stickers, ctx, { showSender, reactions: row.reactions, quoted: row.quoted })));
      prev = m;
    }
    if (t.hasMoreAfter) wanted.push(this.loadNewerButton);
    if (rows.length === 0 && !t.hasMoreBefore && t.loaded) wanted.push(this.emptyHint);
    wanted.push(this.pill);
    // rows kept around live frames that stay where they are (apps/live.js)
    for (const [made, kept] of ctx.keepInPlace?.(wanted, this.el) ?? []) {
      for (const entry of this.cache.values()) if (entry.el === made) entry.el = kept;
    }
    this.reconcile(wanted);
    this.fit();
    if (switched) this.seenSeq = t.lastSeq;
    if (follow) this.scrollToBottom();
    else {
      // what the reader looks at stays put, whether rows came below (new) or above (older)
      // the same message, drawn again if it changed (the first row gains a neighbour
      // from its sender above, and loses its sender line)
      // (a row kept for its live frame, apps/live.js, now stands for a newer message: the
      // reader stays by the message they had in view, as where the row is made anew)
      const again = anchor && (anchor.isConnected && anchor.dataset.seq === anchorSeq ? anchor : this.rowOf("seq", anchorSeq));
      if (again) this.el.scrollTop += again.getBoundingClientRect().top - anchorTop;
      // at the bottom of rows held back from the newest, a page of them came in below:
      // no longer at the bottom (a row growing next must not take the reader down)
      if (this.heldBack) this.atBottom = this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight < 80;
      // others' messages the reader has not had in view: drawn below it (live, or a page
      // of held ones brought in, which leaves the held count), or still held back
      this.heldNew = t.heldBackNew ?? 0;
      this.news = rows.filter((r) => r.type === "message" && r.message.seq > this.seenThrough && r.message.sender !== ctx.selfId && r.message.kind !== "deleted").map((r) => r.message.seq);
      if (this.news.length || this.heldNew || !this.pill.hidden) this.countUnseen();
    }
    this.seenSeq = Math.max(this.seenSeq, t.lastSeq || 0);
    // nothing unseen: what comes next is counted from here
    if (this.pill.hidden) this.seenThrough = this.seenSeq;
    this.heldBack = !!t.hasMoreAfter;
    this.heldNew = t.heldBackNew ?? 0;
    this.seenEpoch = t.epoch ?? 0;
    this.drawnWith = [conversationId, t, ctx, ctxVersion];
  }

  /** Show on a folded message: drawn as it is, and the focus on it, where Show was. */
  unfold(conversationId, seq) {
    this.unfolded.add(`${conversationId} ${seq}`);
    if (this.drawnWith?.[0] !== conversationId) return;
    this.render(...this.drawnWith);
    const row = this.rowOf("seq", String(seq));
    if (row) {
      row.tabIndex = -1;
      row.focus();
    }
  }

  /**
   * Tells a screen reader of what others sent since the last render, in the open
   * conversation: a message, or an app's update (not what history or a redraw brings).
   */
  sayArrived(rows, ctx, t) {
    const fresh = rows.filter((r) => r.type === "message" && r.message.seq > this.seenSeq && r.message.sender !== ctx.selfId && r.message.kind !== "deleted" && !ctx.isBlocked?.(r.message.sender));
    const reacted = this.reactionsArrived(rows, ctx, t);
    if (fresh.length === 0 && reacted.length === 0) return;
    const lines = [];
    if (fresh.length) {
      const last = spokenLine(fresh.at(-1).message, ctx, fresh.at(-1).quoted);
      lines.push(fresh.length > 3 ? `${fresh.length} new messages. The last, from ${last}` : fresh.map((r) => spokenLine(r.message, ctx, r.quoted)).join(". "));
    }
    if (reacted.length) lines.push(reacted.length > 3 ? `${reacted.length} new reactions. The last: ${reacted.at(-1)}` : reacted.join(". "));
    say(lines.join(". "));
  }

  /** "Ben reacted Love to “hi”", for each of others' reactions since the last render to a message drawn (not one taken back). */
  reactionsArrived(rows, ctx, t) {
    const out = [];
    for (let i = t.messages.length - 1; i >= 0 && t.messages[i].seq > this.seenSeq; i--) {
      const r = t.messages[i];
      if (r.kind !== "reaction" || r.emoji === "" || r.sender === ctx.selfId) continue;
      const target = rows.find((row) => row.type === "message" && row.message.seq === r.to && row.message.kind !== "deleted");
      if (target) out.unshift(reactedLine(r, target.message, ctx));
    }
    return out;
  }

  /**
   * The first message at least partly in view: not the "Show earlier messages" button
   * nor a day's heading, which stay first whatever comes in below them (the reader was
   * taken to the oldest row of each page loaded instead of staying where they were).
   */
  /** The last message at least partly in view (rows are in order: a binary search). */
  lastVisible() {
    const rows = this.el.children;
    const bottom = this.el.getBoundingClientRect().bottom;
    let lo = 0;
    let hi = rows.length - 1;
    // not the pill (sticky: always in view) nor the buttons after the last row
    while (hi >= 0 && rows[hi].dataset.seq === undefined) hi--;
    if (hi < 0 || rows[0].getBoundingClientRect().top >= bottom) return null;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (rows[mid].getBoundingClientRect().top < bottom) lo = mid;
      else hi = mid - 1;
    }
    for (let i = lo; i >= 0; i--) if (rows[i].dataset.seq !== undefined) return rows[i];
    return null;
  }

  firstVisible() {
    const view = this.el.getBoundingClientRect();
    let partly = null;
    for (const child of this.el.children) {
      if (child.dataset.seq === undefined) continue;
      const r = child.getBoundingClientRect();
      // The first row that starts in view, rather than one cut off at the top: that
      // one may be an app's bubble that shrinks to a line when its session moves on,
      // and what the reader was reading below it jumped 400 px (a review).
      if (r.top >= view.top && r.top < view.bottom) return child;
      if (r.top >= view.bottom) break;
      if (r.bottom > view.top && !partly) partly = child;
    }
    return partly;
  }

  /**
   * Taller than its view, the transcript is laid out as a block, else as a flex
   * column that pushes it down to the composer (the CSS of .transcript says why).
   * Both lay the rows out alike, so the switch moves nothing.
   */
  fit() {
    const tall = this.el.scrollHeight > this.el.clientHeight;
    if (tall !== this.el.classList.contains("tall")) this.el.classList.toggle("tall", tall);
  }

  /** Forgets everything drawn (the next render starts afresh). */
  reset() {
    this.clear();
    this.conversationId = null;
  }

  clear() {
    this.cache.clear();
    this.resized.disconnect();
    this.resized.observe(this.el);
    this.el.classList.remove("tall");
    this.el.replaceChildren();
  }

  /** Reuses a row's element while what it depends on is unchanged. */
  cached(key, deps, make) {
    const depList = Array.isArray(deps) ? deps : [deps];
    const hit = this.cache.get(key);
    if (hit && hit.deps.length === depList.length && hit.deps.every((d, i) => d === depList[i])) {
      hit.used = true;
      return hit.el;
    }
    const el = make();
    this.cache.set(key, { el, deps: depList, used: true });
    return el;
  }

  /** Puts `wanted` in place; which rows this moves is what rowOrder.js's rowsMoved says. */
  reconcile(wanted) {
    const focusedRow = this.rowWithFocus();
    const keep = new Set(wanted);
    for (const child of [...this.el.children]) {
      if (keep.has(child)) continue;
      this.resized.unobserve(child);
      child.remove();
    }
    for (const [key, entry] of this.cache) {
      if (!entry.used) this.cache.delete(key);
      else entry.used = false;
    }
    let cursor = this.el.firstElementChild;
    for (const el of wanted) {
      if (cursor === el) {
        cursor = cursor.nextElementSibling;
      } else {
        this.el.insertBefore(el, cursor);
        this.resized.observe(el);
      }
    }
    // a row made anew, or kept with new content (apps/live.js), took the focused control with it
    if (focusedRow && (!focusedRow.row.isConnected || !focusedRow.active.isConnected)) this.refocus(focusedRow);
    // a row moved (inserted again) loses the focus it held
    else if (focusedRow && document.activeElement !== focusedRow.active) focusedRow.active.focus({ preventScroll: true });
  }

  /** The row drawn now for a message (`data-seq`) or a local echo (`data-client-id`). */
  rowOf(key, value) {
    return this.el.querySelector(`:scope > [data-${key}="${CSS.escape(value)}"]`);
  }

  /** The row the focus is in (a Delete or Get button), and what had it. */
  rowWithFocus() {
    const active = document.activeElement;
    if (!active || active === this.el || !this.el.contains(active)) return null;
    const row = [...this.el.children].find((child) => child.contains(active));
    return row ? { row, active } : null;
  }

  /**
   * A row drawn again (a message deleted, a name changed) took the focus with it: it
   * goes to the same control in the new row, else to the transcript, not to the page.
   */
  refocus({ row, active }) {
    const { seq, clientId } = row.dataset;
    const again = seq ? this.rowOf("seq", seq) : clientId ? this.rowOf("client-id", clientId) : null;
    if (again && reopenPicker(active, again)) return;
    const label = active.getAttribute("aria-label");
    const key = active.dataset.focusKey;
    const same = again && [...again.querySelectorAll(active.tagName)].find((el) => (key ? el.dataset.focusKey === key : label ? el.getAttribute("aria-label") === label : el.textContent === active.textContent));
    // a live bubble's Open went down with its session, to the newer message's row
    const session = !same && active.matches(".live-open") && row.dataset.session;
    const followed = session && this.el.querySelector(`:scope > .row[data-session="${CSS.escape(session)}"] .live-open`);
    // a control that is gone (a reaction's chip) says where the focus goes instead
    const fallback = !same && again && active.closest("[data-refocus]")?.dataset.refocus;
    (same || followed || (fallback && again.querySelector(fallback)) || this.el).focus({ preventScroll: true });
  }

  /**
   * A reply's original: scrolled to the middle of the view, highlighted a moment and
   * given the focus (a keyboard goes on from there). False when it is not drawn.
   */
  reveal(seq) {
    const el = this.rowOf("seq", String(seq)) || this.el.querySelector(`img.stuck[data-seq="${CSS.escape(String(seq))}"]`);
    if (!el) return false;
    el.scrollIntoView({ block: "center" });
    el.classList.remove("highlighted");
    void el.offsetWidth; // the highlight plays again for a second look
    el.classList.add("highlighted");
    clearTimeout(this.highlightTimer);
    this.highlightTimer = setTimeout(() => el.classList.remove("highlighted"), 2000);
    if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
    el.focus({ preventScroll: true });
    return true;
  }

  /** To the newest message: past what is drawn, if newer ones were held back. */
  toNewest() {
    if (this.heldBack) {
      this.heldBack = false;
      this.onNewest();
    }
    this.scrollToBottom();
  }

  scrollToBottom() {
    this.el.scrollTop = this.el.scrollHeight;
    this.atBottom = true;
    // the bottom of what is drawn is not the newest while newer ones are held back
    if (!this.heldBack) this.showPill(0);
  }
}
