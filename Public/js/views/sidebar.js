// The conversation list with unread counts, and who you are.

import { h, icon, ICONS } from "./dom.js";
import { conversationHash } from "../state/route.js";
import { unreadLabel, shortWhen } from "../state/format.js";
import { initials, hueFor } from "../state/text.js";
import { membersLine } from "../state/conversations.js";

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
    const link = conversationId && this.list.querySelector(`li[data-conversation-id="${CSS.escape(conversationId)}"] a`);
    (link || this.list.querySelector("a[aria-current=page]") || this.list.querySelector("a") || this.newButton).focus();
  }

  /**
   * @param {object} state the store's state
   * @param {(conversationId: string) => number} unread
   */
  render(state, unread) {
    this.meName.textContent = state.user ? state.user.name : "";
    this.adminButton.hidden = state.user?.admin !== true;
    const selfId = state.user?.id;
    if (state.conversations.length === 0) {
      this.list.replaceChildren(h("li", { class: "conv-empty" }, "No conversations yet. Start one with +, or open an invite link someone sent you."));
      return;
    }
    // The list is drawn anew on every change (a message, a name, presence): a keyboard
    // user's focus on one of its links must stay on that conversation, not fall to the page.
    const focused = this.list.contains(document.activeElement) ? document.activeElement.closest("li")?.dataset.conversationId : undefined;
    this.list.replaceChildren(...state.conversations.map((c) => {
      const n = unread(c.id);
      const online = state.presence[c.id];
      const othersOnline = online ? c.members.some((m) => m.userId !== selfId && online.has(m.userId)) : false;
      const preview = state.previews?.[c.id];
      const line = c.left ? (c.left === "removed" ? "You were removed" : "You left") : preview?.text ?? membersLine(c.members, selfId);
      const when = preview ? shortWhen(preview.at) : "";
      const label = `${c.title}${n ? `, ${n} unread` : ""}${c.left ? ", left" : ""}: ${line}${when ? `, ${when}` : ""}`;
      return h("li", { class: ["conv-item", c.left && "left"], dataset: { conversationId: c.id } },
        h("a", { href: conversationHash(c.id), "aria-current": state.currentId === c.id ? "page" : null, "aria-label": label },
          avatar(c.title, c.id, { online: othersOnline }),
          h("span", { class: "conv-title", dir: "auto" }, c.title),
          h("span", { class: "conv-when" }, when),
          h("span", { class: "conv-preview", dir: "auto" }, line),
          n ? h("span", { class: "badge", "aria-hidden": "true" }, unreadLabel(n)) : h("span")));
    }));
    if (focused) this.list.querySelector(`li[data-conversation-id="${CSS.escape(focused)}"] a`)?.focus({ preventScroll: true });
  }
}
