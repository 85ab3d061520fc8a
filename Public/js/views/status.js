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
    this.frame = 0;
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
    clearTimeout(this.timer);
    cancelAnimationFrame(this.frame);
    this.place();
    this.timer = setTimeout(() => {
      this.toastEl.textContent = "";
      cancelAnimationFrame(this.frame);
    }, 3500);
  }

  /** Keeps the toast above what it must not cover, every frame while it shows: that can
   * move under it (on a phone, "WenderPic installed." and then its pane opening under
   * the message box, which went up past the toast). */
  place() {
    const { bottom, left, maxWidth } = toastPlace();
    const style = this.toastEl.style;
    if (style.bottom !== bottom) style.bottom = bottom;
    if (style.left !== left) style.left = left;
    if (style.maxWidth !== maxWidth) style.maxWidth = maxWidth;
    this.frame = requestAnimationFrame(() => this.place());
  }
}

/**
 * Where the toast stands: just above the foot of what is shown under it (the message
 * box, or the note in its place: "You blocked Ben." with Unblock; the list's "Signed in
 * as" bar on a phone), not over what it says, and in the middle of it (the conversation's
 * column beside the list); its place in the stylesheet when none is. Only a foot across
 * the middle of the window counts (not the list's bar beside a conversation).
 */
function toastPlace() {
  let foot = null;
  const middle = innerWidth / 2;
  for (const el of document.querySelectorAll("#chat .composer-area, #chat .left-banner, .sidebar .me")) {
    const r = el.getBoundingClientRect();
    if (r.height > 0 && r.bottom <= innerHeight + 1 && r.left <= middle && r.right >= middle && (!foot || r.top < foot.top)) foot = r;
  }
  if (!foot) return { bottom: "", left: "", maxWidth: "" };
  const middleOfFoot = Math.round(foot.left + foot.width / 2);
  return {
    bottom: `${Math.round(innerHeight - foot.top + 12)}px`,
    left: `${middleOfFoot}px`,
    // as wide as the window lets it be around that middle
    maxWidth: `${Math.max(0, 2 * Math.min(middleOfFoot, innerWidth - middleOfFoot) - 32)}px`,
  };
}
