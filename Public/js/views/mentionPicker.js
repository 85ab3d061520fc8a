// The list of members that "@" opens in the message box: filtered as one types the
// name, Up/Down to move, Enter or Tab to put "@Name " in the text, Escape to close;
// a tap or click picks too. The box stays a textbox (a textarea may not be a
// combobox) with aria-autocomplete="list", aria-controls and aria-activedescendant
// pointing into the listbox, so a screen reader says the option the arrows reach.

import { h } from "./dom.js";
import { mentionQuery, mentionChoices, insertMention } from "../state/mentions.js";
import { shownName } from "../state/sameNames.js";

export class MentionPicker {
  /**
   * @param {HTMLTextAreaElement} input
   * @param {{members: () => {userId: string, name: string}[], selfId: () => string | undefined}} api
   */
  constructor(input, api) {
    this.input = input;
    this.api = api;
    this.choices = [];
    this.active = 0;
    this.query = null;
    this.list = h("ul", { id: "mention-list", class: "mention-list", role: "listbox", "aria-label": "People to mention", hidden: true });
    input.closest(".composer").append(this.list);
    input.setAttribute("aria-autocomplete", "list");
    input.addEventListener("input", () => this.update());
    input.addEventListener("click", () => this.update());
    input.addEventListener("blur", () => this.close());
    // before the composer's own keys (Enter sends, Escape cancels an edit or a reply)
    input.addEventListener("keydown", (e) => this.key(e), true);
  }

  get open() {
    return !this.list.hidden;
  }

  update() {
    const q = mentionQuery(this.input.value, this.input.selectionStart ?? this.input.value.length);
    const choices = q ? mentionChoices(this.api.members(), q.query, this.api.selfId()) : [];
    if (!choices.length) return this.close();
    this.query = q;
    this.choices = choices;
    this.active = 0;
    this.render();
  }

  render() {
    const members = this.api.members();
    this.list.replaceChildren(...this.choices.map((m, i) => h("li", {
      id: `mention-option-${i}`, class: "mention-option", role: "option", "aria-selected": i === this.active ? "true" : "false",
      // the box keeps the focus (and a phone its keyboard) while a finger or a pointer picks
      onpointerdown: (e) => e.preventDefault(),
      onclick: () => this.pick(i),
    }, shownName(members, m))));
    this.list.hidden = false;
    this.input.setAttribute("aria-controls", this.list.id);
    this.input.setAttribute("aria-activedescendant", `mention-option-${this.active}`);
  }

  close() {
    if (!this.open) return;
    this.list.hidden = true;
    this.list.replaceChildren();
    this.choices = [];
    this.input.removeAttribute("aria-activedescendant");
    this.input.removeAttribute("aria-controls");
  }

  key(e) {
    if (!this.open || e.isComposing) return;
    const n = this.choices.length;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      this.active = (this.active + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
      this.render();
    } else if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
      this.pick(this.active);
    } else if (e.key === "Escape") {
      this.close();
    } else {
      return;
    }
    e.preventDefault();
    e.stopImmediatePropagation();
  }

  pick(i) {
    const m = this.choices[i];
    if (!m || !this.query) return;
    const caret = this.input.selectionStart ?? this.input.value.length;
    const next = insertMention(this.input.value, this.query.start, caret, m.name);
    this.input.value = next.text;
    this.input.setSelectionRange(next.caret, next.caret);
    this.close();
    this.input.focus();
    // the composer saves the draft and sizes the box; the list stays closed ("@Ana " asks nothing)
    this.input.dispatchEvent(new Event("input"));
  }
}
