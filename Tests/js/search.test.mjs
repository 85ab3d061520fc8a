// Search in a conversation (state/search.js): the query checked as the server does,
// matches found case and accents aside and mapped back to the text as written, the
// line a result shows (cut around its first match, never inside a character), the
// words looked in, answers added after what was found, the count line; and the
// answer's checks (net/frames.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkQuery, fold, matchRanges, highlightParts, matchedWords, newSearch, withAnswer, withoutDeleted, countLine } from "../../Public/js/state/search.js";
import { resultProblem } from "../../Public/js/net/frames.js";

test("a query is trimmed, and of 1 to 100 characters", () => {
  assert.deepEqual(checkQuery("  usual place "), { query: "usual place" });
  assert.deepEqual(checkQuery("   "), { error: "empty" });
  assert.deepEqual(checkQuery(undefined), { error: "empty" });
  assert.deepEqual(checkQuery("é".repeat(100)), { query: "é".repeat(100) });
  assert.deepEqual(checkQuery("x".repeat(101)), { error: "too_long" });
});

test("folding drops case and accents, as the server's", () => {
  assert.equal(fold("Café"), "cafe");
  assert.equal(fold("Straße"), "strasse");
  assert.equal(fold("ΟΔΥΣΣΕΎΣ"), "οδυσσευσ");
  assert.equal(fold("cafe\u0301"), "cafe");
});

test("matches are found case and accents aside, in the text as written", () => {
  assert.deepEqual(matchRanges("See you at the Usual Place!", "usual place"), [[15, 26]]);
  assert.deepEqual(matchRanges("Café or cafe?", "CAFE"), [[0, 4], [8, 12]]);
  // a decomposed accent stays with its letter
  assert.deepEqual(matchRanges("cafe\u0301 au lait", "café"), [[0, 5]]);
  // ß is two letters folded: the match covers it whole
  assert.deepEqual(matchRanges("Hauptstraße", "strasse"), [[5, 11]]);
  // an emoji before the match (two UTF-16 units) shifts nothing
  assert.deepEqual(matchRanges("😀 elm st", "elm"), [[3, 6]]);
  assert.deepEqual(matchRanges("nothing here", "elm"), []);
  assert.deepEqual(matchRanges("anything", "   "), []);
});

test("the line marks the query's words and is cut around its first match", () => {
  assert.deepEqual(highlightParts("Lunch at the usual place?", "USUAL"), [
    { text: "Lunch at the ", mark: false }, { text: "usual", mark: true }, { text: " place?", mark: false },
  ]);
  const long = `${"blah ".repeat(40)}the address is 12 Elm St ${"more ".repeat(40)}`;
  const parts = highlightParts(long, "elm st", 60);
  const line = parts.map((p) => p.text).join("");
  assert.ok(line.startsWith("…") && line.endsWith("…"), line);
  assert.ok([...line].length <= 62, line);
  assert.deepEqual(parts.filter((p) => p.mark).map((p) => p.text), ["Elm St"]);
  // line breaks read as spaces; a cut never splits an emoji
  assert.equal(highlightParts("a\nb", "b").map((p) => p.text).join(""), "a b");
  const emoji = highlightParts(`${"😀".repeat(30)} cat ${"😀".repeat(80)}`, "cat", 40).map((p) => p.text).join("");
  assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(emoji), "no half of a pair");
});

test("the words looked in: the text, a picture's name, an app's summary and captions", () => {
  assert.equal(matchedWords({ kind: "text", text: "hello" }, "hel"), "hello");
  assert.equal(matchedWords({ kind: "attachment", name: "Beach.jpg" }, "beach"), "Beach.jpg");
  const app = { kind: "app", summaryText: "Ana drew something", layout: { caption: "Guess my WenderPic!", subcaption: "3 scoops" } };
  assert.equal(matchedWords(app, "scoops"), "3 scoops");
  assert.equal(matchedWords(app, "nothing"), "Ana drew something");
});

test("answers are added after what was found, once each; the count line says what is known", () => {
  let s = newSearch("place");
  assert.equal(countLine(s), "Searching…");
  s = withAnswer(s, { messages: [{ seq: 90 }, { seq: 70 }], hasMore: true, nextBeforeSeq: 60 });
  assert.deepEqual(s.results.map((m) => m.seq), [90, 70]);
  assert.equal(s.nextBeforeSeq, 60);
  assert.equal(countLine(s), "2 messages found in the latest messages");
  s = withAnswer({ ...s, loading: true }, { messages: [{ seq: 70 }, { seq: 12 }], hasMore: false });
  assert.deepEqual(s.results.map((m) => m.seq), [90, 70, 12]);
  assert.equal(s.nextBeforeSeq, undefined);
  assert.equal(countLine(s), "3 messages found");
  assert.deepEqual(withoutDeleted(s, 70).results.map((m) => m.seq), [90, 12]);
  assert.equal(countLine(withAnswer(newSearch("x"), { messages: [], hasMore: false })), "No messages found");
  assert.equal(countLine(withAnswer(newSearch("x"), { messages: [], hasMore: true, nextBeforeSeq: 9 })), "No messages found in the latest messages");
});

test("an answer is checked before it is used", () => {
  const m = { seq: 3, clientId: "k", sender: "u1", createdAt: 1, kind: "text", text: "hi" };
  assert.equal(resultProblem("messages.search", { messages: [m], hasMore: false }), null);
  assert.equal(resultProblem("messages.search", { messages: [m], hasMore: true, nextBeforeSeq: 3 }), null);
  assert.equal(resultProblem("messages.search", { messages: [m], hasMore: true }), "nextBeforeSeq");
  assert.equal(resultProblem("messages.search", { messages: "no", hasMore: false }), "messages");
  assert.equal(resultProblem("messages.search", { messages: [{ ...m, seq: "3" }], hasMore: false }) !== null, true);
});
