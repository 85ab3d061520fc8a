import { test } from "node:test";
import assert from "node:assert/strict";
import { queryItems, queryValue, queryObject, urlWithQueryItems } from "../../Public/sdk/query.js";

test("builds a bare query with percent-encoding (space is %20, + is %2B)", () => {
  const url = urlWithQueryItems([
    { name: "word", value: "ice cream" },
    { name: "math", value: "1+1=2&3" },
    { name: "flag", value: null },
  ]);
  assert.equal(url, "?word=ice%20cream&math=1%2B1%3D2%263&flag");
});

test("round-trips names, values, order and repeats", () => {
  const items = [
    { name: "scoop", value: "vanilla" },
    { name: "scoop", value: "chocolate chip" },
    { name: "ünïcode ✓", value: "😀 & = ? #" },
    { name: "empty", value: "" },
    { name: "bare", value: null },
  ];
  assert.deepEqual(queryItems(urlWithQueryItems(items)), items);
});

test("accepts a plain object and a base URL, keeping the fragment", () => {
  assert.equal(urlWithQueryItems({ a: 1, b: "x y" }, "https://example.com/p?old=1#frag"), "https://example.com/p?a=1&b=x%20y#frag");
  assert.equal(urlWithQueryItems([], "https://example.com/p?old=1"), "https://example.com/p");
});

test("reads full URLs, bare queries and junk without throwing", () => {
  assert.deepEqual(queryItems("https://x.test/a?b=c#d"), [{ name: "b", value: "c" }]);
  assert.deepEqual(queryItems("https://x.test/a"), []);
  assert.deepEqual(queryItems(""), []);
  assert.deepEqual(queryItems(null), []);
  assert.deepEqual(queryItems("?a=%E0%A4%A&&b"), [{ name: "a", value: "%E0%A4%A" }, { name: "b", value: null }]);
  assert.deepEqual(queryItems("?p=a+b"), [{ name: "p", value: "a+b" }], "+ is not a space, as in URLComponents");
});

test("queryValue and queryObject", () => {
  assert.equal(queryValue("?a=1&a=2", "a"), "1");
  assert.equal(queryValue("?a=1", "z"), null);
  assert.deepEqual({ ...queryObject("?a=1&a=2&b=x") }, { a: "2", b: "x" });
});

test("rejects an item without a name", () => {
  assert.throws(() => urlWithQueryItems([{ value: "x" }]), TypeError);
});
