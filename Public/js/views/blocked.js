// Blocks as the page shows them: the account dialog's list of blocked people with
// Unblock, and the folded row that stands for a blocked person's message in a group
// (the server still delivers it: a group's history is the group's).

import { h } from "./dom.js";
import { avatar } from "./sidebar.js";
import { errorText } from "../state/errors.js";

export class BlockedList {
  /** @param {{unblock: (userId: string, name: string) => Promise<void>}} api */
  constructor(api) {
    this.api = api;
    this.list = h("ul", { class: "member-list", "aria-label": "Blocked people" });
    this.error = h("p", { class: "form-error", role: "alert" });
    this.el = h("section", { class: "blocked-section", "aria-labelledby": "blocked-title" },
      h("h3", { id: "blocked-title" }, "Blocked people"),
      h("p", { class: "muted small" }, "They cannot message you directly. Their messages in shared conversations are folded away for you; they are not told."),
      this.list, this.error);
  }

  /** @param {{userId: string, name: string}[]} blocked */
  render(blocked) {
    const drawn = JSON.stringify(blocked);
    if (drawn === this.drawn) return;
    this.drawn = drawn;
    const hadFocus = this.list.contains(document.activeElement);
    this.list.replaceChildren(...(blocked.length ? blocked.map((b) => h("li", { class: "member", dataset: { userId: b.userId } },
      avatar(b.name, b.userId, { small: true }),
      h("span", { class: "member-name" }, b.name),
      h("button", { class: "button small", type: "button", "aria-label": `Unblock ${b.name}`, onclick: () => this.unblock(b) }, "Unblock")))
      : [h("li", { class: "muted" }, "Nobody.")]));
    if (hadFocus) (this.list.querySelector("button") ?? this.el.closest("dialog")?.querySelector(".dialog-actions button"))?.focus();
  }

  async unblock(b) {
    this.error.textContent = "";
    try {
      await this.api.unblock(b.userId, b.name);
    } catch (e) {
      this.error.textContent = errorText(e);
    }
  }
}

/** A blocked person's message, folded: who is not said, Show draws it as it is. */
export function blockedRow(m, onShow) {
  return h("div", { class: "row folded", dataset: { seq: m.seq, kind: "blocked" } },
    h("div", { class: "folded-note" },
      h("span", null, "Message from someone you blocked"),
      h("button", { class: "button small", type: "button", "aria-label": "Show message from someone you blocked", onclick: onShow }, "Show")));
}
