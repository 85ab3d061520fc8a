import { test } from "node:test";
import assert from "node:assert/strict";
import { rowsMoved } from "../../Public/js/views/rowOrder.js";

// rows as the transcript holds them: a container and its children
function transcript(...names) {
  const container = { children: [] };
  const rows = Object.fromEntries(names.map((n) => [n, { name: n, parentElement: container }]));
  container.children = names.map((n) => rows[n]);
  return { container, rows, made: (n) => ({ name: n, parentElement: null }) };
}
const names = (set) => [...set].map((r) => r.name).sort();

test("a session's row kept at its place moves the rows after it, and nothing else", () => {
  const { container, rows, made } = transcript("day", "list", "text1", "text2");
  // the list's older state becomes a summary where it was; its row goes to the bottom
  const moved = rowsMoved([rows.day, made("summary"), rows.text1, rows.text2, rows.list], container);
  assert.deepEqual(names(moved), ["text1", "text2"]);
});

test("the newest row kept at the bottom moves nothing", () => {
  const { container, rows, made } = transcript("day", "text", "list");
  assert.equal(rowsMoved([rows.day, rows.text, made("summary"), rows.list], container).size, 0);
});

test("rows made again around rows kept in their order move nothing", () => {
  const { container, rows, made } = transcript("a", "list1", "b", "list2");
  assert.equal(rowsMoved([made("a"), rows.list1, made("b"), rows.list2], container).size, 0);
});

test("a kept row whose neighbours change places is moved itself", () => {
  const { container, rows } = transcript("a", "list", "b");
  // the list is wanted first: everything before it in the page is not
  assert.deepEqual(names(rowsMoved([rows.list, rows.a, rows.b], container)), ["list"]);
});

test("rows not wanted are left out of the count (the reconcile removes them first)", () => {
  const { container, rows, made } = transcript("gone", "list", "text");
  assert.deepEqual(names(rowsMoved([made("summary"), rows.text, rows.list], container)), ["text"]);
});
