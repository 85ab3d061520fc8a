// Ice Cream Builder: the sundae's steps, its query items, captions and the
// sticker history, without a browser.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  STEPS, PARTS, emptySundae, nextStep, isComplete, withPart, toQueryItems, fromQueryItems, describe,
  summaryOf, layoutText, stagedText, addToHistory, historySundaes, progress, StepError, HISTORY_MAX,
} from "../../Public/apps/icecream/sundae.js";
import { queryItems, urlWithQueryItems } from "../../Public/sdk/query.js";

const ANA = "6f0e1d2c-0000-4000-8000-00000000000a";
const BEN = "6f0e1d2c-0000-4000-8000-00000000000b";
const CY = "6f0e1d2c-0000-4000-8000-00000000000c";

function built() {
  let s = emptySundae();
  s = withPart(s, "base", "waffle", ANA);
  s = withPart(s, "scoops", "mint", BEN);
  return withPart(s, "topping", "sprinkles", CY);
}

test("steps go base → scoops → topping, whoever takes them", () => {
  let s = emptySundae();
  assert.equal(nextStep(s), "base");
  assert.equal(progress(s), 0);
  s = withPart(s, "base", "cup", ANA);
  assert.equal(nextStep(s), "scoops");
  s = withPart(s, "scoops", "neapolitan", ANA); // the same person may take the next step too
  assert.equal(nextStep(s), "topping");
  assert.equal(isComplete(s), false);
  s = withPart(s, "topping", "cherry", BEN);
  assert.equal(nextStep(s), null);
  assert.equal(isComplete(s), true);
  assert.deepEqual(s.by, { base: ANA, scoops: ANA, topping: BEN });
});

test("a step out of turn, twice, or with an unknown part is refused and changes nothing", () => {
  const s = withPart(emptySundae(), "base", "waffle", ANA);
  assert.throws(() => withPart(emptySundae(), "scoops", "mint", ANA), StepError);
  assert.throws(() => withPart(s, "base", "cup", BEN), /next step is scoops/);
  assert.throws(() => withPart(s, "scoops", "bubblegum", BEN), /no scoops called bubblegum/);
  assert.throws(() => withPart(built(), "topping", "cherry", BEN), /already finished/);
  assert.equal(s.scoops, null);
});

test("withPart never mutates the sundae it was given", () => {
  const s = withPart(emptySundae(), "base", "waffle", ANA);
  const copy = structuredClone(s);
  withPart(s, "scoops", "mint", BEN);
  assert.deepEqual(s, copy);
});

test("query items: one per part, named after its step, then who added it; round-trips through a URL", () => {
  const s = built();
  assert.deepEqual(toQueryItems(s), [
    { name: "base", value: "waffle" },
    { name: "scoops", value: "mint" },
    { name: "topping", value: "sprinkles" },
    { name: "baseBy", value: ANA },
    { name: "scoopsBy", value: BEN },
    { name: "toppingBy", value: CY },
  ]);
  const url = urlWithQueryItems(toQueryItems(s));
  assert.ok(url.startsWith("?base=waffle&scoops=mint&topping=sprinkles&"));
  assert.deepEqual(fromQueryItems(queryItems(url)), s);
  const partial = withPart(emptySundae(), "base", "dipped", ANA);
  assert.deepEqual(fromQueryItems(queryItems(urlWithQueryItems(toQueryItems(partial)))), partial);
});

test("every part of every step round-trips", () => {
  for (const b of PARTS.base) for (const sc of PARTS.scoops) for (const t of PARTS.topping) {
    const s = withPart(withPart(withPart(emptySundae(), "base", b.id), "scoops", sc.id), "topping", t.id);
    assert.deepEqual(fromQueryItems(queryItems(urlWithQueryItems(toQueryItems(s)))), s);
  }
});

test("URLs that are not a sundae give null: nothing, unknown parts, gaps, junk ids", () => {
  assert.equal(fromQueryItems([]), null);
  assert.equal(fromQueryItems(queryItems("?word=cat")), null);
  assert.equal(fromQueryItems(queryItems("?base=bucket")), null);
  assert.equal(fromQueryItems(queryItems("?scoops=mint")), null, "scoops without a base");
  assert.equal(fromQueryItems(queryItems("?base=cup&topping=cherry")), null, "a topping without scoops");
  assert.equal(fromQueryItems(null), null);
  const s = fromQueryItems(queryItems("?base=cup&baseBy=%3Cscript%3E"));
  assert.deepEqual(s.by, { base: null, scoops: null, topping: null }, "a bad participant id is dropped");
  // items the app does not know are ignored (a later version may add some)
  assert.equal(fromQueryItems(queryItems("?base=cup&flavour=extra")).base, "cup");
});

test("captions follow the seed; names are $<participant> for the host to fill in", () => {
  const s1 = withPart(emptySundae(), "base", "waffle", ANA);
  assert.equal(layoutText(s1, "base").caption, "Let's build an ice cream");
  assert.equal(layoutText(s1, "base").subcaption, `by $${ANA}`);
  assert.equal(layoutText(s1, "base").trailingCaption, "1 of 3");
  assert.equal(layoutText(s1, "base").trailingSubcaption, "Next: scoops");
  const s2 = withPart(s1, "scoops", "mint", BEN);
  assert.equal(layoutText(s2, "scoops").caption, "I added some scoops");
  assert.equal(layoutText(s2, "scoops").subcaption, `by $${ANA} & $${BEN}`);
  const s3 = withPart(s2, "topping", "cherry", CY);
  assert.equal(layoutText(s3, "topping").caption, "Our finished ice cream");
  assert.equal(layoutText(s3, "topping").subcaption, `by $${ANA}, $${BEN} & $${CY}`);
  assert.equal(layoutText(s3, "topping").trailingCaption, "Done!");
  assert.equal(summaryOf(s1, "base"), `$${ANA} started a sundae with a waffle cone`);
  assert.equal(summaryOf(s2, "scoops"), `$${BEN} added mint chip scoops`);
  assert.equal(summaryOf(s3, "topping"), `$${CY} finished the sundae with cherry on top`);
  assert.equal(describe(built()), "Waffle cone, mint chip, rainbow sprinkles");
  for (const text of Object.values(layoutText(s3, "topping"))) assert.ok(text.length <= 300);
});

test("the sticker history keeps finished sundaes once each, newest first, bounded", () => {
  const s = built();
  let h = addToHistory([], s, "sess-1", 1);
  assert.equal(h.length, 1);
  assert.deepEqual(h[0], { id: "sess-1", base: "waffle", scoops: "mint", topping: "sprinkles", at: 1 });
  assert.equal(addToHistory(h, s, "sess-1", 2), h, "the same session again: unchanged, same array");
  const other = withPart(withPart(withPart(emptySundae(), "base", "cup"), "scoops", "sorbet"), "topping", "fudge");
  h = addToHistory(h, other, "sess-2", 3);
  assert.deepEqual(h.map((e) => e.id), ["sess-2", "sess-1"]);
  // a session whose parts changed (a conflict lost) is replaced and moves to the front
  h = addToHistory(h, other, "sess-1", 4);
  assert.deepEqual(h.map((e) => [e.id, e.base]), [["sess-1", "cup"], ["sess-2", "cup"]]);
  assert.equal(addToHistory(h, withPart(emptySundae(), "base", "cup"), "sess-3", 5), h, "unfinished sundaes are not stickers");
  for (let i = 0; i < HISTORY_MAX + 10; i++) h = addToHistory(h, s, `many-${i}`, i);
  assert.equal(h.length, HISTORY_MAX);
  assert.equal(h[0].id, `many-${HISTORY_MAX + 9}`);
  assert.ok(JSON.stringify(h).length < 16 * 1024, "fits one storage value (16 KiB)");
});

test("a stored history is read defensively", () => {
  const good = { id: "a", base: "cake", scoops: "berry", topping: "wafer", at: 1 };
  const list = historySundaes([good, null, 7, { id: "b", base: "cake" }, { id: "c", base: "x", scoops: "y", topping: "z" }]);
  assert.equal(list.length, 1);
  assert.equal(list[0].entry, good);
  assert.equal(list[0].sundae.topping, "wafer");
  assert.deepEqual(historySundaes(null), []);
  assert.deepEqual(historySundaes({}), []);
});

test("the catalogue is consistent", () => {
  assert.deepEqual(STEPS, ["base", "scoops", "topping"]);
  for (const step of STEPS) {
    const ids = PARTS[step].map((p) => p.id);
    assert.equal(new Set(ids).size, ids.length, `${step} ids are unique`);
    for (const id of ids) assert.match(id, /^[a-z]+$/);
  }
  for (const sc of PARTS.scoops) assert.ok(sc.flavors.length >= 1 && sc.flavors.length <= 3);
});

test("the staged step is said with the right verb: 'Your scoops are', 'Your base is' (#13 item 9)", () => {
  const base = withPart(emptySundae(), "base", "waffle", ANA);
  const scooped = withPart(base, "scoops", "mint", BEN);
  assert.equal(stagedText(base, "base"), "Your base is in the message box. Press Send to pass the sundae on.");
  assert.equal(stagedText(scooped, "scoops"), "Your scoops are in the message box. Press Send to pass the sundae on.");
  assert.equal(stagedText(built(), "topping"), "Your finished sundae is in the message box. Press Send!");
});
