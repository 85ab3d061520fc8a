// The Daily Quote: one quote a day by the day of the year, the list, and a
// shared quote's URL read back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Quotes, Quote, dayOfYear, urlFor, quoteFromMessage, bannerText, messageTexts } from "../../Public/apps/dailyquote/quotes.js";

test("the collection", () => {
  assert.ok(Quotes.numberOfQuotes >= 12);
  assert.equal(Quotes.all.length, Quotes.numberOfQuotes);
  for (const q of Quotes.all) assert.ok(q.text.length > 0 && q.creator.length > 0);
  assert.equal(new Set(Quotes.all.map((q) => q.text)).size, Quotes.numberOfQuotes, "no quote twice");
  assert.equal(Quotes.quote(0), Quotes.all[0]);
  assert.equal(Quotes.quote(-1), null);
  assert.equal(Quotes.quote(Quotes.numberOfQuotes), null);
  assert.equal(Quotes.quote(1.5), null);
});

test("the day of the year, like Calendar.ordinality(of: .day, in: .year)", () => {
  assert.equal(dayOfYear(new Date(2025, 0, 1, 0, 0)), 1);
  assert.equal(dayOfYear(new Date(2025, 0, 1, 23, 59)), 1);
  assert.equal(dayOfYear(new Date(2025, 1, 1)), 32);
  assert.equal(dayOfYear(new Date(2025, 11, 31)), 365);
  assert.equal(dayOfYear(new Date(2024, 11, 31)), 366);
  assert.equal(dayOfYear(new Date(2025, 2, 31, 12)), 90, "across a daylight saving change");
});

test("today's quote changes every day and goes round the list", () => {
  const seen = [];
  for (let d = 0; d < Quotes.numberOfQuotes; d++) seen.push(Quotes.currentIndex(new Date(2025, 0, 1 + d)));
  assert.equal(new Set(seen).size, Quotes.numberOfQuotes, "every quote in turn");
  assert.equal(Quotes.current(new Date(2025, 0, 1)), Quotes.all[1 % Quotes.numberOfQuotes]);
  assert.equal(Quotes.current(new Date(2025, 4, 5, 1)), Quotes.current(new Date(2025, 4, 5, 23)));
});

test("a shared quote's URL carries its row, text and creator", () => {
  const q = Quotes.quote(3);
  const url = urlFor(q);
  assert.match(url, /^\?quote=3&text=.+&creator=.+$/);
  assert.deepEqual(quoteFromMessage({ url }), { quote: q, index: 3 });
});

test("a quote this version does not list still shows; a stale row is not trusted", () => {
  const other = new Quote("Ship it.", "Somebody");
  const url = urlFor(other);
  assert.ok(!url.includes("quote="));
  assert.deepEqual(quoteFromMessage({ url }), { quote: other, index: -1 });
  // the row says 0 but the text is another listed quote: the text wins
  const q5 = Quotes.quote(5);
  const found = quoteFromMessage({ url: `?quote=0&text=${encodeURIComponent(q5.text)}&creator=${encodeURIComponent(q5.creator)}` });
  assert.equal(found.index, 5);
  assert.equal(quoteFromMessage({ url: "?quote=99999" }), null);
  assert.equal(quoteFromMessage({ url: "?nothing=here" }), null);
  assert.equal(quoteFromMessage(null), null);
  assert.deepEqual(quoteFromMessage({ url: "?quote=2" }), { quote: Quotes.quote(2), index: 2 });
});

test("a shared quote's banner: today's quote has today's date, one picked from the list is not stamped with it (#13 item 9)", () => {
  const day = new Date(2026, 10, 23);
  const today = Quotes.current(day);
  assert.deepEqual(bannerText(today, day), { label: "QUOTE OF THE DAY", line: "23 November 2026" });
  const other = Quotes.quote((Quotes.currentIndex(day) + 1) % Quotes.numberOfQuotes);
  const picked = bannerText(other, day);
  assert.equal(picked.label, "THE DAILY QUOTE");
  assert.equal(picked.line, `No. ${Quotes.indexOf(other) + 1} of ${Quotes.numberOfQuotes}`);
  assert.ok(!picked.line.includes("2026"), "no date");
  assert.deepEqual(bannerText(new Quote("Not listed", "Me"), day), { label: "THE DAILY QUOTE", line: null });
});

test("a long shared quote is cut to 300 characters between characters, never inside an emoji", () => {
  const quote = new Quote(`${"q".repeat(298)}😀 and more`, "Ana 🎉");
  const texts = messageTexts(quote);
  for (const text of Object.values(texts)) assert.ok(text.isWellFormed() && text.length <= 300, JSON.stringify(text.slice(-3)));
  assert.equal(texts.caption, `“${"q".repeat(298)}`, "the emoji at the cut is left out whole");
  assert.equal(texts.subcaption, "— Ana 🎉");
  assert.deepEqual(messageTexts(Quotes.quote(0)).subcaption, `— ${Quotes.quote(0).creator}`);
});
