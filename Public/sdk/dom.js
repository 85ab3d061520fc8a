// Building an app's DOM without innerHTML: h("button", {class: "big", onclick}, "Send").
// Strings and numbers become text nodes, so whatever a participant typed is shown as text.
// The properties that parse a string as HTML are refused outright, so markup can never
// come in through attrs either.

/** Properties and attributes that would parse a string as HTML (lower case). */
const HTML_SINKS = new Set(["innerhtml", "outerhtml", "insertadjacenthtml", "sethtml", "sethtmlunsafe", "srcdoc"]);

/**
 * @param {string} tag
 * @param {Record<string, unknown> | null} [attrs] "class" (a string or a list), "dataset",
 *   "style" (an object), "on<event>" listeners, element properties ("value", "disabled",
 *   "textContent", …), and any other attribute ("aria-*", "role", …); never innerHTML,
 *   outerHTML, insertAdjacentHTML, setHTML or srcdoc (an Error says so)
 * @param {...(Node | string | number | null | undefined | false | Array)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (HTML_SINKS.has(key.toLowerCase())) {
      throw new Error(`h(): "${key}" would parse a string as HTML; pass text or nodes as children instead`);
    }
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : String(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style" && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) node.style.setProperty(k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), v);
    } else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key in node && !key.startsWith("aria")) node[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
