// Party list: the list's query items (the seed's name + element items), and
// the three-way merge used when two people edit one list at once.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  newList, addElement, removeElementAt, changeName, urlOf, queryItemsOf, listFromQueryItems, listFromMessage,
  mergeLists, changes, elementsLine, countLabel, sameList, LIMITS,
} from "../../Public/apps/partylist/list.js";
import { queryItems } from "../../Public/sdk/index.js";

const list = (name, ...elements) => ({ name, elements });

test("a new list starts with Mussels and Fries", () => {
  assert.deepEqual(newList(), list("Mussels Party", "Mussels", "Fries"));
  assert.deepEqual(newList(false), list("Mussels Party"));
});

test("editing: add (trimmed, never empty), remove, rename", () => {
  let l = newList();
  l = addElement(l, "  Andalouse   sauce ");
  assert.deepEqual(l.elements, ["Mussels", "Fries", "Andalouse sauce"]);
  assert.equal(addElement(l, "   "), l, "nothing to add");
  l = removeElementAt(l, 1);
  assert.deepEqual(l.elements, ["Mussels", "Andalouse sauce"]);
  assert.equal(removeElementAt(l, 7), l);
  l = changeName(l, "Friday feast");
  assert.equal(l.name, "Friday feast");
  let full = newList(false);
  for (let i = 0; i < LIMITS.elements + 5; i++) full = addElement(full, `thing ${i}`);
  assert.equal(full.elements.length, LIMITS.elements);
});

test("query items: the name, then one element item per element, in order", () => {
  const l = list("Mussels Party", "Mussels", "Fries", "Andalouse sauce");
  assert.deepEqual(queryItemsOf(l), [
    { name: "name", value: "Mussels Party" },
    { name: "element", value: "Mussels" },
    { name: "element", value: "Fries" },
    { name: "element", value: "Andalouse sauce" },
  ]);
  const url = urlOf(l);
  assert.equal(url, "?name=Mussels%20Party&element=Mussels&element=Fries&element=Andalouse%20sauce");
  assert.deepEqual(listFromQueryItems(queryItems(url)), l);
  assert.deepEqual(listFromMessage({ url }), l);
});

test("query items round-trip text that needs escaping", () => {
  const l = list("Moules & frites = 100% 🇧🇪", "Sauce ?&=#", "Bière 🍺", "a+b");
  assert.deepEqual(listFromMessage({ url: urlOf(l) }), l);
});

test("reading a list is forgiving: unknown items skipped, bad input gives null", () => {
  assert.equal(listFromMessage(null), null);
  assert.equal(listFromMessage({ url: null }), null);
  assert.equal(listFromMessage({ url: "?other=1" }), null);
  assert.deepEqual(listFromMessage({ url: "?element=Fries&junk=1&element=%20%20" }), list("Mussels Party", "Fries"));
  assert.deepEqual(listFromMessage({ url: "https://example.org/party?name=Picnic&element=Bread" }), list("Picnic", "Bread"));
});

test("an empty name is sent as the default name", () => {
  assert.equal(queryItemsOf(list("   ", "Fries"))[0].value, "Mussels Party");
});

test("merge: both sides' additions are kept (theirs first, then mine)", () => {
  const base = list("Mussels Party", "Mussels", "Fries");
  const mine = list("Mussels Party", "Mussels", "Fries", "Beer");
  const theirs = list("Mussels Party", "Mussels", "Fries", "Andalouse sauce");
  assert.deepEqual(mergeLists(base, mine, theirs).elements, ["Mussels", "Fries", "Andalouse sauce", "Beer"]);
});

test("merge: an addition goes after the element it followed in my list", () => {
  const base = list("P", "Mussels", "Fries", "Beer");
  const mine = list("P", "Mussels", "Garlic", "Fries", "Beer");
  const theirs = list("P", "Mussels", "Fries", "Beer", "Mayonnaise");
  assert.deepEqual(mergeLists(base, mine, theirs).elements, ["Mussels", "Garlic", "Fries", "Beer", "Mayonnaise"]);
});

test("merge: removals on either side stay removed", () => {
  const base = list("P", "Mussels", "Fries", "Beer");
  const mine = list("P", "Mussels", "Beer"); // I removed Fries
  const theirs = list("P", "Fries", "Beer", "Andalouse sauce"); // they removed Mussels
  assert.deepEqual(mergeLists(base, mine, theirs).elements, ["Beer", "Andalouse sauce"]);
  // both removed the same element
  assert.deepEqual(mergeLists(base, list("P", "Mussels", "Beer"), list("P", "Mussels", "Beer")).elements, ["Mussels", "Beer"]);
});

test("merge: the same thing added on both sides appears once; duplicates are counted", () => {
  const base = list("P", "Mussels");
  assert.deepEqual(mergeLists(base, list("P", "Mussels", "Beer"), list("P", "Mussels", "beer ")).elements, ["Mussels", "beer "]);
  // I add a second Beer while they add a first one: two Beers
  const base2 = list("P", "Beer");
  assert.deepEqual(mergeLists(base2, list("P", "Beer", "Beer"), list("P", "Beer", "Chips")).elements, ["Beer", "Chips", "Beer"]);
});

test("merge: nothing changed on my side gives theirs; nothing on theirs gives mine", () => {
  const base = list("P", "Mussels", "Fries");
  const theirs = list("P", "Fries", "Andalouse sauce");
  assert.deepEqual(mergeLists(base, base, theirs), theirs);
  const mine = list("Q", "Mussels", "Beer");
  assert.deepEqual(mergeLists(base, mine, base), mine);
});

test("merge: the name is mine if I changed it, else theirs", () => {
  const base = list("Mussels Party", "Mussels");
  assert.equal(mergeLists(base, list("Kate's party", "Mussels"), list("Mussels Party", "Mussels")).name, "Kate's party");
  assert.equal(mergeLists(base, list("Mussels Party", "Mussels", "Beer"), list("John's party", "Mussels")).name, "John's party");
});

test("merge is what both would have got in turn when the edits do not touch", () => {
  const base = list("P", "a", "b", "c");
  const mine = list("P", "a", "c", "d"); // -b +d
  const theirs = list("P", "a", "b", "c", "e"); // +e
  const merged = mergeLists(base, mine, theirs);
  assert.deepEqual(merged.elements, ["a", "c", "e", "d"]);
  assert.deepEqual(changes(theirs, merged), { added: ["d"], removed: ["b"], renamed: false });
});

test("changes, lines and counts for the bubble", () => {
  assert.deepEqual(changes(list("P", "Mussels"), list("Q", "Mussels", "Fries")), { added: ["Fries"], removed: [], renamed: true });
  assert.equal(elementsLine(list("P")), "Nothing yet");
  assert.equal(elementsLine(list("P", "Mussels")), "Mussels");
  assert.equal(elementsLine(list("P", "Mussels", "Fries", "Andalouse sauce")), "Mussels, Fries and Andalouse sauce");
  assert.ok(elementsLine(list("P", ..."abcdefghijklmnopqrstuvwxyz".split("").map((c) => c.repeat(10)))).length <= 140);
  assert.equal(countLabel(list("P", "x")), "1 item");
  assert.equal(countLabel(list("P", "x", "y")), "2 items");
  assert.ok(sameList(list("P ", "x"), list("P", "x")));
});

test("a cut never splits an emoji: half of one is no text, and the server refused the message", () => {
  // the review's case: the 140th unit fell inside "🍕"
  const line = elementsLine(list("x", "Mussels", "Fries", "a".repeat(80), `${"b".repeat(37)}\u{1F355}${"c".repeat(10)}`));
  assert.ok(line.isWellFormed() && line.length <= 140 && line.endsWith("b…"), line.slice(-4));
  assert.equal(elementsLine(list("x", "ab🇧🇪cd"), 4), "ab…", "a flag is kept whole or left out");
  const element = addElement(newList(false), `${"e".repeat(79)}😀`).elements[0];
  assert.equal(element, "e".repeat(79));
  assert.equal(changeName(newList(), `${"n".repeat(79)}😀`).name, "n".repeat(79));
  assert.ok(urlOf(list("x", "a\ud83c")).includes("%EF%BF%BD"), "half an emoji in a list is sent as U+FFFD, encodeURIComponent threw on it");
  assert.ok(!sameList(list("P", "x"), list("P", "y")));
});
