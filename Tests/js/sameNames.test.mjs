// Members whose names look the same are told apart by a tag from their user id.
import { test } from "node:test";
import assert from "node:assert/strict";
import { nameKey, clashingNames, shownName } from "../../Public/js/state/sameNames.js";
import { membersLine } from "../../Public/js/state/conversations.js";

const ana = { userId: "u3f2a90b1c2d3e4f5a6b7c8d9", name: "Ana" };
const fake = { userId: "u74f8b06e25aba65920ec6647", name: "Ana" };
const ben = { userId: "u0000b06e25aba65920ec6647", name: "Ben" };

test("names that only look alike are one name", () => {
  for (const [a, b] of [["Ana", "ana"], ["Ana", " Ana  "], ["Ana", "\u0410na"], ["Alice", "AIice"], ["Alice", "A1ice"],
    ["Ｂｅｎ", "Ben"], ["Bob", "B\u03bfb"], ["Ana Lee", "Ana  Lee"], ["Martin", "rnartin"]]) {
    assert.equal(nameKey(a), nameKey(b), `${a} / ${b}`);
  }
  for (const [a, b] of [["Ana", "Anna"], ["Ana", "Ána"], ["Ben", "Ken"]]) assert.notEqual(nameKey(a), nameKey(b), `${a} / ${b}`);
});

test("invisible characters and Armenian or IPA lookalikes do not make a name another", () => {
  for (const name of ["An\u200Da", "Ana\u00AD", "Ana\u034F", "Ana\uFE0F", "Ana\u{E0041}", "Ana\u3164", "Ana\u2800", "Ana\u180E",
    "\u115FAna", "A\u1160na", "Ana\uFFA0", "\u200BAna\u2060", "\u0251na", "\u2C6Dna"]) {
    assert.equal(nameKey(name), nameKey("Ana"), JSON.stringify(name));
  }
  for (const [a, b] of [["B\u0585b", "Bob"], ["B\u0555B", "Bob"], ["\u0570\u0585\u057D\u0578", "houn"], ["\u0261\u0585\u0581", "gog"], ["L\u0269am", "Liam"]]) {
    assert.equal(nameKey(a), nameKey(b), `${JSON.stringify(a)} / ${b}`);
  }
  assert.equal(shownName([ana, { ...fake, name: "An\u200Da" }], ana), "Ana (3f2a)");
});

test("two members with one name are both tagged, the others are not", () => {
  const labels = clashingNames([ana, fake, ben]);
  assert.equal(labels.get(ana.userId), "Ana (3f2a)");
  assert.equal(labels.get(fake.userId), "Ana (74f8)");
  assert.equal(labels.has(ben.userId), false);
  const members = [ana, { ...fake, name: "\u0410NA" }, ben];
  assert.equal(shownName(members, members[1]), "\u0410NA (74f8)");
  assert.equal(shownName(members, ben), "Ben");
  assert.equal(membersLine(members, ben.userId), "Ana (3f2a) and \u0410NA (74f8)");
});

test("a tag grows until it tells the ids apart", () => {
  const twin = { userId: "u3f2a77777777777777777777", name: "ana" };
  const labels = clashingNames([ana, twin]);
  assert.equal(labels.get(ana.userId), "Ana (3f2a9)");
  assert.equal(labels.get(twin.userId), "ana (3f2a7)");
});

test("once one is renamed, neither is tagged", () => {
  assert.equal(clashingNames([ana, { ...fake, name: "Ana B" }]).size, 0);
});
