// The conversation list with unread counts, and who you are.

import { h, icon, ICONS } from "./dom.js";
import { conversationHash } from "../state/route.js";
import { unreadLabel, shortWhen } from "../state/format.js";
import { initials, hueFor } from "../state/text.js";
import { membersLine } from "../state/conversations.js";
import { typingNow } from "../state/typing.js";
import { subduedCount } from "../state/attention.js";

export function avatar(name, id, { small = false, online = false } = {}) {
  const el = h("span", { class: ["avatar", small && "small", online && "online"], "aria-hidden": "true" }, initials(name));
  el.style.setProperty("--hue", String(hueFor(id)));
  return el;
}

export class SidebarView {
  /**
   * @param {HTMLElement} el
   * @param {{onNew: () => void, onRename: () => void, onAccount: () => void, onAdmin: () => void}} opts
   */
  constructor(el, { onNew, onRename, onAccount, onAdmin }) {
    this.list = h("ul", { class: "conv-list", "aria-label": "Your conversations" });
    /** Each conversation's item and what it shows, drawn again only when that changes. */
    this.items = new Map();
    this.meName = h("span", { class: "name" });
    el.replaceChildren(
      h("div", { class: "sidebar-header" },
        h("h1", { class: "brand" }, h("span", { class: "brand-mark", "aria-hidden": "true" }, "● "), "Parlor"),
        h("span", { class: "spacer" }),
        this.newButton = h("button", { class: "icon-button", type: "button", "aria-label": "New conversation", onclick: onNew }, icon(ICONS.plus))),
      this.list,
      h("div", { class: "me" }, h("span", { class: "me-line" }, "Signed in as ", this.meName),
        h("span", { class: "me-actions" },
          h("button", { class: "button small", type: "button", "aria-label": "Change your name", onclick: onRename }, "Rename"),
          h("button", { class: "button small", type: "button", onclick: onAccount }, "Account"),
          this.adminButton = h("button", { class: "button small", type: "button", hidden: true, onclick: onAdmin }, "Admin"))));
  }

  /** Focus to the list: that conversation's link, or the open one's, else the first, else New conversation. */
  focus(conversationId) {
    const link = conversationId && this.linkOf(conversationId);
    (link || this.list.querySelector("a[aria-current=page]") || this.list.querySelector("a") || this.newButton).focus();
  }

  /**
   * @param {object} state the store's state
   * @param {(conversationId: string) => number} unread
   * @param {(conversationId: string, userId: string) => string} nameOf a member's name as shown
   * @param {(conversationId: string) => boolean} [mentioned] an unread message there mentions this user
   */
  render(state, unread, nameOf, mentioned = () => false) {
    this.meName.textContent = state.user ? state.user.name : "";
    this.adminButton.hidden = state.user?.admin !== true;
    const selfId = state.user?.id;
    if (state.conversations.length === 0) {
      this.items.clear();
      this.list.replaceChildren(h("li", { class: "conv-empty" }, "No conversations yet. Start one with +, or open an invite link someone sent you."));
      return;
    }
    // A message in one conversation redraws that item and moves it; the others stay as
    // they are (300 of them drawn again at every message took 40 ms on a slow phone).
    // A keyboard user's focus on an item that is drawn again stays on that conversation.
    const focused = this.list.contains(document.activeElement) ? document.activeElement.closest("li")?.dataset.conversationId : undefined;
    const now = Date.now();
    const wanted = state.conversations.map((c) => {
      const typing = c.left ? "" : typingNow(state.typing?.[c.id], now, selfId, (userId) => nameOf(c.id, userId));
      const n = unread(c.id);
      return this.item(c, state, n, selfId, typing, n > 0 && !c.left && mentioned(c.id));
    });
    const keep = new Set(wanted);
    for (const child of [...this.list.children]) if (!keep.has(child)) child.remove();
    let cursor = this.list.firstElementChild;
    for (const li of wanted) {
      if (cursor === li) cursor = cursor.nextElementSibling;
      else this.list.insertBefore(li, cursor);
    }
    for (const id of this.items.keys()) if (!state.conversations.some((c) => c.id === id)) this.items.delete(id);
    const link = focused && this.linkOf(focused);
    if (link && document.activeElement !== link) link.focus({ preventScroll: true });
  }

  /** The link of a conversation's item. */
  linkOf(conversationId) {
    return this.list.querySelector(`li[data-conversation-id="${CSS.escape(conversationId)}"] a`);
  }

  /**
   * One conversation's item: the one drawn before if nothing it shows has changed.
   * `typing`: who is typing there ("Ben is typing…"), shown instead of the last message;
   * `at`: an unread message mentions this user ("@" beside the count).
   */
  item(c, state, n, selfId, typing, at = false) {
    const online = state.presence[c.id];
    const othersOnline = online ? c.members.some((m) => m.userId !== selfId && online.has(m.userId)) : false;
    const preview = state.previews?.[c.id];
    const line = c.left ? (c.left === "removed" ? "You were removed" : "You left") : preview?.text ?? membersLine(c.members, selfId);
    const when = preview ? shortWhen(preview.at) : "";
    const current = state.currentId === c.id;
    const quiet = c.left ? null : QUIET[c.notify];
    // a muted conversation's count stays, subdued: it asks for nothing (state/attention.js)
    const subdued = subduedCount(c.notify, at);
    const shown = [c.title, c.left, n, othersOnline, line, when, current, typing, at, quiet, subdued].join("\u0000");
    const held = this.items.get(c.id);
    if (held && held.shown === shown) return held.li;
    const label = `${c.title}${n ? `, ${n} unread` : ""}${at ? ", mentions you" : ""}${quiet ? `, ${quiet.toLowerCase()}` : ""}${c.left ? ", left" : ""}: ${typing || line}${when ? `, ${when}` : ""}`;
    const li = h("li", { class: ["conv-item", c.left && "left"], dataset: { conversationId: c.id } },
      h("a", { href: conversationHash(c.id), "aria-current": current ? "page" : null, "aria-label": label },
        avatar(c.title, c.id, { online: othersOnline }),
        h("span", { class: "conv-title-line" }, h("span", { class: "conv-title", dir: "auto" }, c.title),
          quiet ? h("span", { class: "conv-quiet", "aria-hidden": "true" }, quiet) : null),
        h("span", { class: "conv-when" }, when),
        typing ? h("span", { class: "conv-preview typing" }, typing) : h("span", { class: "conv-preview", dir: "auto" }, line),
        h("span", { class: "conv-end", "aria-hidden": "true" },
          at ? h("span", { class: "badge mention-badge", title: "Mentions you" }, "@") : null,
          n ? h("span", { class: ["badge", subdued && "quiet-badge"] }, unreadLabel(n)) : null)));
    this.items.set(c.id, { li, shown });
    return li;
  }
}

/** How the list shows a conversation whose notifications are not all (members.js). */
const QUIET = { mentions: "Mentions only", none: "Muted" };
