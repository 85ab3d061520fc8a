// The party list (the seed's ShoppingListModel): a name and elements, its
// query items ("name", then one "element" per element), and the three-way
// merge used when two people edit the same list at once. No DOM here, so it
// is tested with node (Tests/js/partylist.test.mjs).

import { queryItems, urlWithQueryItems, shorten } from "../../sdk/index.js";

export const QUERY_NAME_KEY = "name";
export const QUERY_ELEMENT_KEY = "element";
export const DEFAULT_NAME = "Mussels Party";
export const LIMITS = Object.freeze({ name: 80, element: 80, elements: 60, url: 5000 });

/** @typedef {{name: string, elements: string[]}} ShoppingList */

/** Trims and collapses white space; cuts at max characters (never inside one). */
export function clean(text, max) {
  return shorten(String(text ?? "").replace(/\s+/g, " ").trim(), max, "");
}

/** A new list; "with mussels" starts it with Mussels and Fries, like the seed. */
export function newList(withMussels = true) {
  return { name: DEFAULT_NAME, elements: withMussels ? ["Mussels", "Fries"] : [] };
}

export function copyList(list) {
  return { name: list.name, elements: [...list.elements] };
}

export function addElement(list, name) {
  const element = clean(name, LIMITS.element);
  if (element === "" || list.elements.length >= LIMITS.elements) return list;
  return { name: list.name, elements: [...list.elements, element] };
}

export function removeElementAt(list, index) {
  if (index < 0 || index >= list.elements.length) return list;
  return { name: list.name, elements: list.elements.filter((_, i) => i !== index) };
}

export function changeName(list, name) {
  return { name: shorten(name, LIMITS.name, ""), elements: list.elements };
}

/** The name to show and send: never empty. */
export function displayName(list) {
  return clean(list.name, LIMITS.name) || DEFAULT_NAME;
}

export function sameList(a, b) {
  if (!a || !b) return a === b;
  return displayName(a) === displayName(b) && a.elements.length === b.elements.length && a.elements.every((e, i) => e === b.elements[i]);
}

// ---- query items -------------------------------------------------------------------

export function queryItemsOf(list) {
  return [
    { name: QUERY_NAME_KEY, value: displayName(list) },
    ...list.elements.map((element) => ({ name: QUERY_ELEMENT_KEY, value: element })),
  ];
}

export function urlOf(list) {
  return urlWithQueryItems(queryItemsOf(list));
}

/** The list in query items, or null if they hold no list. Unknown names are skipped. */
export function listFromQueryItems(items) {
  let name = null;
  const elements = [];
  for (const item of items) {
    if (item.value === null || item.value === undefined) continue;
    if (item.name === QUERY_NAME_KEY) name = clean(item.value, LIMITS.name);
    else if (item.name === QUERY_ELEMENT_KEY) {
      const element = clean(item.value, LIMITS.element);
      if (element !== "" && elements.length < LIMITS.elements) elements.push(element);
    }
  }
  if (name === null && elements.length === 0) return null;
  return { name: name || DEFAULT_NAME, elements };
}

/** The list a message carries (the seed's ShoppingListModel(message:)), or null. */
export function listFromMessage(message) {
  if (!message || typeof message.url !== "string") return null;
  return listFromQueryItems(queryItems(message.url));
}

// ---- merging ----------------------------------------------------------------------------

const normal = (name) => clean(name, LIMITS.element).toLowerCase();

/** Elements with a key each: the normalised name and its occurrence ("fries", 0). */
function keyed(elements) {
  const seen = new Map();
  return elements.map((name) => {
    const n = normal(name);
    const k = seen.get(n) || 0;
    seen.set(n, k + 1);
    return { key: `${n}\u0000${k}`, name };
  });
}

/**
 * Three-way merge: `mine` and `theirs` were both edited from `base`. Both
 * sides' additions and removals are kept: the result is `theirs` (what
 * everyone sees now) without what I removed, plus what I added, each addition
 * placed after the element it followed in my list (and after what they added
 * there). Two people adding the same thing get it once. The name: mine if I
 * changed it, else theirs.
 * @param {ShoppingList | null} base  null for a list I had never seen sent
 * @param {ShoppingList} mine
 * @param {ShoppingList} theirs
 * @returns {ShoppingList}
 */
export function mergeLists(base, mine, theirs) {
  const b = keyed(base ? base.elements : []);
  const m = keyed(mine.elements);
  const t = keyed(theirs.elements);
  const inBase = new Set(b.map((e) => e.key));
  const inMine = new Set(m.map((e) => e.key));
  const removedByMe = new Set(b.filter((e) => !inMine.has(e.key)).map((e) => e.key));
  const result = t.filter((e) => !removedByMe.has(e.key));
  let anchor = -1;
  for (const e of m) {
    const at = result.findIndex((r) => r.key === e.key);
    if (at >= 0) {
      anchor = at;
      continue;
    }
    if (inBase.has(e.key)) continue; // I kept it, they removed it: removed
    let at2 = anchor + 1;
    while (at2 < result.length && !inBase.has(result[at2].key) && !inMine.has(result[at2].key)) at2++;
    result.splice(at2, 0, e);
    anchor = at2;
  }
  const myNameChanged = !base || displayName(mine) !== displayName(base);
  return {
    name: myNameChanged ? displayName(mine) : displayName(theirs),
    elements: result.slice(0, LIMITS.elements).map((e) => e.name),
  };
}

/** What changed from one list to the next, for a short note ("+ Andalouse sauce"). */
export function changes(before, after) {
  const b = keyed(before ? before.elements : []);
  const a = keyed(after.elements);
  const inB = new Set(b.map((e) => e.key));
  const inA = new Set(a.map((e) => e.key));
  return {
    added: a.filter((e) => !inB.has(e.key)).map((e) => e.name),
    removed: b.filter((e) => !inA.has(e.key)).map((e) => e.name),
    renamed: !!before && displayName(before) !== displayName(after),
  };
}

/** "Mussels, Fries and Andalouse sauce" (at most max characters). */
export function elementsLine(list, max = 140) {
  const els = list.elements;
  if (els.length === 0) return "Nothing yet";
  const text = els.length === 1 ? els[0] : `${els.slice(0, -1).join(", ")} and ${els.at(-1)}`;
  return shorten(text, max);
}

export function countLabel(list) {
  const n = list.elements.length;
  return n === 1 ? "1 item" : `${n} items`;
}
