// A conversation's people: its title (renamed by its creator or an admin), the
// member list with Remove for those who may remove, Message (the direct conversation
// with them) and Block/Unblock beside each other member, muting its notifications on
// every device of this person (its notification level, kept by the server), and
// Leave. It redraws when
// the store's conversation changes, so joins, leaves and removals show live.

import { h } from "./dom.js";
import { avatar } from "./sidebar.js";
import { counted } from "../state/format.js";
import { canModerate } from "../state/conversations.js";
import { shownName } from "../state/sameNames.js";
import { errorText } from "../state/errors.js";

const NOTIFY_CHOICES = [["all", "All messages"], ["mentions", "Mentions only"], ["none", "None"]];

export class MembersDialog {
  /**
   * @param {{rename: (title: string) => Promise<void>, remove: (userId: string, name: string) => Promise<void>, leave: () => Promise<boolean>,
   *   setNotify: (conversationId: string, notify: string) => Promise<void>,
   *   message: (userId: string) => Promise<void>, blocked: (userId: string) => boolean,
   *   block: (userId: string, name: string) => Promise<boolean>, unblock: (userId: string, name: string) => Promise<void>}} api
   */
  constructor(api) {
    this.api = api;
    this.conversationId = null;
    this.heading = h("h2", { id: "members-title" }, "Members");
    this.titleInput = h("input", { id: "members-title-input", maxlength: 100, autocomplete: "off" });
    this.renameForm = h("form", { class: "inline-form" },
      h("label", { class: "field", for: "members-title-input" }, "Conversation title", this.titleInput),
      h("button", { class: "button small", type: "submit" }, "Rename"));
    this.renameForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const t = this.titleInput.value.trim();
      if (t) this.run(api.rename, t);
    });
    this.count = h("p", { id: "members-count" });
    this.list = h("ul", { class: "member-list", "aria-label": "Members" });
    this.error = h("p", { class: "form-error", role: "alert" });
    // notifications from this conversation, on every device of this person
    this.muteRow = h("fieldset", { class: "notify-choice" }, h("legend", {}, "Notifications"),
      ...NOTIFY_CHOICES.map(([value, label]) => h("label", { class: "check" },
        h("input", { type: "radio", name: "members-notify", value, onchange: () => this.run(api.setNotify, this.conversationId, value) }), label)));
    this.leaveButton = h("button", { class: "button danger", type: "button", onclick: () => this.leave() }, "Leave conversation");
    this.dialog = h("dialog", { id: "members", class: "wide", "aria-labelledby": "members-title" },
      h("div", { class: "dialog-body" }, this.heading, this.renameForm, this.count, this.list, this.muteRow, this.error,
        h("div", { class: "dialog-actions" }, this.leaveButton,
          this.done = h("button", { class: "button primary", type: "button", onclick: () => this.dialog.close() }, "Done"))));
    document.body.append(this.dialog);
  }

  get open() {
    return this.dialog.open;
  }

  async run(fn, ...args) {
    this.error.textContent = "";
    try {
      return (await fn(...args)) !== false; // false: the person said no
    } catch (e) {
      this.error.textContent = errorText(e);
      return false;
    }
  }

  async leave() {
    if (await this.run(this.api.leave)) this.dialog.close();
  }

  show(conversation, user) {
    this.error.textContent = "";
    this.titleInput.value = conversation.title;
    this.drawn = null;
    this.render(conversation, user);
    this.dialog.showModal();
  }

  /** @param {object} conversation from the store @param {object} user this user */
  render(conversation, user) {
    this.conversationId = conversation.id;
    const direct = conversation.direct === true;
    const mod = canModerate(conversation, user) && !conversation.left && !direct;
    this.renameForm.hidden = !mod;
    this.leaveButton.hidden = !!conversation.left;
    this.muteRow.hidden = !!conversation.left;
    for (const r of this.muteRow.querySelectorAll("input")) r.checked = r.value === (conversation.notify ?? "all");
    const n = Math.max(conversation.memberCount ?? 0, conversation.members.length);
    this.count.textContent = conversation.left ? "You are no longer a member." : counted(n, "member");
    const name = (m) => shownName(conversation.members, m);
    // The conversation changes with every message; the list only with its members.
    // Drawn again on each, 200 rows were rebuilt 100 times in 10 s in a busy room and a
    // moderator's focus on a Remove button fell to the page (a review).
    const drawn = JSON.stringify([conversation.id, mod, user.id, conversation.createdBy, conversation.members.map((m) => [m.userId, name(m), this.api.blocked(m.userId)])]);
    if (drawn === this.drawn) return;
    this.drawn = drawn;
    const focused = this.list.contains(document.activeElement) ? document.activeElement.closest("li")?.dataset.userId : null;
    const act = focused ? document.activeElement.dataset.act : null;
    this.list.replaceChildren(...conversation.members.map((m) => h("li", { class: "member", dataset: { userId: m.userId } },
      avatar(m.name, m.userId, { small: true }),
      h("span", { class: "member-name" }, name(m)),
      m.userId === user.id ? h("span", { class: "tag" }, "You") : null,
      m.userId === conversation.createdBy && !direct ? h("span", { class: "tag" }, "Creator") : null,
      m.userId !== user.id ? this.personButtons(m, name(m), direct) : null,
      mod && m.userId !== user.id
        ? h("button", { class: "button small danger", type: "button", dataset: { act: "remove" }, "aria-label": `Remove ${name(m)}`, onclick: () => this.run(this.api.remove, m.userId, name(m)) }, "Remove")
        : null)));
    // Block becomes Unblock (and back): the focus stays on it
    const row = focused ? `li[data-user-id="${CSS.escape(focused)}"]` : null;
    if (row) (this.list.querySelector(`${row} button[data-act="${act}"]`) ?? this.list.querySelector(`${row} button`) ?? this.done).focus();
  }

  /** Message (not in their direct conversation itself) and Block or Unblock. */
  personButtons(m, name, direct) {
    const blocked = this.api.blocked(m.userId);
    return h("span", { class: "member-actions" },
      direct || blocked ? null : h("button", { class: "button small", type: "button", dataset: { act: "message" }, "aria-label": `Message ${name}`, onclick: async () => {
        if (await this.run(this.api.message, m.userId)) this.dialog.close();
      } }, "Message"),
      blocked
        ? h("button", { class: "button small", type: "button", dataset: { act: "block" }, "aria-label": `Unblock ${name}`, onclick: () => this.run(this.api.unblock, m.userId, name) }, "Unblock")
        : h("button", { class: "button small danger", type: "button", dataset: { act: "block" }, "aria-label": `Block ${name}`, onclick: () => this.run(this.api.block, m.userId, name) }, "Block"));
  }
}
