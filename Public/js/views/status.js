// Connection status (offline pill) and short announcements (a toast that is
// also read by screen readers).

import { h, icon, ICONS } from "./dom.js";

export class StatusView {
  constructor(toastEl) {
    this.toastEl = toastEl;
    this.banner = h("div", { class: "offline-banner", id: "offline-banner", role: "status", hidden: true });
    this.timer = null;
  }

  /** Where the banner goes (top of the conversation column). */
  mount(parent) {
    parent.prepend(this.banner);
  }

  render(status, everOnline) {
    const offline = status !== "online" && everOnline;
    this.banner.hidden = !offline;
    document.documentElement.dataset.connection = status;
    if (offline) {
      this.banner.replaceChildren(icon(ICONS.offline), h("span", null, status === "connecting" ? "Reconnecting…" : "Offline — your messages will be sent when you're back"));
    }
  }

  announce(text) {
    this.toastEl.textContent = text;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.toastEl.textContent = "";
    }, 3500);
  }
}
