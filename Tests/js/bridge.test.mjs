import { test } from "node:test";
import assert from "node:assert/strict";
import { checkAppMessage, draftProblem, checkHostMessage } from "../../Public/sdk/protocol.js";

const H = "ab".repeat(32);
const call = (method, args, id = 1) => checkAppMessage({ parlor: 1, type: "call", id, method, args });

test("accepts the calls of the SDK", () => {
  assert.equal(call("ready", {}).ok, true);
  assert.equal(call("insert", { ref: "m1", message: { url: "?a=1", layout: { caption: "hi", image: H }, session: { id: "s", baseVersion: 0 }, live: false } }).ok, true);
  assert.equal(call("send", { ref: "m2", message: { url: "https://example.com/?a=1" } }).ok, true);
  assert.equal(call("insertText", { text: "hello" }).ok, true);
  assert.equal(call("insertSticker", { image: H, description: "cat" }).ok, true);
  assert.equal(call("upload", { blob: new Blob(["x"], { type: "image/png" }) }).ok, true);
  assert.equal(call("requestPresentationStyle", { style: "expanded" }).ok, true);
  assert.equal(call("storage.set", { key: "k", value: { a: [1, 2] } }).ok, true);
  assert.equal(checkAppMessage({ parlor: 1, type: "ack", re: 3, value: { height: 10 } }).ok, true);
});

test("refuses anything else, keeping the id so the app hears why", () => {
  const cases = [
    ["insert", { ref: "m1", message: { url: "javascript:alert(1)" } }],
    ["insert", { ref: "m1", message: { url: "?a", layout: { caption: "x".repeat(301) } } }],
    ["insert", { ref: "m1", message: { url: "?a", layout: { image: "/etc/passwd" } } }],
    ["insert", { ref: "m1", message: { url: "?a", layout: { onclick: "x" } } }],
    ["insert", { ref: "m1", message: { url: "?a", session: { id: "", baseVersion: 0 } } }],
    ["insert", { ref: "m1", message: { url: "?a", session: { id: "s", baseVersion: -1 } } }],
    ["insert", { ref: "<script>", message: { url: "?a" } }],
    ["send", { ref: "m", message: { url: "?" + "x".repeat(5000) } }],
    ["insertText", { text: "" }],
    ["upload", { blob: "not a blob" }],
    ["requestPresentationStyle", { style: "fullscreen" }],
    ["storage.set", { key: "", value: 1 }],
    ["storage.set", { key: "k", value: "x".repeat(17000) }],
    ["getToken", {}],
    ["__proto__", {}],
  ];
  for (const [method, args] of cases) {
    const r = call(method, args, 7);
    assert.equal(r.ok, false, `${method} ${JSON.stringify(args).slice(0, 60)}`);
    assert.equal(r.id, 7);
  }
  assert.equal(checkAppMessage("string").ok, false);
  assert.equal(checkAppMessage({ parlor: 2, type: "call", id: 1, method: "ready" }).ok, false);
  assert.equal(checkAppMessage({ parlor: 1, type: "call", method: "ready" }).ok, false);
  assert.equal(checkAppMessage({ parlor: 1, type: "call", id: 1, method: "ready", args: [] }).ok, false);
});

test("draftProblem explains the problem", () => {
  assert.equal(draftProblem({ url: "?a=1" }), null);
  assert.match(draftProblem({}), /url/);
});

test("the SDK accepts only well-formed host messages", () => {
  assert.ok(checkHostMessage({ parlor: 1, type: "reply", re: 1, ok: true, value: 1 }));
  assert.ok(checkHostMessage({ parlor: 1, type: "event", id: 1, name: "didSelect", data: {} }));
  assert.equal(checkHostMessage({ parlor: 1, type: "event", id: 1, name: "eval", data: {} }), null);
  assert.equal(checkHostMessage({ type: "reply", re: 1, ok: true }), null);
});

import { appMessageSnapshot, conversationSnapshot, draftToMessage } from "../../Public/js/apps/snapshot.js";

test("an app sees its message without user ids, and participants by app-scoped id", () => {
  const m = { seq: 7, clientId: "k", sender: "uSecret", createdAt: 1, kind: "app", appId: "x", url: "?a=1", layout: { image: H, caption: "c", bogus: "z" }, session: { id: "s", version: 3 }, senderParticipantId: "p1", live: false };
  const snap = appMessageSnapshot(m, { origin: "http://h" });
  assert.deepEqual(snap, {
    ref: "s7", url: "?a=1", layout: { caption: "c", imageURL: `http://h/blobs/${H}` }, summaryText: null,
    session: { id: "s", version: 3 }, senderParticipantIdentifier: "p1", isPending: false, live: false,
  });
  assert.ok(!JSON.stringify(snap).includes("uSecret"));
  const parts = { local: "pMe", toParticipant: new Map([["uMe", "pMe"], ["uBen", "pBen"]]) };
  const conv = conversationSnapshot(parts, "uMe", [{ userId: "uMe" }, { userId: "uBen" }, { userId: "uNew" }], null);
  assert.deepEqual(conv, { localParticipantIdentifier: "pMe", remoteParticipantIdentifiers: ["pBen"], selectedMessage: null });
  assert.deepEqual(draftToMessage("x", { url: "?a", layout: {}, session: { id: "s", baseVersion: 2 }, live: false }), {
    kind: "app", appId: "x", url: "?a", live: false, session: { id: "s", baseVersion: 2 },
  });
});

test("a call over a size limit is refused with the server's code for it, as docs/APPS.md says", () => {
  const code = (method, args) => call(method, args).error?.code;
  const draft = (m) => ({ ref: "r1", message: { url: "?a=1", ...m } });
  assert.equal(code("send", draft({ url: `?${"a".repeat(5000)}` })), "too_long");
  assert.equal(code("insert", draft({ layout: { caption: "c".repeat(301) } })), "too_long");
  assert.equal(code("insert", draft({ summaryText: "s".repeat(301) })), "too_long");
  assert.equal(code("storage.set", { key: "k", value: "v".repeat(17 * 1024) }), "too_long");
  assert.equal(code("storage.set", { key: "k".repeat(129), value: 1 }), "too_long");
  assert.equal(code("insertText", { text: "t".repeat(10001) }), "too_long");
  assert.equal(code("upload", { blob: new Blob([new Uint8Array(5 * 1024 * 1024 + 1)]) }), "too_large");
  // malformed is still invalid_call
  assert.equal(code("insert", draft({ layout: { caption: 7 } })), "invalid_call");
  assert.equal(code("storage.set", { key: "", value: 1 }), "invalid_call");
  assert.equal(code("insertText", { text: "" }), "invalid_call");
});
