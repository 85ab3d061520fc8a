// The first visit: pick a display name (with the invite link that brought you,
// on an invite-only server), or sign in to an account you already have, with
// its recovery key or with a code from one of your signed-in devices. The
// account's device token stays in this browser; coming back signs you in again.

import { h } from "./dom.js";

const LEAD = {
  name: "Chat and play with friends. Pick the name the others will see.",
  // no promise of a question before joining: an invite-only server (the default) makes
  // the account with the invite and joins in one step
  conversation: "You've been invited to a conversation. Pick the name the others there will see.",
  server: "You've been invited to this server. Pick the name the others will see.",
  recover: "Type the recovery key you saved when you made your account. This browser becomes one of its devices.",
  code: "On a device where you are signed in, open Account → Add a device, then type the code it shows.",
};

export class WelcomeView {
  /**
   * @param {HTMLElement} el
   * @param {{onRegister: (name: string) => void, onRecover: (key: string, revokeOthers: boolean) => void, onLink: (code: string) => void, behind?: Element[]}} opts
   *   behind: what the welcome covers, inert while it shows (no Tab or screen reader reaches it)
   */
  constructor(el, { onRegister, onRecover, onLink, behind = [] }) {
    this.el = el;
    this.behind = behind;
    this.mode = "name";
    this.invited = false;
    this.input = h("input", { id: "welcome-name", name: "name", maxlength: 64, autocomplete: "nickname", placeholder: "e.g. Ana" });
    this.keyInput = h("input", { id: "welcome-recovery-key", name: "recovery-key", autocomplete: "off", spellcheck: "false", placeholder: "XXXX-XXXX-XXXX-XXXX-XXXX-XXXX" });
    this.revokeOthers = h("input", { id: "welcome-revoke-others", type: "checkbox" });
    this.codeInput = h("input", { id: "welcome-code", name: "code", autocomplete: "one-time-code", spellcheck: "false", placeholder: "e.g. K7QM-2XHD", maxlength: 200 });
    this.error = h("p", { class: "form-error", id: "welcome-error", role: "alert" });
    this.lead = h("p");
    this.note = h("p", { class: "welcome-note" }, "On a new server, the first account becomes its admin.");
    this.button = h("button", { class: "button primary", type: "submit" }, "Continue");
    this.fields = {
      name: h("label", { class: "field", for: "welcome-name" }, "Your name", this.input),
      recover: h("div", { class: "welcome-fields" },
        h("label", { class: "field", for: "welcome-recovery-key" }, "Recovery key", this.keyInput),
        h("label", { class: "check", for: "welcome-revoke-others" }, this.revokeOthers, "Sign out my other devices (if one was lost or stolen)")),
      code: h("label", { class: "field", for: "welcome-code" }, "Code from your other device", this.codeInput),
    };
    const other = (mode, label) => h("button", { class: "link-button", type: "button", dataset: { mode }, onclick: () => this.setMode(mode) }, label);
    this.switches = h("div", { class: "welcome-switch" },
      other("recover", "Sign in with a recovery key"),
      other("code", "Sign in with a code from another device"),
      other("name", "New here? Make an account"));
    const form = h("form", { class: "welcome-card", "aria-labelledby": "welcome-title" },
      h("h1", { id: "welcome-title" }, "Welcome to Parlor"),
      this.lead,
      ...Object.values(this.fields),
      this.error,
      this.button,
      this.note,
      this.switches);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const value = this.current().value.trim();
      if (!value) {
        this.setError({ name: "Please type a name.", recover: "Please type your recovery key.", code: "Please type the code." }[this.mode]);
        return;
      }
      this.setError("");
      this.button.disabled = true;
      if (this.mode === "recover") onRecover(value, this.revokeOthers.checked);
      else if (this.mode === "code") onLink(value);
      else onRegister(value);
    });
    el.replaceChildren(form);
  }

  /** Says what is wrong, and ties it to the field a screen reader is on (or clears both). */
  setError(text) {
    this.error.textContent = text;
    for (const input of [this.input, this.keyInput, this.codeInput]) {
      const wrong = !!text && input === this.current();
      if (wrong) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", "welcome-error");
      } else {
        input.removeAttribute("aria-invalid");
        input.removeAttribute("aria-describedby");
      }
    }
  }

  current() {
    return { name: this.input, recover: this.keyInput, code: this.codeInput }[this.mode];
  }

  setMode(mode) {
    this.mode = mode;
    for (const [m, el] of Object.entries(this.fields)) el.hidden = m !== mode;
    for (const b of this.switches.children) b.hidden = b.dataset.mode === mode;
    this.lead.textContent = LEAD[mode === "name" && this.invited ? this.invited : mode];
    // an invitee joins someone's server: who becomes its admin is not their business
    this.note.hidden = mode !== "name" || this.invited;
    this.button.textContent = mode === "name" ? "Continue" : "Sign in";
    this.setError("");
    this.current().focus();
  }

  /** @param {{invited?: false | "conversation" | "server", error?: string, mode?: "name" | "recover" | "code"}} [o]
   *   invited: by a conversation's invite link, or a registration link to the server */
  show({ invited = false, error = "", mode = this.mode } = {}) {
    this.invited = invited;
    this.shown(true);
    this.setMode(mode);
    this.setError(error);
    this.button.disabled = false;
  }

  /** Signing in through a link: nothing to type, only the outcome to wait for. */
  busy(text) {
    this.shown(true);
    this.lead.textContent = text;
    this.button.disabled = true;
  }

  hide() {
    this.shown(false);
  }

  shown(on) {
    this.el.hidden = !on;
    for (const el of this.behind) el.inert = on;
  }
}
