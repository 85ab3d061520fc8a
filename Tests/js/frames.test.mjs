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
  // a picture's size, as the server read it
  assert.equal(ok({ type: "message", conversationId: "c1", message: msg({ kind: "attachment", image: H, width: 4032, height: 3024 }) }).ok, true);
  assert.equal(ok({ type: "message", conversationId: "c1", message: msg({ kind: "app", appId: "x", url: "?", layout: { image: H, imageWidth: 600, imageHeight: 400 } }) }).ok, true);
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
    JSON.stringify({ type: "message", conversationId: "c", message: msg({ kind: "attachment", image: H, width: 40 }) }),
    JSON.stringify({ type: "message", conversationId: "c", message: msg({ kind: "attachment", image: H, width: 0, height: 3 }) }),
    JSON.stringify({ type: "message", conversationId: "c", message: msg({ kind: "app", appId: "x", url: "?", layout: { image: H, imageWidth: "600", imageHeight: 400 } }) }),
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
  assert.notEqual(outboundProblem({ kind: "sticker" }), null);
  // a photo of one's own goes to the outbox before its upload gives it an image
  assert.equal(outboundProblem({ kind: "attachment", name: "beach.jpg" }), null);
  assert.equal(outboundProblem({ kind: "attachment", image: H, name: "beach.jpg" }), null);
  assert.equal(outboundProblem({ kind: "attachment", image: "not a hash" }), "image");
  assert.equal(outboundProblem({ kind: "attachment", name: "x".repeat(301) }), "name");
  assert.notEqual(outboundProblem({ kind: "video" }), null);
});

test("client ids are unique, and sort in the order they were made (UUID version 7)", () => {
  const made = Array.from({ length: 5000 }, () => newClientId());
  assert.equal(new Set(made).size, made.length);
  for (const id of made) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  // thousands within one millisecond still count up (the server's index grows at one end)
  assert.deepEqual([...made].sort(), made);
  // the first 48 bits are the time
  const now = Date.now() + 60_000;
  const id = newClientId(now);
  assert.equal(parseInt(id.slice(0, 8) + id.slice(9, 13), 16), now);
  assert.ok(newClientId(now) > id && newClientId(now + 1) > id);
  // more than 4,096 in one millisecond borrow the next
  const burst = Array.from({ length: 5000 }, () => newClientId(now + 2));
  assert.deepEqual([...burst].sort(), burst);
  assert.equal(new Set(burst).size, burst.length);
});

test("the events of one user's devices: app storage, installed apps, a new recovery key", () => {
  assert.equal(ok({ type: "appdata", appId: "iconstore", key: "owned", value: ["cat"] }).ok, true);
  assert.equal(ok({ type: "appdata", appId: "iconstore", key: "owned", value: null }).ok, true);
  assert.equal(ok({ type: "apps", installedApps: ["iconstore"] }).ok, true);
  assert.equal(ok({ type: "recovery", deviceId: "d1" }).ok, true);
  assert.equal(ok({ type: "appdata", appId: "", key: "owned", value: 1 }).ok, false);
  assert.equal(ok({ type: "appdata", appId: "iconstore", key: 5, value: 1 }).ok, false);
  assert.equal(ok({ type: "appdata", appId: "iconstore", key: "owned" }).ok, false);
  assert.equal(ok({ type: "apps", installedApps: [1] }).ok, false);
  assert.equal(ok({ type: "recovery", deviceId: 7 }).ok, false);
});
