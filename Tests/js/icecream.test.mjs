// Ice Cream Builder: the sundae's steps, its query items, captions and the
// sticker history, without a browser.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  STEPS, PARTS, emptySundae, nextStep, isComplete, withPart, toQueryItems, fromQueryItems, describe,
  summaryOf, layoutText, stagedText, addToHistory, historySundaes, progress, StepError, HISTORY_MAX,
  CONE_SCOOPS, scoopRoom, canTake, rebase, scoopFlavors, makers,
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

test("steps go base → scoops (one or more) → topping, whoever takes them", () => {
  let s = emptySundae();
  assert.equal(nextStep(s), "base");
  assert.equal(progress(s), 0);
  assert.equal(scoopRoom(s), 0, "no scoop before the base");
  s = withPart(s, "base", "cup", ANA);
  assert.equal(nextStep(s), "scoops");
  assert.equal(canTake(s, "topping"), false, "no topping without a scoop");
  s = withPart(s, "scoops", "mint", ANA); // the same person may take the next step too
  assert.equal(nextStep(s), "topping");
  assert.equal(scoopRoom(s), CONE_SCOOPS - 1);
  s = withPart(s, "scoops", "mint", BEN); // a flavour may repeat
  assert.deepEqual(s.scoops, ["mint", "mint"]);
  assert.deepEqual(scoopFlavors(s), ["mint", "mint"]);
  assert.equal(isComplete(s), false);
  s = withPart(s, "topping", "cherry", BEN);
  assert.equal(nextStep(s), null);
  assert.equal(isComplete(s), true);
  assert.equal(scoopRoom(s), 0, "no scoop once the topping is on");
  assert.deepEqual(s.by, { base: ANA, scoops: [ANA, BEN], topping: BEN });
  assert.deepEqual(makers(s), [ANA, BEN]);
});

test("the cone holds CONE_SCOOPS scoops; one more is refused", () => {
  let s = withPart(emptySundae(), "base", "waffle", ANA);
  for (let i = 0; i < CONE_SCOOPS; i++) s = withPart(s, "scoops", "vanilla", BEN);
  assert.equal(scoopRoom(s), 0);
  assert.throws(() => withPart(s, "scoops", "mint", CY), /the cone is full/);
  assert.equal(nextStep(s), "topping");
});

test("a step out of turn, twice, or with an unknown part is refused and changes nothing", () => {
  const s = withPart(emptySundae(), "base", "waffle", ANA);
  assert.throws(() => withPart(emptySundae(), "scoops", "mint", ANA), StepError);
  assert.throws(() => withPart(s, "base", "cup", BEN), /next step is scoops/);
  assert.throws(() => withPart(s, "scoops", "bubblegum", BEN), /no scoops called bubblegum/);
  assert.throws(() => withPart(built(), "topping", "cherry", BEN), /already finished/);
  assert.equal(s.scoops, null);
});

// ---- a move that lost a race, taken again on the winner's sundae (#13 item 3) -------------

test("a losing scoop goes on top of the winning one while the cone has room", () => {
  const base = withPart(emptySundae(), "base", "waffle", ANA);
  // Ana, Ben and Cy each add a scoop to the same version; Ben's wins
  const ben = withPart(base, "scoops", "chocolate", BEN);
  const ana = rebase(ben, "scoops", "mint", ANA);
  assert.deepEqual(ana.scoops, ["chocolate", "mint"]);
  assert.deepEqual(ana.by.scoops, [BEN, ANA]);
  // Ana's merged scoop wins the next round; Cy's merges on top of both
  const cy = rebase(ana, "scoops", "chocolate", CY);
  assert.deepEqual(cy.scoops, ["chocolate", "mint", "chocolate"], "scoops may repeat");
  assert.deepEqual(cy.by.scoops, [BEN, ANA, CY]);
  assert.equal(summaryOf(cy, "scoops"), `$${CY} added a chocolate scoop`);
  assert.equal(layoutText(cy, "scoops").subcaption, `by $${ANA}, $${BEN} & $${CY}`);
});

test("a losing move that no longer fits is not merged (the person is asked)", () => {
  let full = withPart(emptySundae(), "base", "cup", ANA);
  for (let i = 0; i < CONE_SCOOPS; i++) full = withPart(full, "scoops", "lemon", BEN);
  assert.equal(rebase(full, "scoops", "mint", CY), null, "the cone is full");
  const finished = withPart(withPart(withPart(emptySundae(), "base", "cup", ANA), "scoops", "mint", BEN), "topping", "cherry", BEN);
  assert.equal(rebase(finished, "scoops", "mint", CY), null, "the sundae is finished");
  assert.equal(rebase(finished, "topping", "fudge", CY), null, "someone else topped it");
  assert.equal(rebase(withPart(emptySundae(), "base", "cup", BEN), "base", "waffle", ANA), null, "the base was picked");
  assert.equal(rebase(null, "scoops", "mint", ANA), null, "the winner is not a sundae");
});

test("a losing topping goes on whatever scoops won", () => {
  const one = withPart(withPart(emptySundae(), "base", "cake", ANA), "scoops", "mint", ANA);
  const two = withPart(one, "scoops", "mango", BEN); // Ben's scoop beat Cy's topping
  const cy = rebase(two, "topping", "sprinkles", CY);
  assert.equal(isComplete(cy), true);
  assert.deepEqual(cy.scoops, ["mint", "mango"]);
  assert.equal(cy.by.topping, CY);
});

test("rebase never mutates the winner's sundae", () => {
  const ben = withPart(withPart(emptySundae(), "base", "waffle", ANA), "scoops", "chocolate", BEN);
  const copy = structuredClone(ben);
  rebase(ben, "scoops", "mint", ANA);
  assert.deepEqual(ben, copy);
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

test("several scoops travel as repeated items, in order, with who added each", () => {
  let s = withPart(emptySundae(), "base", "waffle", ANA);
  s = withPart(s, "scoops", "mint", BEN);
  s = withPart(s, "scoops", "lemon", null);
  s = withPart(s, "scoops", "mint", CY);
  const url = urlWithQueryItems(toQueryItems(s));
  assert.ok(url.startsWith("?base=waffle&scoops=mint&scoops=lemon&scoops=mint&"), url);
  assert.deepEqual(fromQueryItems(queryItems(url)), s);
  assert.equal(fromQueryItems(queryItems("?base=cup&scoops=mint&scoops=mint&scoops=mint&scoops=mint")), null, "more than the cone holds");
  assert.equal(fromQueryItems(queryItems("?base=cup&scoops=mint&scoops=bubblegum")), null);
});

test("a sundae sent before scoops came one at a time still reads (its stack of scoops)", () => {
  const s = fromQueryItems(queryItems(`?base=cup&scoops=neapolitan&topping=cherry&scoopsBy=${BEN}`));
  assert.deepEqual(s.scoops, ["chocolate", "vanilla", "strawberry"]);
  assert.deepEqual(s.by.scoops, [BEN, BEN, BEN]);
  assert.equal(isComplete(s), true);
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
  assert.equal(layoutText(s2, "scoops").caption, "I added a scoop");
  assert.equal(layoutText(s2, "scoops").trailingSubcaption, "Next: a scoop or the topping");
  assert.equal(layoutText(s2, "scoops").subcaption, `by $${ANA} & $${BEN}`);
  const s3 = withPart(s2, "topping", "cherry", CY);
  assert.equal(layoutText(s3, "topping").caption, "Our finished ice cream");
  assert.equal(layoutText(s3, "topping").subcaption, `by $${ANA}, $${BEN} & $${CY}`);
  assert.equal(layoutText(s3, "topping").trailingCaption, "Done!");
  assert.equal(summaryOf(s1, "base"), `$${ANA} started a sundae with a waffle cone`);
  assert.equal(summaryOf(s2, "scoops"), `$${BEN} added a mint chip scoop`);
  assert.equal(summaryOf(s3, "topping"), `$${CY} finished the sundae with cherry on top`);
  assert.equal(describe(built()), "Waffle cone, a mint chip scoop, rainbow sprinkles");
  const three = withPart(withPart(s2, "scoops", "mint", CY), "scoops", "lemon", CY);
  assert.equal(describe(three), "Waffle cone, 2 mint chip & lemon sorbet scoops");
  for (const text of Object.values(layoutText(s3, "topping"))) assert.ok(text.length <= 300);
});

test("the sticker history keeps finished sundaes once each, newest first, bounded", () => {
  const s = built();
  let h = addToHistory([], s, "sess-1", 1);
  assert.equal(h.length, 1);
  assert.deepEqual(h[0], { id: "sess-1", base: "waffle", scoops: ["mint"], topping: "sprinkles", at: 1 });
  assert.equal(addToHistory(h, s, "sess-1", 2), h, "the same session again: unchanged, same array");
  const other = withPart(withPart(withPart(emptySundae(), "base", "cup"), "scoops", "mango"), "topping", "fudge");
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
  const good = { id: "a", base: "cake", scoops: "berry", topping: "wafer", at: 1 }; // kept before scoops were a list
  const now = { id: "d", base: "cake", scoops: ["mint", "mint"], topping: "wafer", at: 2 };
  const list = historySundaes([good, null, 7, { id: "b", base: "cake" }, { id: "c", base: "x", scoops: "y", topping: "z" }, now]);
  assert.equal(list.length, 2);
  assert.deepEqual(list[1].sundae.scoops, ["mint", "mint"]);
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
  for (const sc of PARTS.scoops) assert.ok(sc.flavor, `${sc.id} has a flavour`);
});

test("the staged step is said with the right verb: 'Your scoop is', 'Your base is' (#13 item 9)", () => {
  const base = withPart(emptySundae(), "base", "waffle", ANA);
  const scooped = withPart(base, "scoops", "mint", BEN);
  assert.equal(stagedText(base, "base"), "Your base is in the message box. Press Send to pass the sundae on.");
  assert.equal(stagedText(scooped, "scoops"), "Your scoop is in the message box. Press Send to pass the sundae on.");
  assert.equal(stagedText(built(), "topping"), "Your finished sundae is in the message box. Press Send!");
});
