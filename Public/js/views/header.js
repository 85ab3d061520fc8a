// The conversation's header: title, members and who is here now, search, invite.

import { h, icon, ICONS } from "./dom.js";
import { avatar } from "./sidebar.js";
import { counted, someNames } from "../state/format.js";
import { shownName } from "../state/sameNames.js";

export class HeaderView {
  /**
   * @param {HTMLElement} el
   * @param {{onBack: () => void, onInvite: () => void, onStore: () => void, onMembers: () => void, onSearch?: () => void}} opts
   */
  constructor(el, { onBack, onInvite, onStore, onMembers, onSearch = () => {} }) {
    this.title = h("h2", { class: "chat-title", id: "chat-title" });
    this.sub = h("div", { class: "chat-sub", id: "chat-presence", "aria-live": "polite" });
    this.faces = h("div", { class: "faces", "aria-hidden": "true" });
    el.replaceChildren(
      h("button", { class: "icon-button back-button", type: "button", "aria-label": "Back to conversations", onclick: onBack }, icon(ICONS.back)),
      h("button", { class: "titles", type: "button", "aria-label": "Members and settings of this conversation", onclick: onMembers }, this.title, this.sub),
      this.faces,
      this.searchButton = h("button", {
        class: "icon-button search-button", type: "button", "aria-label": "Search in this conversation",
        "aria-controls": "search-panel", "aria-expanded": "false", "aria-keyshortcuts": "Control+F Meta+F", onclick: onSearch,
      }, icon(ICONS.search)),
      h("button", { class: "icon-button", type: "button", "aria-label": "App Store", onclick: onStore }, icon(ICONS.store)),
      this.inviteButton = h("button", { class: "button small", type: "button", "aria-label": "Invite people (copy link)", onclick: onInvite }, icon(ICONS.link), h("span", { class: "invite-label" }, "Invite")));
  }

  render(conversation, selfId, online) {
    this.title.textContent = conversation.title;
    // a direct conversation is the two of them: nobody else joins it
    this.inviteButton.hidden = !!conversation.left || conversation.direct === true;
    if (conversation.left) {
      this.sub.replaceChildren(h("span", { class: "left-note" }, conversation.left === "removed" ? "You were removed from this conversation" : "You left this conversation"));
      this.said = undefined;
      this.faces.replaceChildren();
      return;
    }
    const others = conversation.members.filter((m) => m.userId !== selfId);
    const here = others.filter((m) => online && online.has(m.userId));
    const parts = [];
    // a direct conversation the other person left: not "invite someone", which it cannot
    if (others.length === 0) parts.push(h("span", null, conversation.direct === true ? `${conversation.title} left` : "Just you so far — invite someone"));
    else {
      if (here.length) parts.push(h("span", { class: "presence-dot", "aria-hidden": "true" }));
      const name = (m) => shownName(conversation.members, m);
      const count = Math.max(conversation.memberCount ?? 0, others.length + 1);
      // a big room's line counts: every name made it 600 characters, read again by a
      // screen reader at each presence change, and a phone showed three of them
      const on = here.length > 3 ? `${here.length} online` : here.length ? `${here.map(name).join(", ")} online` : null;
      parts.push(h("span", null, on ? `${on} · ${counted(count, "member")}`
        : count > 4 ? counted(count, "member") : someNames(others.map(name), count - 1)));
    }
    // The line is a live region: drawn again with the same words, a screen reader
    // would say them again at every message and presence tick.
    const said = parts.map((el) => el.textContent).join("") + (here.length ? "•" : "");
    if (said !== this.said) this.sub.replaceChildren(...parts);
    this.said = said;
    this.faces.replaceChildren(...others.slice(0, 4).map((m) => avatar(m.name, m.userId, { small: true, online: !!(online && online.has(m.userId)) })));
  }
}
