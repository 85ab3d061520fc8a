import { test } from "node:test";
import assert from "node:assert/strict";
import { parseFrame, resultProblem, outboundProblem, newClientId } from "../../Public/js/net/frames.js";

const H = "0".repeat(64);
const msg = (extra = {}) => ({ seq: 1, clientId: "c", sender: "u1", createdAt: 1, kind: "text", text: "hi", ...extra });
const ok = (f) => parseFrame(JSON.stringify(f));

test("accepts the frames of the protocol", () => {
  assert.equal(ok({ type: "result", re: "1", result: {} }).ok, true);
  assert.equal(ok({ type: "error", re: "1", code: "not_member", message: "no" }).ok, true);
  assert.equal(ok({ type: "error", code: "bad_json", message: "no" }).ok, true);
  assert.equal(ok({ type: "message", conversationId: "c1", message: msg() }).ok, true);
  assert.equal(ok({ type: "message", conversationId: "c1", message: msg({ kind: "app", appId: "x", url: "?a=1", layout: { image: H, caption: "c" }, session: { id: "s", version: 2 }, live: false, senderParticipantId: "p" }), supersedes: { seq: 1, summary: "s" } }).ok, true);
  assert.equal(ok({ type: "message", conversationId: "c1", message: msg({ kind: "sticker", image: H, stuckTo: { seq: 1, x: 0, y: 1 } }) }).ok, true);
  assert.equal(ok({ type: "member", conversationId: "c1", member: { userId: "u", name: "B" } }).ok, true);
  assert.equal(ok({ type: "presence", conversationId: "c1", online: ["u1"] }).ok, true);
  assert.equal(ok({ type: "presence", conversationId: "c1", userId: "u1", online: false }).ok, true);
  assert.equal(ok({ type: "error", re: "9", code: "session_conflict", message: "m", current: msg({ kind: "app", appId: "x", url: "?" }) }).ok, true);
});

test("drops what does not match the contract", () => {
  const bad = [
    "not json", "[]", "{}", JSON.stringify({ type: "result", result: {} }),
    JSON.stringify({ type: "result", re: "1", result: [] }),
    JSON.stringify({ type: "error", re: 1, code: "x" }),
    JSON.stringify({ type: "message", conversationId: "c", message: msg({ seq: 0 }) }),
    JSON.stringify({ type: "message", conversationId: "c", message: msg({ seq: 1.5 }) }),
    JSON.stringify({ type: "message", conversationId: "c", message: msg({ kind: "html" }) }),
    JSON.stringify({ type: "message", conversationId: "c", message: msg({ text: 5 }) }),
    JSON.stringify({ type: "message", conversationId: "c", message: msg({ kind: "app", appId: "x", url: "?", layout: { image: "../etc" } }) }),
    JSON.stringify({ type: "message", conversationId: "c", message: msg({ kind: "sticker", image: H, stuckTo: { seq: 1, x: 2, y: 0 } }) }),
    JSON.stringify({ type: "message", conversationId: "c", message: msg(), supersedes: { seq: "1" } }),
    JSON.stringify({ type: "presence", conversationId: "c", online: "yes" }),
    JSON.stringify({ type: "evil", conversationId: "c" }),
  ];
  for (const f of bad) assert.equal(parseFrame(f).ok, false, f);
  assert.equal(parseFrame(new ArrayBuffer(2)).ok, false);
});

test("checks results by request type", () => {
  assert.equal(resultProblem("auth", { user: { id: "u", name: "A" }, installedApps: [] }), null);
  assert.equal(resultProblem("register", { user: { id: "u", name: "A" }, installedApps: [] }), "token");
  assert.equal(resultProblem("subscribe", { conversation: { id: "c", title: "t", lastSeq: 0, members: [] }, lastSeq: 0, resync: false }), null);
  assert.equal(resultProblem("subscribe", { conversation: { id: "c", title: "t", lastSeq: 0, members: [] }, lastSeq: -1, resync: false }), "lastSeq");
  assert.equal(resultProblem("history", { messages: [msg()], hasMore: false }), null);
  assert.notEqual(resultProblem("history", { messages: [{}], hasMore: false }), null);
  assert.equal(resultProblem("participants", { local: "p", participants: [{ userId: "u", participantId: "p" }] }), null);
  assert.equal(resultProblem("send", { message: msg() }), null);
  assert.equal(resultProblem("invites.peek", { conversation: { id: "c", title: "t", memberCount: 3 } }), null);
  assert.equal(resultProblem("invites.peek", { conversation: { id: "c", title: "t" } }), "conversation.memberCount");
  assert.equal(resultProblem("invites.peek", { conversation: { id: "c", title: "t", memberCount: -1 } }), "conversation.memberCount");
  assert.equal(resultProblem("invites.peek", { conversation: { id: "c", title: 5, memberCount: 1 } }), "conversation.title");
  assert.equal(resultProblem("invites.peek", {}), "conversation.id");
  assert.equal(resultProblem("something.new", {}), null);
});

test("checks outbound messages against the protocol's limits", () => {
  assert.equal(outboundProblem({ kind: "text", text: "hi" }), null);
  assert.notEqual(outboundProblem({ kind: "text", text: "   " }), null);
  assert.notEqual(outboundProblem({ kind: "text", text: "x".repeat(10001) }), null);
  assert.equal(outboundProblem({ kind: "app", appId: "a", url: "?x=1" }), null);
  assert.notEqual(outboundProblem({ kind: "app", appId: "a", url: "javascript:alert(1)" }), null);
  assert.equal(outboundProblem({ kind: "sticker", image: H }), null);
  assert.notEqual(outboundProblem({ kind: "video" }), null);
});

test("client ids are unique", () => {
  const ids = new Set(Array.from({ length: 200 }, newClientId));
  assert.equal(ids.size, 200);
  for (const id of ids) assert.ok(id.length <= 64);
});
