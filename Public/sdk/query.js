// Query items: the state of an interactive message travels in its URL, as
// `?name=value&…` pairs, the way URLComponents.queryItems does it in the
// Messages framework. Names and values are percent-encoded (a space is %20,
// never "+"), order is kept, and a name may repeat.

import { wellFormed } from "./text.js";

/** @typedef {{name: string, value: string | null}} QueryItem */

/** Half an emoji (a text cut with slice) is encoded as U+FFFD: encodeURIComponent throws on it. */
function encode(text) {
  return encodeURIComponent(wellFormed(text));
}

function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a stray "%" is kept as written
  }
}

/**
 * Builds "?a=1&b=two%20words" (or "base?…") from query items.
 * Accepts an array of {name, value} or a plain object; a null/undefined value
 * gives a bare name ("?flag").
 * @param {QueryItem[] | Record<string, unknown>} items
 * @param {string} [base] an http(s) URL or "" for a bare query
 */
export function urlWithQueryItems(items, base = "") {
  const list = Array.isArray(items)
    ? items
    : Object.entries(items).map(([name, value]) => ({ name, value }));
  const parts = [];
  for (const item of list) {
    if (!item || typeof item.name !== "string") throw new TypeError("a query item needs a name");
    if (item.value === null || item.value === undefined) parts.push(encode(item.name));
    else parts.push(`${encode(item.name)}=${encode(String(item.value))}`);
  }
  const hashAt = base.indexOf("#");
  const head = hashAt >= 0 ? base.slice(0, hashAt) : base;
  const tail = hashAt >= 0 ? base.slice(hashAt) : "";
  const withoutQuery = head.includes("?") ? head.slice(0, head.indexOf("?")) : head;
  if (parts.length === 0) return withoutQuery + tail;
  return `${withoutQuery}?${parts.join("&")}${tail}`;
}

/**
 * Reads the query items of an URL ("?a=1", "https://x/y?a=1#f", or "a=1").
 * @param {string | null | undefined} url
 * @returns {QueryItem[]}
 */
export function queryItems(url) {
  if (typeof url !== "string" || url === "") return [];
  let query = url;
  const hashAt = query.indexOf("#");
  if (hashAt >= 0) query = query.slice(0, hashAt);
  const qAt = query.indexOf("?");
  if (qAt >= 0) query = query.slice(qAt + 1);
  else if (/^[a-z][a-z0-9+.-]*:/i.test(query)) return []; // an URL without a query
  if (query === "") return [];
  return query.split("&").filter((p) => p !== "").map((pair) => {
    const eq = pair.indexOf("=");
    if (eq < 0) return { name: decode(pair), value: null };
    return { name: decode(pair.slice(0, eq)), value: decode(pair.slice(eq + 1)) };
  });
}

/**
 * The first value for `name`, or null.
 * @param {string | QueryItem[]} urlOrItems
 * @param {string} name
 */
export function queryValue(urlOrItems, name) {
  const items = Array.isArray(urlOrItems) ? urlOrItems : queryItems(urlOrItems);
  const found = items.find((item) => item.name === name);
  return found ? found.value : null;
}

/**
 * Query items as a plain object (the last value wins for a repeated name).
 * @param {string} url
 * @returns {Record<string, string | null>}
 */
export function queryObject(url) {
  const out = Object.create(null);
  for (const item of queryItems(url)) out[item.name] = item.value;
  return out;
}
