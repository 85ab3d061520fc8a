// Addresses in a text message as links: http(s) only, the text shown exactly as
// typed, sentence punctuation left out, nothing else ever a link.
import { test } from "node:test";
import assert from "node:assert/strict";
import { linkParts } from "../../Public/js/state/links.js";

const links = (t) => linkParts(t).filter((p) => p.href).map((p) => [p.text, p.href]);
const joined = (t) => linkParts(t).map((p) => p.text).join("");

test("an address in a sentence is a link; the text around it stays text", () => {
  assert.deepEqual(linkParts("see https://example.org/a?b=1 now"), [
    { text: "see " }, { text: "https://example.org/a?b=1", href: "https://example.org/a?b=1" }, { text: " now" },
  ]);
  assert.deepEqual(links("Two: http://a.example and HTTPS://B.example/x."), [
    ["http://a.example", "http://a.example/"], ["HTTPS://B.example/x", "https://b.example/x"],
  ]);
});

test("sentence punctuation and unopened brackets stay out; balanced ones stay in", () => {
  assert.deepEqual(links("Look (https://example.org/page)!"), [["https://example.org/page", "https://example.org/page"]]);
  assert.deepEqual(links("https://en.wikipedia.org/wiki/Go_(game), fun"), [["https://en.wikipedia.org/wiki/Go_(game)", "https://en.wikipedia.org/wiki/Go_(game)"]]);
  assert.deepEqual(links("is it https://example.org?"), [["https://example.org", "https://example.org/"]]);
});

test("nothing but http(s) is a link, and the whole text is always kept", () => {
  for (const t of ["javascript:alert(1)", "data:text/html,<b>x</b>", "ftp://example.org", "www.example.org", "https://", "mailto:a@b.c", "<a href='https://x.example'>x</a>"]) {
    assert.equal(joined(t), t, t);
  }
  assert.deepEqual(links("javascript:alert(1) https:// x"), []);
  assert.deepEqual(links("<a href='https://x.example'>x</a>"), [["https://x.example", "https://x.example/"]], "quotes end an address");
  const t = "a https://x.example/é b https://y.example c";
  assert.equal(joined(t), t);
});

test("a run of closing brackets takes linear time (a 10,000-character text drew for seconds)", () => {
  const t = `https://a.example/${")".repeat(9982)}`;
  const start = performance.now();
  for (let i = 0; i < 20; i++) assert.deepEqual(links(t), [["https://a.example/", "https://a.example/"]]);
  assert.ok(performance.now() - start < 1000, "20 such texts within a second");
});

test("an address with a name before @ is not a link: what it shows is not where it goes", () => {
  const t = "pay at https://bank.example\u2044login@evil.example now";
  assert.deepEqual(links(t), []);
  assert.equal(joined(t), t);
  assert.deepEqual(links("https://user:pw@example.org/x"), []);
  assert.deepEqual(links("mail me: https://example.org/a@b"), [["https://example.org/a@b", "https://example.org/a@b"]], "an @ in the path is fine");
});

test("a bidirectional control ends an address, so its text is shown in the order it opens", () => {
  assert.deepEqual(links("https://example.org/\u202Egnp.exe"), [["https://example.org/", "https://example.org/"]]);
  const t = "x https://a.example/\u2067b\u2069 y";
  assert.equal(joined(t), t);
});

test("a text is drawn without direction overrides, so nothing beside a link reads as part of it", async () => {
  const { withoutOverrides } = await import("../../Public/js/state/links.js");
  assert.equal(withoutOverrides("see https://example.com/\u202Eexe.live"), "see https://example.com/exe.live");
  assert.equal(withoutOverrides("\u202Dforced\u202C"), "forced\u202C");
  const arabic = "مرحبا \u200Fhttps://example.org\u200F";
  assert.equal(withoutOverrides(arabic), arabic, "marks stay");
  assert.equal(withoutOverrides("plain"), "plain");
});
