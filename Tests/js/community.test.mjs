// #11 on the client, as plain data: tombstones from deletion records (live, in
// history, before or after the message), members who leave or are removed
// (this user among them), who may moderate, the device-link route, error text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { emptyTranscript, applyMessage, applyHistory, transcriptRows, unreadCount } from "../../Public/js/state/transcript.js";
import { applyMember, canModerate } from "../../Public/js/state/conversations.js";
import { parseRoute, deviceLink } from "../../Public/js/state/route.js";
import { errorText, signedOutText } from "../../Public/js/state/errors.js";
import { parseFrame } from "../../Public/js/net/frames.js";

const text = (seq, sender = "uB") => ({ seq, clientId: `k${seq}`, sender, createdAt: seq, kind: "text", text: `m${seq}` });
const deletion = (seq, deletes) => ({ seq, clientId: `deletion-of-${deletes}`, sender: "uB", createdAt: 100 + seq, kind: "deletion", deletes, by: "uB" });

test("a deletion record turns its message into a tombstone where it stands, and is not drawn", () => {
  let t = emptyTranscript();
  for (const s of [1, 2, 3]) t = applyMessage(t, text(s));
  t = applyMessage(t, deletion(4, 2));
  assert.deepEqual(t.messages.map((m) => [m.seq, m.kind]), [[1, "text"], [2, "deleted"], [3, "text"]]);
  assert.equal(t.messages[1].text, undefined, "nothing it said is kept");
  assert.equal(t.lastSeq, 4, "the record counts as seen, so a resume starts after it");
  assert.equal(transcriptRows(t).length, 3);
  assert.equal(unreadCount(t, 0, "uMe"), 2, "a tombstone is not unread");
  // the same message replayed whole (an overlap) does not come back
  t = applyMessage(t, text(2));
  assert.equal(t.messages[1].kind, "deleted");
  // a record for a message not loaded changes nothing but lastSeq
  assert.equal(applyMessage(t, deletion(9, 1000)).messages, t.messages);
});

test("history: a deleted message comes as a tombstone; a record in the page deletes one held", () => {
  let t = applyMessage(emptyTranscript(), text(5));
  t = applyHistory(t, [text(3), { seq: 4, sender: "uB", createdAt: 4, kind: "deleted", deletedAt: 9 }, deletion(6, 5)], false);
  assert.deepEqual(t.messages.map((m) => [m.seq, m.kind]), [[3, "text"], [4, "deleted"], [5, "deleted"]]);
});

test("members leave or are removed: list and count follow; this user's conversation is marked", () => {
  const list = [{ id: "c1", title: "T", lastSeq: 0, memberCount: 3, members: [{ userId: "uA", name: "A" }, { userId: "uB", name: "B" }, { userId: "uMe", name: "Me" }] }];
  const afterLeave = applyMember(list, "c1", { userId: "uB", name: "B" }, { change: "left", memberCount: 2, selfId: "uMe" });
  assert.deepEqual(afterLeave[0].members.map((m) => m.userId), ["uA", "uMe"]);
  assert.equal(afterLeave[0].memberCount, 2);
  assert.equal(afterLeave[0].left, undefined);
  assert.deepEqual(afterLeave[0].former, { uB: "B" }, "what B sent keeps B's name while the page knows it");
  const removed = applyMember(afterLeave, "c1", { userId: "uMe", name: "Me" }, { change: "removed", by: "uA", memberCount: 1, selfId: "uMe" });
  assert.equal(removed[0].left, "removed");
  assert.equal(removed[0].leftBy, "uA");
  const joined = applyMember(afterLeave, "c1", { userId: "uC", name: "C" }, { change: "joined", memberCount: 3, selfId: "uMe" });
  assert.equal(joined[0].memberCount, 3);
  assert.equal(joined[0].members.length, 3);
});

test("the creator and admins moderate; others do not", () => {
  const c = { createdBy: "uA" };
  assert.equal(canModerate(c, { id: "uA" }), true);
  assert.equal(canModerate(c, { id: "uB" }), false);
  assert.equal(canModerate(c, { id: "uB", admin: true }), true);
  assert.equal(canModerate({}, { id: "uB" }), false, "an old conversation without a creator: admins only");
});

test("a device link is a fragment the other browser reads", () => {
  const link = deviceLink("https://chat.example.org", "tok_en-1");
  assert.equal(link, "https://chat.example.org/#link=tok_en-1");
  assert.deepEqual(parseRoute("#link=tok_en-1"), { name: "link", token: "tok_en-1" });
});

test("errors read as sentences; rate_limited says how long", () => {
  assert.equal(errorText({ code: "rate_limited", retryAfterMs: 2300 }), "Slow down — try again in 3 s.");
  assert.equal(errorText({ code: "server_busy", retryAfterMs: 600 }), "The server is busy — trying again in 1 s.");
  assert.equal(errorText({ code: "registration_closed", message: "x" }), "This server is invite-only: ask a member for an invite link.");
  assert.equal(errorText({ code: "something_new", message: "the server's words" }), "the server's words");
});

test("a signed-out page says why: deactivated (may come back), deleted (for good), or a device revoked", () => {
  assert.match(signedOutText("account deactivated"), /deactivated your account.*reactivate it.*code/);
  assert.match(signedOutText("account deleted"), /deleted.*cannot be signed in to again/);
  for (const r of ["signed out", undefined, "", "something new"]) assert.match(signedOutText(r), /^This device was signed out.*Sign in again/);
});

test("frames: deletion records, member changes and retryAfterMs pass the codec; nonsense does not", () => {
  const ok = (f) => parseFrame(JSON.stringify(f)).ok;
  assert.ok(ok({ type: "message", conversationId: "c1", message: deletion(4, 2) }));
  assert.ok(!ok({ type: "message", conversationId: "c1", message: { ...deletion(4, 2), deletes: "2" } }));
  assert.ok(ok({ type: "member", conversationId: "c1", member: { userId: "u1", name: "A" }, change: "removed", by: "u2", memberCount: 2 }));
  assert.ok(!ok({ type: "member", conversationId: "c1", member: { userId: "u1", name: "A" }, change: "exploded" }));
  assert.ok(ok({ type: "error", re: "r1", code: "rate_limited", retryAfterMs: 900 }));
  assert.ok(!ok({ type: "error", re: "r1", code: "rate_limited", retryAfterMs: "soon" }));
});
