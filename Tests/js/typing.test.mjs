// "Ben is typing…" (state/typing.js, sync/typing.js): when the page says its person
// types, how long the others' notices last, and what ends them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyTyping, typersNow, typingLine, nextEnd, typingToSay, NOTICE_MS, RESEND_MS } from "../../Public/js/state/typing.js";
import { Store } from "../../Public/js/store.js";
import { TypingNotices } from "../../Public/js/sync/typing.js";
import { FakeClient } from "./fake-client.mjs";

test("a notice lasts NOTICE_MS from the last one, a stop ends it, oneself is never shown", () => {
  let held = applyTyping(undefined, { userId: "uBen", typing: true }, 1000);
  held = applyTyping(held, { userId: "uCy", typing: true }, 2000);
  held = applyTyping(held, { userId: "uMe", typing: true }, 2000);
  assert.deepEqual(typersNow(held, 2500, "uMe"), ["uBen", "uCy"]);
  assert.deepEqual(typersNow(held, 1000 + NOTICE_MS, "uMe"), ["uCy"], "Ben's notice ended");
  held = applyTyping(held, { userId: "uCy", typing: false }, 3000);
  assert.deepEqual(typersNow(held, 3000, "uMe"), ["uBen"]);
  assert.equal(nextEnd({ c1: held }, 3000), 1000 + NOTICE_MS);
  assert.equal(nextEnd({ c1: held }, 1000 + NOTICE_MS), 2000 + NOTICE_MS, "oneself's too: it ends the same way");
  assert.equal(nextEnd({}, 0), undefined);
});

test("the names stay in the order their typing began while each page renews its notice", () => {
  let held = applyTyping(undefined, { userId: "uBen", typing: true }, 1000);
  held = applyTyping(held, { userId: "uCy", typing: true }, 2000);
  held = applyTyping(held, { userId: "uBen", typing: true }, 1000 + RESEND_MS);
  assert.deepEqual(typersNow(held, 1000 + RESEND_MS, "uMe"), ["uBen", "uCy"], "Ben renewed his: still first");
  held = applyTyping(held, { userId: "uCy", typing: true }, 2000 + RESEND_MS);
  assert.deepEqual(typersNow(held, 2000 + RESEND_MS, "uMe"), ["uBen", "uCy"]);
  // Ben stops for longer than a notice lasts, then types again: after Cy, who went on
  held = applyTyping(held, { userId: "uCy", typing: true }, 2000 + 2 * RESEND_MS);
  const later = 1000 + RESEND_MS + NOTICE_MS + 500;
  assert.deepEqual(typersNow(held, later, "uMe"), ["uCy"]);
  held = applyTyping(held, { userId: "uBen", typing: true }, later);
  assert.deepEqual(typersNow(held, later, "uMe"), ["uCy", "uBen"]);
});

test("the line names one, two, or two and how many others", () => {
  assert.equal(typingLine([]), "");
  assert.equal(typingLine(["Ben"]), "Ben is typing…");
  assert.equal(typingLine(["Ben", "Cy"]), "Ben and Cy are typing…");
  assert.equal(typingLine(["Ben", "Cy", "Dee"]), "Ben, Cy and 1 other are typing…");
  assert.equal(typingLine(["Ben", "Cy", "Dee", "Eve"]), "Ben, Cy and 2 others are typing…");
  assert.equal(typingLine(["Ana: sure, I'll send you my recovery key"]), "Ana: sure, I'll sen… is typing…", "a long name is cut, the ending stays");
});

test("the page says it types at the first key, again only every RESEND_MS, and that it stopped when the draft is emptied", () => {
  assert.equal(typingToSay(undefined, "h", 0), true);
  assert.equal(typingToSay({ typing: true, at: 0 }, "he", RESEND_MS - 1), null);
  assert.equal(typingToSay({ typing: true, at: 0 }, "hel", RESEND_MS), true);
  assert.equal(typingToSay({ typing: true, at: 0 }, "  ", 10), false, "spaces are no message");
  assert.equal(typingToSay({ typing: false, at: 0 }, "", 10), null);
  assert.equal(typingToSay(undefined, "", 10), null);
});

test("TypingNotices: says it types, keeps the others' notices, ends one at their message and all when the connection drops", () => {
  const store = new Store();
  const client = new FakeClient();
  const messages = new EventTarget();
  const typing = new TypingNotices(client, store, messages);
  const said = () => client.requests.filter((r) => r.type === "typing").map((r) => `${r.fields.conversationId}:${r.fields.typing}`);
  typing.drafted("c1", "h", 0);
  typing.drafted("c1", "hi", 100);
  typing.drafted("c1", "hi!", RESEND_MS + 1);
  typing.sent("c1");
  typing.drafted("c1", "n", RESEND_MS + 2); // a new message starts anew
  typing.drafted("c1", "", RESEND_MS + 3);
  assert.deepEqual(said(), ["c1:true", "c1:true", "c1:true", "c1:false"]);
  client.status = "offline";
  typing.drafted("c2", "x", 0);
  assert.equal(said().length, 4, "nothing said offline");
  client.status = "online";

  client.serverSends("typing", { conversationId: "c1", userId: "uBen", typing: true });
  client.serverSends("typing", { conversationId: "c1", userId: "uCy", typing: true });
  assert.deepEqual(Object.keys(store.state.typing.c1).sort(), ["uBen", "uCy"]);
  messages.dispatchEvent(new CustomEvent("message", { detail: { conversationId: "c1", message: { sender: "uBen" } } }));
  assert.deepEqual(Object.keys(store.state.typing.c1), ["uCy"], "Ben's message ends his notice");
  client.setStatus("offline");
  assert.deepEqual(store.state.typing, {});
  clearTimeout(typing.timer);
});
