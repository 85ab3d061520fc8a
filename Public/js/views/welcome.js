// The first visit: pick a display name. The account's token stays in this
// browser; coming back signs you in again.

import { h } from "./dom.js";

export class WelcomeView {
  /**
   * @param {HTMLElement} el
   * @param {{onSubmit: (name: string) => void}} opts
   */
  constructor(el, { onSubmit }) {
    this.el = el;
    this.input = h("input", { id: "welcome-name", name: "name", required: true, maxlength: 64, autocomplete: "nickname", placeholder: "e.g. Ana" });
    this.error = h("p", { class: "form-error", role: "alert" });
    this.lead = h("p");
    this.button = h("button", { class: "button primary", type: "submit" }, "Continue");
    const form = h("form", { class: "welcome-card", "aria-labelledby": "welcome-title" },
      h("h1", { id: "welcome-title" }, "Welcome to Parlor"),
      this.lead,
      h("label", { class: "field", for: "welcome-name" }, "Your name", this.input),
      this.error,
      this.button);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const name = this.input.value.trim();
      if (!name) {
        this.error.textContent = "Please type a name.";
        return;
      }
      this.button.disabled = true;
      onSubmit(name);
    });
    el.replaceChildren(form);
  }

  show({ invited = false, error = "" } = {}) {
    this.lead.textContent = invited
      ? "You've been invited to a conversation. Pick a name first; then you can choose whether to join it."
      : "Chat and play with friends. Pick the name the others will see.";
    this.error.textContent = error;
    this.button.disabled = false;
    this.el.hidden = false;
    this.input.focus();
  }

  hide() {
    this.el.hidden = true;
  }
}
