// Icon Store (seed 000): a list of icons; tapping one returns to compact and
// inserts a message (caption = name, subcaption = price, image = the icon,
// URL = its query items). Tapping that bubble opens the app expanded on the
// icon's details (image, name, description, price, Buy); going back to
// compact dismisses the details.

import { MessagesAppViewController, Message, TemplateLayout, h as el } from "../../sdk/index.js";
import { Icon, IconData } from "./icons.js";
import { renderIconCard } from "./render.js";

const $ = (id) => document.getElementById(id);


class MessagesViewController extends MessagesAppViewController {
  constructor() {
    super();
    this.iconSet = IconData.iconSet;
    /** @type {Icon | null} the icon the details show */
    this.selectedIcon = null;
    this.owned = new Set();
    this.toastTimer = 0;
    // Escape closes the details, and only them: the SDK hands an Escape we did
    // not take (defaultPrevented) to the host, which would collapse the pane too.
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && !$("details").hidden) {
        e.preventDefault();
        this.dismissDetails();
      }
    });
  }

  // ---- lifecycle ---------------------------------------------------------------

  async willBecomeActive(conversation) {
    this.note("willBecomeActive");
    this.owned = new Set((await this.storage.get("owned").catch(() => null)) || []);
    this.renderTable();
    // Opened by a tap on a bubble: expanded, with the message selected.
    if (this.presentationStyle !== "expanded") {
      this.dismissDetails();
      return;
    }
    if (conversation.selectedMessage) this.presentIconDetails(conversation.selectedMessage);
  }

  didBecomeActive() { this.note("didBecomeActive"); }
  willResignActive() { this.note("willResignActive"); }
  didResignActive() { this.note("didResignActive"); }

  willTransition(style) {
    this.note(`willTransition:${style}`);
    // Back to compact: the details were a modal over the list; dismiss them.
    if (style === "compact") this.dismissDetails();
  }

  didTransition(style) { this.note(`didTransition:${style}`); }

  didSelect(message, conversation) {
    this.note("didSelect");
    const selected = conversation.selectedMessage;
    if (!selected) return;
    this.presentIconDetails(selected);
  }

  didReceive() { this.note("didReceive"); }

  /** Bought (or the store changed) on another of this person's devices: shown here too. */
  storageDidChange(key, value) {
    this.note("storageDidChange");
    if (key !== "owned") return;
    this.owned = new Set(Array.isArray(value) ? value : []);
    this.renderTable();
    this.showOwnedInDetails();
  }
  didStartSending() { this.note("didStartSending"); }
  didCancelSending() { this.note("didCancelSending"); }

  note(name) {
    $("lifecycle").append(el("li", {}, name));
  }

  // ---- the table of icons ---------------------------------------------------------

  renderTable() {
    const rows = this.iconSet.map((icon) => {
      const owned = this.owned.has(icon.imageName);
      return el("li", {},
        el("button", {
          type: "button", class: "icon-row", dataset: { icon: icon.imageName },
          "aria-label": `${icon.name}, ${icon.formattedPrice}${owned ? ", owned" : ""}. Send it`,
          onclick: (e) => this.didSelectRow(icon, e.currentTarget),
        },
        el("img", { class: "thumb", src: icon.imagePath, alt: "", width: 72, height: 72 }),
        el("span", { class: "text" },
          el("span", { class: "name" }, icon.name, icon.isFeatured ? el("span", { class: "badge" }, "Featured") : null),
          el("span", { class: "desc" }, icon.description)),
        el("span", { class: ["price", owned && "owned"].filter(Boolean).join(" ") }, owned ? "Owned" : icon.formattedPrice)));
    });
    $("icons").replaceChildren(...rows);
  }

  /** The seed's tableView(_:didSelectRowAt:): back to compact, then a message in the composer. */
  async didSelectRow(icon, row) {
    if (row.getAttribute("aria-busy") === "true") return;
    this.requestPresentationStyle("compact").catch(() => {});
    const conversation = this.activeConversation;
    if (!conversation) return;
    row.setAttribute("aria-busy", "true");
    try {
      const layout = new TemplateLayout({
        caption: icon.name,
        subcaption: icon.formattedPrice,
        image: await renderIconCard(icon),
      });
      const message = new Message();
      message.layout = layout;
      message.url = icon.url;
      message.summaryText = `${icon.name} · ${icon.formattedPrice}`;
      const inserted = conversation.insert(message);
      this.toast(`${icon.name} is in your message. Press Send.`);
      inserted.catch((error) => {
        if (error.code !== "cancelled") this.toast(`${icon.name} was not sent: ${error.message}`);
      });
    } catch (error) {
      this.toast(`Could not add ${icon.name}: ${error.message}`);
    } finally {
      row.removeAttribute("aria-busy");
    }
  }

  // ---- the details (the seed's IconDetailViewController) -------------------------------

  presentIconDetails(message) {
    this.selectedIcon = Icon.fromMessage(message);
    const details = $("details");
    const icon = this.selectedIcon;
    if (!icon) {
      details.replaceChildren(
        this.detailsBar(),
        el("p", { class: "empty" }, "This message has no icon in it."));
      this.showDetails(details.querySelector("button"));
      return;
    }
    // The image: ours if this version knows the icon, else the one in the bubble.
    const bubbleImage = typeof message.templateLayout?.image === "string" ? message.templateLayout.image : null;
    const src = icon.imagePath || bubbleImage;
    const key = icon.imageName || icon.name;
    const owned = this.owned.has(key);
    const buy = el("button", {
      type: "button", id: "buy", class: "buy", disabled: owned,
      onclick: () => this.buy(icon, key),
    }, owned ? "Purchased ✓" : "Buy");
    const hero = el("div", { class: "hero" }, src ? el("img", { id: "detail-image", src, alt: icon.name }) : null);
    hero.style.setProperty("--tint", icon.tint);
    details.replaceChildren(
      this.detailsBar(),
      el("div", { class: "details-body" },
        hero,
        el("div", { class: "info" },
          el("h2", { id: "detail-name", tabIndex: -1 }, icon.name),
          el("p", { id: "detail-description" }, icon.description),
          el("p", { id: "detail-price", class: "big-price" }, icon.formattedPrice),
          // the store is a demo (Apple's sample): Buy looked like a real purchase, with no
          // question asked (a first-time user's review)
          el("p", { id: "pretend-note", class: "pretend-note" }, "A pretend price: nothing is charged."),
          buy,
          el("p", { id: "owned-note", class: "owned-note", hidden: !owned }, "It's in your collection."))));
    details.scrollTop = 0;
    $("toast").hidden = true;
    this.showDetails($("detail-name"));
  }

  /**
   * The details cover the list: the list is inert (the keyboard and screen
   * readers cannot reach it behind them), and the focus, if the user is in
   * the app, goes to `first`. Opened from the host (a bubble), the host keeps
   * the focus; Tab into the app then lands in the details.
   */
  showDetails(first) {
    $("details").hidden = false;
    $("store").inert = true;
    document.documentElement.classList.add("showing-details");
    if (document.hasFocus()) first?.focus();
  }

  detailsBar() {
    return el("div", { class: "details-bar" },
      el("button", { type: "button", class: "back", onclick: () => this.dismissDetails() },
        el("span", { "aria-hidden": "true" }, "‹ "), "All icons"));
  }

  /** Closes the details; the focus, if it was in them, goes back to the icon they showed. */
  dismissDetails() {
    const details = $("details");
    if (details.hidden) return;
    const active = document.activeElement;
    const hadFocus = document.hasFocus() && (details.contains(active) || active === document.body);
    const key = this.selectedIcon?.imageName;
    details.hidden = true;
    details.replaceChildren();
    this.selectedIcon = null;
    $("store").inert = false;
    document.documentElement.classList.remove("showing-details");
    if (!hadFocus) return;
    const row = (key && $("icons").querySelector(`[data-icon="${CSS.escape(key)}"]`)) || $("icons").querySelector("button");
    row?.focus();
  }

  /**
   * Read-modify-write: the purchase is added to what storage holds now, not to the
   * set this page read when it opened (bought on the phone, then on the laptop, the
   * laptop's whole-list write erased the phone's purchase).
   */
  async buy(icon, key) {
    let owned;
    try {
      owned = new Set((await this.storage.get("owned")) || []);
      owned.add(key);
      await this.storage.set("owned", [...owned]);
    } catch (error) {
      this.toast(`The purchase did not go through: ${error.message}`);
      return;
    }
    this.owned = owned;
    this.showOwnedInDetails();
    this.renderTable();
    this.toast(`${icon.name} is yours.`);
  }

  /** The details' Buy button and note follow whether their icon is owned. */
  showOwnedInDetails() {
    const icon = this.selectedIcon;
    const buy = $("buy");
    if (!icon || !buy) return;
    const owned = this.owned.has(icon.imageName || icon.name);
    buy.disabled = owned;
    buy.textContent = owned ? "Purchased ✓" : "Buy";
    const note = $("owned-note");
    if (note) note.hidden = !owned;
  }

  toast(text) {
    const t = $("toast");
    t.textContent = text;
    t.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => {
      t.hidden = true;
    }, 3500);
  }
}

MessagesViewController.start();
