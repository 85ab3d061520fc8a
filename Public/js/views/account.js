// Your account: the devices signed in to it (this one marked), renamed or
// signed out one by one or all at once; "Add a device" (a one-time link and a
// short code, with their expiry); notifications in this browser; a new recovery
// key; signing this browser out; deleting the account.
// Every request is made by `api` on a click; the dialog draws what it answers.

import { h } from "./dom.js";
import { copyText } from "./dialogs.js";
import { shortWhen, clockTime } from "../state/format.js";
import { errorText } from "../state/errors.js";

export class AccountDialog {
  /**
   * @param {object} api
   * @param {() => Promise<object[]>} api.devices
   * @param {(id: string, name: string) => Promise<void>} api.renameDevice
   * @param {(id: string) => Promise<void>} api.revokeDevice
   * @param {() => Promise<number>} api.revokeOthers
   * @param {() => Promise<{link: string, code: string, expiresAt: number}>} api.createLink
   * @param {() => Promise<void>} api.newRecoveryKey
   * @param {() => void} api.signOut
   * @param {() => void} api.deleteAccount  asks, in a dialog of its own
   * @param {() => string} api.notices  whether notifications can be had (views/notices.js `noticeState`)
   * @param {(on: boolean) => Promise<string>} api.chooseNotices  turns them on (asking the browser) or off
   */
  constructor(api) {
    this.api = api;
    this.list = h("ul", { class: "device-list", "aria-label": "Your devices" });
    this.error = h("p", { class: "form-error", role: "alert" });
    this.linkBox = h("div", { class: "link-box", hidden: true });
    this.notify = h("input", { type: "checkbox", id: "notify-on", "aria-describedby": "notify-note", onchange: () => this.chooseNotices() });
    // said when it changes (a refusal comes after the browser's own question)
    this.notifyNote = h("p", { class: "muted small", id: "notify-note", role: "status" });
    this.dialog = h("dialog", { id: "account", class: "wide", "aria-labelledby": "account-title" },
      h("div", { class: "dialog-body" },
        h("h2", { id: "account-title" }, "Account and devices"),
        h("p", null, "Each browser signed in to your account is a device. Sign out one you lost or no longer use."),
        this.list,
        this.error,
        h("div", { class: "row-actions" },
          h("button", { class: "button primary small", type: "button", onclick: () => this.addDevice() }, "Add a device"),
          h("button", { class: "button small danger", type: "button", onclick: () => this.revokeOthers() }, "Sign out everywhere else")),
        this.linkBox,
        h("h3", null, "Notifications"),
        h("label", { class: "check", for: "notify-on" }, this.notify, "Tell me of new messages while Parlor is in the background"),
        this.notifyNote,
        h("div", { class: "row-actions" },
          h("button", { class: "button small", type: "button", onclick: () => this.run(api.newRecoveryKey) }, "New recovery key"),
          h("button", { class: "button small danger", type: "button", onclick: () => api.signOut() }, "Sign out of this browser")),
        h("div", { class: "row-actions" },
          h("button", { class: "button small danger", type: "button", onclick: () => {
            this.dialog.close();
            api.deleteAccount();
          } }, "Delete account…")),
        h("div", { class: "dialog-actions" },
          h("button", { class: "button", type: "button", onclick: () => this.dialog.close() }, "Done"))));
    document.body.append(this.dialog);
  }

  async show() {
    this.error.textContent = "";
    this.linkBox.hidden = true;
    this.list.replaceChildren(h("li", { class: "muted" }, "Loading…"));
    this.renderNotices(this.api.notices());
    if (!this.dialog.open) this.dialog.showModal();
    await this.refresh();
  }

  async refresh() {
    try {
      this.renderDevices(await this.api.devices());
    } catch (e) {
      this.error.textContent = errorText(e);
    }
  }

  /** Runs a request; its refusal shows in the dialog. */
  async run(fn, ...args) {
    this.error.textContent = "";
    try {
      return await fn(...args);
    } catch (e) {
      this.error.textContent = errorText(e);
      return undefined;
    }
  }

  renderDevices(devices) {
    this.list.replaceChildren(...devices.map((d) => {
      const name = h("span", { class: "device-name" }, d.name);
      const rename = h("button", { class: "button small", type: "button", "aria-label": `Rename ${d.name}`, onclick: () => this.rename(d, row) }, "Rename");
      const revoke = d.current ? null : h("button", { class: "button small danger", type: "button", "aria-label": `Sign out ${d.name}`, onclick: async () => {
        await this.run(this.api.revokeDevice, d.id);
        await this.refresh();
      } }, "Sign out");
      const row = h("li", { class: "device", dataset: { deviceId: d.id, current: d.current ? "true" : "false" } },
        h("div", { class: "device-text" }, name,
          d.current ? h("span", { class: "tag" }, "This device") : null,
          h("span", { class: "muted small" }, `Signed in ${shortWhen(d.lastSeenAt ?? d.createdAt)}`)),
        rename, revoke);
      return row;
    }));
  }

  async chooseNotices() {
    // not disabled while the browser asks: Chromium moved the focus off the box to the
    // page, and a keyboard user was left nowhere in the dialog
    if (this.asking) return;
    this.asking = true;
    try {
      this.renderNotices(await this.api.chooseNotices(this.notify.checked));
    } finally {
      this.asking = false;
    }
  }

  /** @param {string} state as views/notices.js `noticeState` says it */
  renderNotices(state) {
    this.notify.checked = state === "on";
    this.notify.disabled = state === "insecure" || state === "unsupported";
    this.notifyNote.textContent = NOTICE_NOTES[state] ?? "";
  }

  /** Renames in place: the name becomes a field until Enter or Escape. */
  rename(device, row) {
    const input = h("input", { class: "inline-input", value: device.name, maxlength: 64, "aria-label": "Device name" });
    const finish = async (save) => {
      const name = input.value.trim();
      if (save && name && name !== device.name) await this.run(this.api.renameDevice, device.id, name);
      await this.refresh();
    };
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        finish(true);
      } else if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        finish(false);
      }
    });
    row.querySelector(".device-name").replaceWith(input);
    input.focus();
    input.select();
  }

  async revokeOthers() {
    const n = await this.run(this.api.revokeOthers);
    if (n !== undefined) await this.refresh();
  }

  async addDevice() {
    const r = await this.run(this.api.createLink);
    if (!r) return;
    const known = new Set([...this.list.querySelectorAll(".device")].map((row) => row.dataset.deviceId));
    const field = h("input", { id: "device-link", readonly: true, value: r.link });
    const status = h("p", { role: "status", "aria-live": "polite" });
    this.linkBox.replaceChildren(
      h("p", null, "On the other device, open this link, or choose “Sign in with a code from another device” and type the code. It works once, until ",
        h("time", { datetime: new Date(r.expiresAt).toISOString() }, clockTime(r.expiresAt)), "."),
      h("label", { class: "field", for: "device-link" }, "Link", field),
      h("div", { class: "code-line" }, h("span", { class: "muted" }, "Code"), h("output", { class: "secret", id: "device-code" }, r.code),
        h("button", { class: "button small", type: "button", onclick: async () => {
          status.textContent = (await copyText(r.link, field)) ? "Link copied." : "Select the link and copy it.";
        } }, "Copy link")),
      status);
    this.linkBox.hidden = false;
    this.watchForNewDevice(r, known);
  }

  /**
   * While the link shows, asks every few seconds whether a device came in: the panel
   * went on showing a used code as if it still worked (a review of one person on two
   * devices). A few small requests, only while this dialog shows this link.
   */
  async watchForNewDevice(link, known) {
    const box = this.linkBox.firstChild;
    const showing = () => this.dialog.open && !this.linkBox.hidden && this.linkBox.firstChild === box && Date.now() < link.expiresAt;
    while (showing()) {
      await new Promise((resolve) => setTimeout(resolve, NEW_DEVICE_POLL_MS));
      if (!showing()) return;
      let devices;
      try {
        devices = await this.api.devices();
      } catch {
        continue;
      }
      const added = devices.find((d) => !known.has(d.id));
      if (!added || !showing()) continue;
      this.renderDevices(devices);
      this.linkBox.replaceChildren(h("p", { role: "status" }, `“${added.name}” was added. The link and its code are used up: Add a device makes new ones.`));
      return;
    }
  }
}

const NEW_DEVICE_POLL_MS = 2000;

const NOTICE_NOTES = {
  on: "While a tab of Parlor is open, also in the background, on this device.",
  off: "While a tab of Parlor is open, also in the background, on this device. Your browser asks first.",
  blocked: "This browser blocks notifications from this site: allow them in its site settings, then turn this on.",
  insecure: "Notifications need this server's https:// address.",
  unsupported: "This browser cannot show notifications.",
};
