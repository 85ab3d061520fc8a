// The SDK's h(): text stays text, and the properties that parse HTML are refused
// (throw), whichever way they are spelled. A stand-in document is enough: h()
// only creates elements, sets properties and attributes, and appends.
import { test } from "node:test";
import assert from "node:assert/strict";
import { h } from "../../Public/sdk/dom.js";

class FakeNode {}
class FakeText extends FakeNode {
  constructor(text) {
    super();
    this.data = text;
  }
}
class FakeElement extends FakeNode {
  constructor(tag) {
    super();
    this.tagName = tag.toUpperCase();
    this.attributes = {};
    this.children = [];
    this.listeners = {};
    this.dataset = {};
    this.className = "";
    this.textContent = "";
    this.innerHTML = "";
    this.outerHTML = "";
    this.style = { props: {}, setProperty(k, v) { this.props[k] = v; } };
    if (tag === "iframe") this.srcdoc = "";
  }
  insertAdjacentHTML() {}
  setAttribute(k, v) { this.attributes[k] = v; }
  addEventListener(type, fn) { this.listeners[type] = fn; }
  append(...nodes) { this.children.push(...nodes); }
}
globalThis.Node = FakeNode;
globalThis.document = {
  createElement: (tag) => new FakeElement(tag),
  createTextNode: (text) => new FakeText(text),
};

test("strings become text nodes, properties and attributes are set", () => {
  const click = () => {};
  const el = h("button", { class: ["big", false, "on"], dataset: { k: "1" }, onclick: click, "aria-label": "Send", textContent: "x", role: "tab" }, "<b>hi</b>", 3, null, [h("span")]);
  assert.equal(el.className, "big on");
  assert.equal(el.dataset.k, "1");
  assert.equal(el.listeners.click, click);
  assert.equal(el.attributes["aria-label"], "Send");
  assert.equal(el.attributes.role, "tab");
  assert.equal(el.textContent, "x");
  assert.deepEqual(el.children.slice(0, 2).map((c) => c.data), ["<b>hi</b>", "3"]);
  assert.equal(el.children[2].tagName, "SPAN");
  assert.equal(el.innerHTML, "");
});

test("innerHTML, outerHTML, insertAdjacentHTML, setHTML and srcdoc are refused with a clear Error", () => {
  for (const key of ["innerHTML", "outerHTML", "insertAdjacentHTML", "setHTML", "setHTMLUnsafe", "INNERHTML", "srcdoc", "srcDoc"]) {
    assert.throws(() => h(key.toLowerCase() === "srcdoc" ? "iframe" : "div", { [key]: "<img src=x onerror=alert(1)>" }),
      (e) => e instanceof Error && e.message.includes(`"${key}"`) && e.message.includes("HTML"), key);
  }
  assert.throws(() => h("div", { innerHTML: null }), /HTML/, "even empty: the call is a mistake either way");
});

test("no app passes an HTML-parsing property to h() or sets one itself", async () => {
  const { readdir, readFile } = await import("node:fs/promises");
  const root = new URL("../../Public/apps/", import.meta.url);
  const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith(".js") || f.endsWith(".html"));
  assert.ok(files.length > 10);
  for (const f of files) {
    const text = await readFile(new URL(f, root), "utf8");
    assert.doesNotMatch(text, /innerHTML|outerHTML|insertAdjacentHTML|setHTML|srcdoc/i, f);
  }
});
