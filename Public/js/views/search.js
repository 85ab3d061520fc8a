// Search in the open conversation: a field under the header, the matches listed
// newest first (who, when, the line with the words marked), "Search earlier messages"
// while the server's scan stopped before the start. Choosing a match shows it in the
// transcript (main.js: as a reply's quote does). Escape closes it and gives the focus
// back to where it was. Everything a person wrote is set as text; the marks are <mark>
// elements around text nodes (state/search.js: highlightParts).

import { h, icon, ICONS } from "./dom.js";
import { dayAndTime } from "../state/format.js";
import { highlightParts, matchedWords, countLine, checkQuery, QUERY_CHARS } from "../state/search.js";

/** How long typing may pause before what is typed is searched for. */
const TYPING_PAUSE_MS = 400;

export class SearchView {
  /**
   * @param {object} opts
   * @param {(query: string, beforeSeq?: number) => void} opts.onSearch   a new search (no beforeSeq) or the next part
   * @param {(seq: number) => void} opts.onChoose  a match chosen: shown in the transcript
   * @param {() => void} opts.onClose              closed (Escape, the close button)
   * @param {(m: object) => string} opts.who       "You" or the sender's name
   */
  constructor({ onSearch, onChoose, onClose, who }) {
    this.onSearch = onSearch;
    this.onChoose = onChoose;
    this.onClose = onClose;
    this.who = who;
    this.timer = 0;
    this.input = h("input", {
      type: "search", id: "search-input", class: "search-input", placeholder: "Search", autocomplete: "off",
      enterkeyhint: "search", maxlength: QUERY_CHARS * 2, "aria-label": "Search in this conversation",
      "aria-describedby": "search-count",
      oninput: () => this.typed(),
      onkeydown: (e) => {
        if (e.key === "Enter" && !e.isComposing) {
          e.preventDefault();
          this.searchNow();
        } else if (e.key === "ArrowDown" && !e.isComposing) {
          const first = this.list.querySelector("button");
          if (first) {
            e.preventDefault();
            first.focus();
          }
        }
      },
    });
    this.count = h("p", { class: "search-count", id: "search-count", role: "status", "aria-live": "polite" });
    this.list = h("ul", { class: "search-results", "aria-label": "Messages found" });
    this.more = h("button", { class: "button small search-more", type: "button", hidden: true, onclick: () => this.searchEarlier() },
      "Search earlier messages");
    this.el = h("section", { class: "search-panel", id: "search-panel", role: "search", "aria-label": "Search in this conversation", hidden: true },
      h("div", { class: "search-bar" },
        icon(ICONS.search, "icon search-glyph"),
        this.input,
        // a word, not a second ×: the field has its own, which empties it
        h("button", { class: "button small search-close", type: "button", "aria-label": "Close search", onclick: () => this.onClose() }, "Close")),
      this.count,
      this.list,
      this.more);
    this.el.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && !e.isComposing) {
        e.preventDefault();
        e.stopPropagation(); // the search's, not the app pane's
        this.onClose();
      } else if ((e.key === "ArrowDown" || e.key === "ArrowUp") && e.target.closest?.(".search-result")) {
        const all = [...this.list.querySelectorAll(".search-result")];
        const i = all.indexOf(e.target.closest(".search-result"));
        const next = e.key === "ArrowDown" ? all[i + 1] : i === 0 ? this.input : all[i - 1];
        if (next) {
          e.preventDefault();
          next.focus();
        }
      }
    });
    /** @type {import("../state/search.js").SearchState | null} */
    this.state = null;
    this.said = "";
  }

  get open() {
    return !this.el.hidden;
  }

  /** Shows the panel with the field focused, what was searched before still there. */
  show() {
    this.el.hidden = false;
    this.input.focus();
    this.input.select();
  }

  hide() {
    clearTimeout(this.timer);
    this.el.hidden = true;
  }

  /** Another conversation: nothing of this one's search stays. */
  reset() {
    clearTimeout(this.timer);
    this.input.value = "";
    this.state = null;
    this.said = "";
    this.render(null, {});
  }

  typed() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.searchNow(), TYPING_PAUSE_MS);
  }

  searchNow() {
    clearTimeout(this.timer);
    const q = checkQuery(this.input.value);
    if ("error" in q) {
      if (q.error === "too_long") this.say(`A search is at most ${QUERY_CHARS} characters`);
      return;
    }
    if (this.state && this.state.query === q.query && !this.state.error) return; // already shown
    this.onSearch(q.query);
  }

  searchEarlier() {
    if (!this.state?.hasMore || this.state.loading) return;
    this.onSearch(this.state.query, this.state.nextBeforeSeq);
  }

  say(text) {
    this.count.textContent = text;
    this.said = text;
  }

  /**
   * Draws the state of the search.
   * @param {import("../state/search.js").SearchState | null} s
   * @param {{names?: (text: string, m: object) => string}} how   puts names on an app's $<participant id>
   */
  render(s, { names = (t) => t } = {}) {
    const before = this.state;
    this.state = s;
    if (!s) {
      this.list.replaceChildren();
      this.more.hidden = true;
      this.say("");
      return;
    }
    const text = s.error ? errorLine(s.error) : countLine(s);
    // a live region said again only when its words change
    if (text !== this.said) this.say(text);
    // what was drawn stays (and keeps the focus) while more arrive: only new matches are
    // added; a list that lost one (deleted meanwhile) is drawn again
    const kept = before && before.query === s.query && before.results.every((m, i) => s.results[i]?.seq === m.seq);
    const drawn = kept ? this.list.children.length : 0;
    if (!drawn) this.list.replaceChildren();
    for (const m of s.results.slice(drawn)) this.list.append(this.item(m, s.query, names));
    this.more.hidden = !s.hasMore;
    this.more.disabled = !!s.loading;
  }

  item(m, query, names) {
    const words = names(matchedWords(m, query), m);
    const line = m.kind === "attachment" ? [`Picture: `, ...marked(words, query)] : marked(words, query);
    const when = new Date(m.createdAt);
    return h("li", null,
      h("button", {
        class: "search-result", type: "button", dataset: { seq: m.seq },
        onclick: () => this.onChoose(m.seq),
      },
      h("span", { class: "search-result-head" },
        h("span", { class: "search-result-who" }, this.who(m)),
        h("time", { datetime: when.toISOString() }, dayAndTime(m.createdAt))),
      h("span", { class: "search-result-line", dir: "auto" }, line)));
  }
}

/** The line's parts: text as text nodes, the query's words in <mark>. */
function marked(text, query) {
  return highlightParts(text, query).map((p) => (p.mark ? h("mark", null, p.text) : p.text));
}


function errorLine(code) {
  switch (code) {
    case "rate_limited":
      return "Too many searches at once: try again in a moment";
    case "offline":
    case "timeout":
      return "Could not search: not connected";
    default:
      return "Could not search";
  }
}
