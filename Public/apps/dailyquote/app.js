// The Daily Quote (seed 001). The main controller holds two child view
// controllers, like the seed's view-controller containment: compact shows
// today's quote, its author and Share; expanded lists every quote, and
// tapping one shares it. Both report a share through one delegate method,
// shareQuote(_:). The child view is swapped in willBecomeActive and in
// willTransition, before the pane changes size.

import { MessagesAppViewController, Message, TemplateLayout, h as el, shorten } from "../../sdk/index.js";
import { Quotes, quoteFromMessage, urlFor, dayLabel, bannerText, messageTexts } from "./quotes.js";
import { renderBanner } from "./render.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";


/** The share glyph (a box with an arrow), drawn as SVG nodes. */
function shareGlyph() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "glyph");
  for (const d of ["M12 3v12", "M7.5 7.5 12 3l4.5 4.5", "M5 12v6.5A2.5 2.5 0 0 0 7.5 21h9a2.5 2.5 0 0 0 2.5-2.5V12"]) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  return svg;
}

/** A child view controller: a view, and the containment callbacks. */
class ViewController {
  constructor() {
    /** @type {import("./app.js").QuoteSelectionDelegate | null} */
    this.delegate = null;
    this.parent = null;
    this.view = this.loadView();
  }
  loadView() {
    return el("section");
  }
  willMove(parent) {
    if (parent) this.viewWillAppear();
  }
  didMove(parent) {
    this.parent = parent;
  }
  viewWillAppear() {}
}

/**
 * @typedef {object} QuoteSelectionDelegate
 * @property {(quote: import("./quotes.js").Quote) => void} shareQuote
 */

/** Compact: today's quote, who said it, and Share. */
class CompactViewController extends ViewController {
  loadView() {
    this.kicker = el("h1", { class: "kicker" }); // the compact view's heading
    this.quoteLabel = el("p", { id: "quote-text", class: "quote" });
    this.creatorLabel = el("p", { id: "quote-creator", class: "creator" });
    this.shareButton = el("button", { type: "button", id: "share", class: "share", onclick: () => this.shareTapped() }, shareGlyph(), el("span", {}, "Share"));
    this.status = el("p", { id: "share-status", class: "status", role: "status" });
    return el("section", { id: "compact-view", class: "compact-view", "aria-labelledby": "quote-text" },
      el("figure", { class: "card" },
        this.kicker,
        el("blockquote", {}, this.quoteLabel),
        el("figcaption", {}, this.creatorLabel)),
      el("div", { class: "actions" }, this.shareButton, this.status));
  }

  /** Like viewDidLoad in the seed, but again on every appearance: the day may have changed. */
  viewWillAppear() {
    const quote = Quotes.current();
    this.kicker.textContent = `Quote of the day · ${dayLabel()}`;
    this.quoteLabel.textContent = quote.text;
    this.creatorLabel.textContent = quote.creator;
  }

  shareTapped() {
    this.delegate?.shareQuote(Quotes.current());
  }

  setStatus(text) {
    this.status.textContent = text;
  }
}

/** Expanded: every quote; a tap shares it. */
class QuotesTableViewController extends ViewController {
  loadView() {
    this.tableView = el("ul", { id: "quotes", class: "quotes", "aria-label": "All quotes" });
    /** @type {{index: number, text: string, mine: boolean} | null} the quote of the tapped bubble */
    this.highlighted = null;
    return el("section", { id: "quotes-table", class: "quotes-view", "aria-labelledby": "quotes-title" },
      el("header", { class: "quotes-header" },
        el("h1", { id: "quotes-title" }, "The Daily Quote"),
        el("p", {}, "Tap a quote to share it in the conversation.")),
      this.tableView);
  }

  viewWillAppear() {
    this.reloadData();
  }

  numberOfRows() {
    return Quotes.numberOfQuotes;
  }

  reloadData() {
    const today = Quotes.currentIndex();
    const rows = [];
    const h = this.highlighted;
    // A shared quote this version does not list is shown first.
    if (h && h.index < 0) rows.push(this.cell(h.quote, -1, { today: false, highlighted: true }));
    for (let row = 0; row < this.numberOfRows(); row++) {
      const quote = Quotes.quote(row);
      rows.push(this.cell(quote, row, { today: row === today, highlighted: !!h && h.index === row }));
    }
    this.tableView.replaceChildren(...rows);
  }

  cell(quote, row, { today, highlighted }) {
    const badges = [];
    if (highlighted) badges.push(el("span", { class: "badge shared" }, this.highlighted.mine ? "You shared this" : "Shared with you"));
    if (today) badges.push(el("span", { class: "badge today" }, "Today"));
    return el("li", { class: ["quote-cell", highlighted && "highlighted"].filter(Boolean).join(" "), dataset: { row: String(row) } },
      el("button", {
        type: "button", class: "quote-button",
        "aria-label": `${quote.text} — ${quote.creator}. Share`,
        onclick: () => this.didSelectRow(row, quote),
      },
      el("span", { class: "cell-text" },
        badges.length ? el("span", { class: "badges" }, badges) : null,
        el("span", { class: "cell-quote" }, quote.text),
        el("span", { class: "cell-creator" }, quote.creator)),
      el("span", { class: "cell-share" }, shareGlyph())));
  }

  didSelectRow(row, quote) {
    this.delegate?.shareQuote(row >= 0 ? Quotes.quote(row) : quote);
  }

  /** Marks the quote of a tapped bubble, and scrolls it into view. */
  highlight(found, mine) {
    this.highlighted = found ? { ...found, mine } : null;
    this.reloadData();
    if (!found) return;
    requestAnimationFrame(() => {
      this.tableView.querySelector(".highlighted")?.scrollIntoView({ block: "center" });
    });
  }
}

class MessagesViewController extends MessagesAppViewController {
  constructor() {
    super();
    this.root = $("root");
    /** @type {ViewController[]} */
    this.children = [];
    // the seed's viewDidLoad: both child controllers, with this as their delegate
    this.compactViewController = new CompactViewController();
    this.compactViewController.delegate = this;
    this.expandedViewController = new QuotesTableViewController();
    this.expandedViewController.delegate = this;
    /** where a transition under way goes: set at willTransition, cleared at didTransition (see viewStyle) */
    this.transitioningTo = null;
  }

  /**
   * The style of the child view on screen. The view switches at
   * willTransition, and a tap on it may come before didTransition updates
   * `presentationStyle` (on a slow phone or a loaded machine, well before):
   * a quote tapped on the freshly shown list still collapses the pane so the
   * message box shows it.
   */
  get viewStyle() {
    return this.transitioningTo ?? this.presentationStyle;
  }

  // ---- lifecycle ------------------------------------------------------------------

  willBecomeActive(conversation) {
    this.note("willBecomeActive");
    this.transitioningTo = null;
    this.selectionChanged(conversation.selectedMessage, conversation);
    if (this.presentationStyle === "compact") this.showCompactView();
    else if (this.presentationStyle === "expanded") this.showExpandedView();
  }

  didBecomeActive() { this.note("didBecomeActive"); }
  willResignActive() { this.note("willResignActive"); }
  didResignActive() { this.note("didResignActive"); }

  willTransition(style) {
    this.note(`willTransition:${style}`);
    this.transitioningTo = style;
    if (style === "compact") this.showCompactView();
    else if (style === "expanded") this.showExpandedView();
  }

  didTransition(style) {
    this.note(`didTransition:${style}`);
    this.transitioningTo = null;
  }

  didSelect(message, conversation) {
    this.note("didSelect");
    this.selectionChanged(message, conversation);
  }

  didReceive() { this.note("didReceive"); }

  didStartSending() {
    this.note("didStartSending");
    this.compactViewController.setStatus("Sending…");
  }

  didCancelSending() {
    this.note("didCancelSending");
    this.compactViewController.setStatus("");
  }

  note(name) {
    $("lifecycle").append(el("li", {}, name));
  }

  selectionChanged(message, conversation) {
    const mine = !!message && message.senderParticipantIdentifier === conversation.localParticipantIdentifier;
    this.expandedViewController.highlight(message ? quoteFromMessage(message) : null, mine);
  }

  // ---- child view controllers ------------------------------------------------------------

  showCompactView() {
    this.showViewController(this.compactViewController);
  }

  showExpandedView() {
    this.showViewController(this.expandedViewController);
  }

  showViewController(viewController) {
    this.cleanupChildViewControllers();
    viewController.willMove(this);
    this.children.push(viewController);
    viewController.didMove(this);
    this.root.append(viewController.view);
    this.root.dataset.view = viewController === this.compactViewController ? "compact" : "expanded";
  }

  cleanupChildViewControllers() {
    for (const viewController of this.children) {
      viewController.willMove(null);
      viewController.didMove(null);
      viewController.view.remove();
    }
    this.children = [];
  }

  // ---- QuoteSelectionDelegate ----------------------------------------------------------------

  /** Composes a message for the quote and puts it in the composer. */
  async shareQuote(quote) {
    const conversation = this.activeConversation;
    if (!conversation) return;
    // The composer is visible only in compact, like the Messages input field.
    if (this.viewStyle === "expanded") this.requestPresentationStyle("compact").catch(() => {});
    // Only the latest share speaks: a newer one replaces the staged message (and cancels it).
    const token = (this.shareToken = (this.shareToken || 0) + 1);
    const status = (text) => {
      if (token === this.shareToken) this.compactViewController.setStatus(text);
    };
    try {
      const message = new Message();
      message.url = urlFor(quote);
      const { summaryText, caption, subcaption } = messageTexts(quote);
      message.summaryText = summaryText;
      message.layout = new TemplateLayout({ image: renderBanner(bannerText(quote)), caption, subcaption });
      const sent = conversation.insert(message);
      status(`Ready to send: “${shorten(quote.text, 48)}” Press Send.`);
      await sent;
      status("Shared ✓");
    } catch (error) {
      if (error.code === "cancelled") status("");
      else status(`Not shared: ${error.message}`);
    }
  }
}

MessagesViewController.start();
