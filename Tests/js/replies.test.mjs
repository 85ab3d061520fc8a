// Inline replies (state/replies.js): the quote's words for an original as held (shown,
// deleted, a superseded state, not loaded), the reply carried by one message of a Send,
// the row's `quoted`, the frame checks, and the outgoing frame: replyTo leaves with the
// text and is sent again, unchanged, on a retry.
import { test } from "node:test";
import assert from "node:assert/strict";
import { quoteOf, quoteLabel, withReply, oneLine, canCarryReply } from "../../Public/js/state/replies.js";
import { emptyTranscript, applyHistory, applyDeletion, transcriptRows, addPending } from "../../Public/js/state/transcript.js";
import { messageProblem, outboundProblem } from "../../Public/js/net/frames.js";
import { Store } from "../../Public/js/store.js";
import { Sync } from "../../Public/js/sync.js";
import { Outgoing } from "../../Public/js/outgoing.js";
import { ProtocolError } from "../../Public/js/net/client.js";
import { FakeClient } from "./fake-client.mjs";
import { installFakeStorage } from "./fake-storage.mjs";

const storage = installFakeStorage();
const ME = { id: "uMe", name: "Me" };
const BEN = "uBen";
const C = "c1";
const tick = () => new Promise((r) => setImmediate(r));
const names = { [ME.id]: "Me", [BEN]: "Ben" };
const how = {
  selfId: ME.id,
  nameOf: (id) => names[id] ?? "someone",
  words: (m) => (m.kind === "text" ? m.text : m.kind === "sticker" ? "a sticker" : "a message"),
  summary: (m) => m.summary,
};
const msg = (seq, fields) => ({ seq, clientId: `k${seq}`, sender: BEN, createdAt: seq, kind: "text", text: `m${seq}`, ...fields });

test("the quote: who and one line; a deleted original, a superseded state, one not loaded", () => {
  assert.deepEqual(quoteOf(msg(1, { text: "lunch\n  at noon?" }), how), { who: "Ben", line: "lunch at noon?", loaded: true });
  assert.deepEqual(quoteOf(msg(1, { sender: ME.id }), how).who, "You");
  assert.deepEqual(quoteOf({ ...msg(2), kind: "deleted", text: undefined }, how), { who: "Ben", line: "Deleted message", loaded: true });
  const superseded = msg(3, { kind: "app", appId: "tictactoe", supersededBy: 9, summary: "Ben played X" });
  assert.equal(quoteOf(superseded, how).line, "Ben played X");
  assert.deepEqual(quoteOf(undefined, how), { who: null, line: "Earlier message", loaded: false });
  assert.equal(quoteOf(msg(4, { kind: "sticker", image: "a".repeat(64) }), how).line, "a sticker");
  // a photo's quote carries its picture, shown small beside the line; a sticker's does not
  assert.equal(quoteOf(msg(5, { kind: "attachment", image: "b".repeat(64), name: "beach.png" }), how).picture, "b".repeat(64));
  assert.equal(quoteOf(msg(4, { kind: "sticker", image: "a".repeat(64) }), how).picture, undefined);
  assert.equal(quoteOf({ ...msg(6, { kind: "attachment", image: "b".repeat(64) }), kind: "deleted" }, how).picture, undefined);

  assert.equal(quoteLabel(quoteOf(msg(1, { text: "hi" }), how)), "Reply to Ben: hi. Show the message");
  assert.equal(quoteLabel(quoteOf(msg(1, { sender: ME.id, text: "hi" }), how)), "Reply to you: hi. Show the message");
  assert.equal(quoteLabel(quoteOf(undefined, how)), "Reply to an earlier message. Show the message");
});

test("one line, cut between graphemes", () => {
  const family = "👨‍👩‍👧";
  const cut = oneLine("ab" + family.repeat(30), 10);
  assert.ok(cut.endsWith("…"));
  assert.ok(cut.length <= 10);
  assert.equal(cut.slice(2, -1).replaceAll(family, ""), "", "no family broken in half");
  assert.equal(oneLine("short"), "short");
});

test("Send: the reply goes on the text, else on the first picture or sticker; never on an app's message", () => {
  const app = { kind: "app", appId: "poll", url: "?q" };
  const sticker = { kind: "sticker", image: "a".repeat(64) };
  const text = { kind: "text", text: "yes" };
  assert.deepEqual(withReply([app, text], 4), [app, { ...text, replyTo: 4 }]);
  assert.deepEqual(withReply([app, sticker], 4), [app, { ...sticker, replyTo: 4 }]);
  assert.deepEqual(withReply([app], 4), [app]);
  assert.deepEqual(withReply([text], null), [text]);
  assert.equal(canCarryReply({ ...sticker, stuckTo: { seq: 1, x: 0, y: 0 } }), false);
});

test("a row carries its original as held: then a tombstone; a pending reply too", () => {
  let t = applyHistory(emptyTranscript(), [msg(1), msg(2, { replyTo: 1 }), msg(3, { replyTo: 1000 })], false);
  let rows = transcriptRows(t);
  assert.equal(rows[1].quoted, t.messages[0]);
  assert.equal(rows[2].quoted, undefined, "not loaded");
  assert.equal(rows[0].quoted, undefined, "not a reply");
  t = applyDeletion(t, { seq: 4, kind: "deletion", deletes: 1, createdAt: 5 });
  rows = transcriptRows(t);
  assert.equal(rows[1].quoted.kind, "deleted");
  t = addPending(t, { clientId: "p1", sender: ME.id, createdAt: 6, message: { kind: "text", text: "ok", replyTo: 2 }, status: "sending" });
  assert.equal(transcriptRows(t).at(-1).quoted, t.messages[1]);
});

test("frames: replyTo a seq in and out; not on an app's message or a stuck sticker", () => {
  assert.equal(messageProblem(msg(2, { replyTo: 1 })), null);
  assert.equal(messageProblem(msg(2, { replyTo: "1" })), "message.replyTo");
  assert.equal(messageProblem(msg(2, { replyTo: 0 })), "message.replyTo");
  assert.equal(outboundProblem({ kind: "text", text: "yes", replyTo: 3 }), null);
  assert.equal(outboundProblem({ kind: "text", text: "yes", replyTo: 1.5 }), "replyTo");
  assert.equal(outboundProblem({ kind: "app", appId: "poll", url: "?q", replyTo: 3 }), "replyTo");
  assert.equal(outboundProblem({ kind: "sticker", image: "a".repeat(64), stuckTo: { seq: 1, x: 0, y: 0 }, replyTo: 3 }), "replyTo");
});

test("the outgoing frame carries replyTo, the strip goes after Send, and a retry sends it again", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  storage.clear?.();
  const store = new Store();
  const client = new FakeClient();
  const sync = new Sync(client, store, { random: () => 0 });
  const outgoing = new Outgoing(store, sync);
  store.update(["user"], () => ({ user: ME }));
  const heard = [];
  outgoing.addEventListener("reply", (e) => heard.push(e.detail.reply?.seq ?? null));

  outgoing.setReply(C, { seq: 5, who: "Ben", line: "lunch?" });
  assert.deepEqual(outgoing.replying(C), { seq: 5, who: "Ben", line: "lunch?" });
  assert.equal(outgoing.replying("other"), null, "each conversation its own");
  assert.equal(outgoing.send(C, "yes"), true);
  assert.equal(outgoing.replying(C), null, "gone after Send");
  assert.deepEqual(heard, [5, null]);
  assert.deepEqual(client.sends()[0].fields.message, { kind: "text", text: "yes", replyTo: 5 });
  assert.equal(store.transcript(C).pending[0].message.replyTo, 5, "the pending row quotes it too");

  client.sends()[0].reject(new ProtocolError({ code: "internal", message: "x" }));
  await tick();
  t.mock.timers.tick(500);
  await tick();
  assert.equal(client.sends().length, 2);
  assert.equal(client.sends()[1].fields.clientId, client.sends()[0].fields.clientId);
  assert.deepEqual(client.sends()[1].fields.message, { kind: "text", text: "yes", replyTo: 5 });

  // a Send without a reply sends none
  outgoing.send(C, "and another");
  assert.equal(client.sends().at(-1).fields.message.replyTo, undefined);
});
