// The recovery key, shown once after sign-up (the server never shows it again):
// copy it or download it as a text file, and say you saved it. Until you do, a
// reminder stays at the top of the page.

import { h } from "./dom.js";
import { copyText } from "./dialogs.js";

export function recoveryKeyFile(key, origin) {
  return `Parlor recovery key for ${origin}\n\n${key}\n\nIt signs you in on a new device (Welcome → Sign in with a recovery key)\nand can sign out your other devices. Keep it somewhere safe and private.\n`;
}

export class RecoveryKeyDialog {
  /** @param {{onSaved: () => void}} opts */
  constructor({ onSaved }) {
    // not an <output>: that is a live region, and a screen reader would say the key
    // aloud as it appears; it is read where it stands, like the text around it
    this.key = h("p", { class: "secret", id: "recovery-key" });
    this.status = h("p", { role: "status", "aria-live": "polite" });
    this.saved = h("input", { type: "checkbox", id: "recovery-saved" });
    const done = h("button", { class: "button primary", type: "button", disabled: true }, "Done");
    const later = h("button", { class: "button", type: "button", onclick: () => this.dialog.close() }, "Remind me later");
    this.saved.addEventListener("change", () => {
      done.disabled = !this.saved.checked;
    });
    done.addEventListener("click", () => {
      onSaved();
      this.dialog.close();
    });
    const copy = h("button", { class: "button small", type: "button", onclick: async () => {
      const ok = await copyText(this.key.textContent, null);
      this.status.textContent = ok ? "Copied to the clipboard." : "Select the key and copy it.";
    } }, "Copy");
    const download = h("button", { class: "button small", type: "button", onclick: () => this.download() }, "Download as a file");
    this.dialog = h("dialog", { id: "recovery", "aria-labelledby": "recovery-title" },
      h("div", { class: "dialog-body" },
        h("h2", { id: "recovery-title" }, "Your recovery key"),
        h("p", null, "With this key you can get back into your account on a new device if you lose this one. Nobody can show it to you again: keep it somewhere safe and private."),
        this.key,
        h("div", { class: "row-actions" }, copy, download),
        this.status,
        h("label", { class: "check", for: "recovery-saved" }, this.saved, "I saved my recovery key"),
        h("div", { class: "dialog-actions" }, later, done)));
    document.body.append(this.dialog);
  }

  download() {
    const blob = new Blob([recoveryKeyFile(this.key.textContent, location.origin)], { type: "text/plain" });
    const a = h("a", { href: URL.createObjectURL(blob), download: "parlor-recovery-key.txt" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    this.status.textContent = "Downloaded parlor-recovery-key.txt.";
  }

  show(key) {
    this.key.textContent = key;
    this.status.textContent = "";
    this.saved.checked = false;
    this.saved.dispatchEvent(new Event("change"));
    if (!this.dialog.open) this.dialog.showModal();
  }
}

/** The reminder: stays until the key is saved. */
export class RecoveryReminder {
  /** @param {{parent: HTMLElement, before: Node | null, onShow: () => void}} opts where it stands: above "Signed in as" */
  constructor({ parent, before, onShow }) {
    this.el = h("div", { class: "reminder-banner", id: "recovery-reminder", role: "region", "aria-label": "Recovery key reminder", hidden: true },
      h("span", null, "Save your recovery key: without it, losing this browser means losing your account."),
      h("button", { class: "button small", type: "button", onclick: onShow }, "Show key"));
    parent.insertBefore(this.el, before);
  }

  render(unsavedKey) {
    this.el.hidden = !unsavedKey;
  }
}
