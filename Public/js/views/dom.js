// Building DOM without innerHTML: h("button", {class: "x", onclick}, "text").
// Strings become text nodes, so whatever a user typed is shown as text.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * @param {string} tag
 * @param {Record<string, unknown> | null} [attrs]  "class", "dataset", "on<event>",
 *   "aria-*", properties like "value" and "disabled", other attributes
 * @param {...(Node | string | number | null | undefined | false | Array)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

function applyAttrs(el, attrs) {
  if (!attrs) return;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : String(value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "value" || key === "checked" || key === "disabled" || key === "hidden" || key === "open") el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

/** Appends children: strings as text, arrays flattened, falsy skipped. */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces all children. */
export function replaceChildren(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/**
 * An SVG icon from path data (stroke icons on a 24×24 grid), hidden from
 * screen readers: the control around it carries the label.
 * @param {string[]} paths
 */
export function icon(paths, cls = "icon") {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", cls);
  for (const d of paths) {
    const p = document.createElementNS(SVG_NS, "path");
    p.setAttribute("d", d);
    svg.append(p);
  }
  return svg;
}

export const ICONS = {
  send: ["M4 12l16-8-6 16-3-7z", "M11 13l9-9"],
  apps: ["M4 4h6v6H4z", "M14 4h6v6h-6z", "M4 14h6v6H4z", "M14 14h6v6h-6z"],
  back: ["M15 5l-7 7 7 7"],
  next: ["M9 5l7 7-7 7"],
  plus: ["M12 5v14", "M5 12h14"],
  link: ["M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1", "M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1"],
  close: ["M6 6l12 12", "M18 6L6 18"],
  expand: ["M14 4h6v6", "M10 20H4v-6", "M20 4l-7 7", "M4 20l7-7"],
  collapse: ["M4 14h6v6", "M20 10h-6V4", "M10 14l-7 7", "M14 10l7-7"],
  store: ["M4 9l1.5-5h13L20 9", "M4 9v11h16V9", "M4 9h16", "M9 13h6"],
  chevronDown: ["M6 9l6 6 6-6"],
  search: ["M10.5 4a6.5 6.5 0 1 1 0 13a6.5 6.5 0 1 1 0-13z", "M15.5 15.5L20 20"],
  photo: ["M4 7h3l2-3h6l2 3h3v12H4z", "M12 10a3.5 3.5 0 1 1 0 7a3.5 3.5 0 1 1 0-7z"],
  offline: ["M2 2l20 20", "M8.5 16.5a5 5 0 0 1 7 0", "M5 12.5a10 10 0 0 1 5-2.7", "M19 12.5a10 10 0 0 0-3-2", "M12 20h.01"],
};
