// The quotes, today's quote, and how a shared quote travels in a message.
// No DOM here, so it is tested with node (Tests/js/dailyquote.test.mjs).

import { queryItems, urlWithQueryItems, shorten } from "../../sdk/index.js";

export class Quote {
  constructor(text, creator) {
    this.text = text;
    this.creator = creator;
    Object.freeze(this);
  }
}

const quotes = Object.freeze([
  new Quote("Be yourself; everyone else is already taken.", "Oscar Wilde"),
  new Quote("So many books, so little time.", "Frank Zappa"),
  new Quote("The best way to predict the future is to invent it.", "Alan Kay"),
  new Quote("Simplicity is prerequisite for reliability.", "Edsger W. Dijkstra"),
  new Quote("Not all those who wander are lost.", "J. R. R. Tolkien"),
  new Quote("Life is what happens to you while you're busy making other plans.", "John Lennon"),
  new Quote("Talk is cheap. Show me the code.", "Linus Torvalds"),
  new Quote("Stay hungry. Stay foolish.", "Stewart Brand"),
  new Quote("Imagination is more important than knowledge.", "Albert Einstein"),
  new Quote("It always seems impossible until it's done.", "Nelson Mandela"),
  new Quote("Well done is better than well said.", "Benjamin Franklin"),
  new Quote("Do. Or do not. There is no try.", "Yoda"),
  new Quote("The secret of getting ahead is getting started.", "Mark Twain"),
  new Quote("Whatever you are, be a good one.", "Abraham Lincoln"),
  new Quote("Simplicity is the ultimate sophistication.", "Leonardo da Vinci"),
  new Quote("Everything you can imagine is real.", "Pablo Picasso"),
]);

export const Quotes = Object.freeze({
  all: quotes,
  get numberOfQuotes() {
    return quotes.length;
  },
  /** The quote at a row, or null (like the seed's `Quote.quote(atIndex:)`). */
  quote(atIndex) {
    return Number.isInteger(atIndex) && atIndex >= 0 && atIndex < quotes.length ? quotes[atIndex] : null;
  },
  indexOf(quote) {
    return quotes.findIndex((q) => q.text === quote.text && q.creator === quote.creator);
  },
  /** Today's quote: one a day, in turn, by the day of the year (local time). */
  current(date = new Date()) {
    return quotes[Quotes.currentIndex(date)];
  },
  currentIndex(date = new Date()) {
    return dayOfYear(date) % quotes.length;
  },
});

/** 1 on the first of January, like Calendar.ordinality(of: .day, in: .year). */
export function dayOfYear(date) {
  const start = new Date(date.getFullYear(), 0, 1);
  const today = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  return Math.round((today - start) / 86_400_000) + 1;
}

/** The message URL for a quote: "?quote=3&text=…&creator=…". */
export function urlFor(quote) {
  const index = Quotes.indexOf(quote);
  return urlWithQueryItems([
    { name: "quote", value: index >= 0 ? String(index) : null },
    { name: "text", value: quote.text },
    { name: "creator", value: quote.creator },
  ].filter((item) => item.value !== null));
}

/**
 * What a shared quote's message says, each at most 300 characters (the bridge's
 * limit). A quote read from a message may be long and hold emoji: the cut falls
 * between characters, never inside one.
 * @param {Quote} quote
 */
export function messageTexts(quote) {
  return {
    summaryText: shorten(`“${quote.text}” — ${quote.creator}`, 300, ""),
    caption: shorten(`“${quote.text}”`, 300, ""),
    subcaption: shorten(`— ${quote.creator}`, 300, ""),
  };
}

/**
 * The quote a message carries, and its row if this app knows it. The text
 * travels too, so a quote this version does not list still shows.
 * @returns {{quote: Quote, index: number} | null}
 */
export function quoteFromMessage(message) {
  if (!message || typeof message.url !== "string") return null;
  const items = queryItems(message.url);
  const value = (name) => items.find((i) => i.name === name)?.value ?? null;
  const text = value("text");
  const creator = value("creator") || "";
  const rawIndex = value("quote");
  const index = rawIndex !== null && /^\d{1,4}$/.test(rawIndex) ? Number(rawIndex) : -1;
  const listed = Quotes.quote(index);
  if (listed && (text === null || listed.text === text)) return { quote: listed, index };
  if (!text) return null;
  const quote = new Quote(text, creator);
  return { quote, index: Quotes.indexOf(quote) };
}

/** "22 November" */
export function dayLabel(date = new Date()) {
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "long" });
}

/**
 * What a shared quote's banner says: today's quote carries today's date; a
 * quote picked from the list is not stamped with a day it does not belong
 * to, it says which quote of the collection it is.
 * @param {Quote} quote
 * @param {Date} [date] now
 * @returns {{label: string, line: string | null}}
 */
export function bannerText(quote, date = new Date()) {
  const index = Quotes.indexOf(quote);
  if (index >= 0 && index === Quotes.currentIndex(date)) {
    return { label: "QUOTE OF THE DAY", line: date.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric" }) };
  }
  return { label: "THE DAILY QUOTE", line: index >= 0 ? `No. ${index + 1} of ${Quotes.numberOfQuotes}` : null };
}
