// Connection status (offline pill) and short announcements (a toast that is
// also read by screen readers).

import { h, icon, ICONS } from "./dom.js";

/** What the banner says while not online. */
export function bannerText(status, restarting = false) {
  if (restarting) return "Server restarting — reconnecting…";
  return status === "connecting" ? "Reconnecting…" : "Offline — your messages will be sent when you're back";
}

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

  /**
   * @param {string} status "connecting" | "online" | "offline"
   * @param {boolean} everOnline
   * @param {boolean} [restarting] the server closed saying it is going away or restarting
   */
  render(status, everOnline, restarting = false) {
    const offline = status !== "online" && everOnline;
    this.banner.hidden = !offline;
    document.documentElement.dataset.connection = status;
    if (offline) {
      this.banner.replaceChildren(icon(ICONS.offline), h("span", null, bannerText(status, restarting)));
    }
  }

  announce(text) {
    this.toastEl.textContent = text;
    this.toastEl.style.bottom = toastBottom();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.toastEl.textContent = "";
    }, 3500);
  }
}

/**
 * Where the toast stands: just above the open conversation's foot (the message box, or
 * the note in its place: "You blocked Ben." with Unblock), not over what it says; its
 * place in the stylesheet when no conversation is shown.
 */
function toastBottom() {
  let top = Infinity;
  for (const el of document.querySelectorAll("#chat .composer-area, #chat .left-banner")) {
    const r = el.getBoundingClientRect();
    if (r.height > 0 && r.bottom <= innerHeight + 1) top = Math.min(top, r.top);
  }
  return top === Infinity ? "" : `${Math.round(innerHeight - top + 12)}px`;
}
