import { test } from "node:test";
import assert from "node:assert/strict";
import {
  emptyTranscript, applyMessage, applyHistory, resync, addPending, failPending, removePending, dropSettledConflicts, hasConflict,
  transcriptRows, unreadCount, historyCursor, currentOfSession, messageBySeq,
} from "../../Public/js/state/transcript.js";

const ME = "uMe";
const BEN = "uBen";
let n = 0;
function text(seq, sender = BEN, extra = {}) {
  return { seq, clientId: `c${seq}-${n++}`, sender, createdAt: 1000 + seq, kind: "text", text: `m${seq}`, ...extra };
}
function app(seq, session, version, sender = BEN) {
  return { seq, clientId: `a${seq}`, sender, createdAt: 1000 + seq, kind: "app", appId: "example", url: `?v=${version}`, session: { id: session, version } };
}

test("orders by seq whatever the arrival order, and drops duplicates", () => {
  let t = emptyTranscript();
  for (const seq of [3, 1, 2, 3, 1]) t = applyMessage(t, text(seq), undefined, ME);
  assert.deepEqual(t.messages.map((m) => m.seq), [1, 2, 3]);
  assert.equal(t.lastSeq, 3);
});

test("a session update moves the bubble to the bottom and leaves a summary where it stood", () => {
  let t = emptyTranscript();
  t = applyMessage(t, app(1, "s1", 1), undefined, ME);
  t = applyMessage(t, text(2), undefined, ME);
  t = applyMessage(t, app(3, "s1", 2, ME), { seq: 1, summary: "Ben played example" }, ME);
  const rows = transcriptRows(t);
  assert.deepEqual(rows.map((r) => [r.type, r.message.seq]), [["summary", 1], ["message", 2], ["message", 3]]);
  assert.equal(rows[0].message.summary, "Ben played example");
  assert.equal(rows[0].message.supersededBy, 3);
  assert.equal(currentOfSession(t, "s1").seq, 3);
});

test("a replayed copy without supersededBy does not undo a summary", () => {
  let t = emptyTranscript();
  t = applyMessage(t, app(1, "s1", 1), undefined, ME);
  t = applyMessage(t, app(2, "s1", 2), { seq: 1, summary: "x" }, ME);
  t = applyMessage(t, app(1, "s1", 1), undefined, ME);
  assert.equal(messageBySeq(t, 1).supersededBy, 2);
});

test("a supersede of a message that is not loaded changes nothing else", () => {
  let t = emptyTranscript();
  t = applyMessage(t, app(9, "s1", 4), { seq: 5, summary: "x" }, ME);
  assert.deepEqual(transcriptRows(t).map((r) => r.type), ["message"]);
});

test("local echo: pending shows last, and the confirmed message replaces it by clientId", () => {
  let t = emptyTranscript();
  t = applyMessage(t, text(1), undefined, ME);
  t = addPending(t, { clientId: "k1", sender: ME, createdAt: 5, message: { kind: "text", text: "hi" } });
  t = applyMessage(t, text(2), undefined, ME);
  assert.deepEqual(transcriptRows(t).map((r) => r.type), ["message", "message", "pending"]);
  t = applyMessage(t, { ...text(3, ME), clientId: "k1" }, undefined, ME);
  assert.equal(t.pending.length, 0);
  // the same clientId from someone else is not our echo
  t = addPending(t, { clientId: "k2", sender: ME, createdAt: 6, message: { kind: "text", text: "yo" } });
  t = applyMessage(t, { ...text(4, BEN), clientId: "k2" }, undefined, ME);
  assert.equal(t.pending.length, 1);
});

test("a pending that is already confirmed is not added again; failures are kept", () => {
  let t = applyMessage(emptyTranscript(), { ...text(1, ME), clientId: "k1" }, undefined, ME);
  t = addPending(t, { clientId: "k1", sender: ME, createdAt: 1, message: { kind: "text", text: "x" } });
  assert.equal(t.pending.length, 0);
  t = addPending(t, { clientId: "k2", sender: ME, createdAt: 1, message: { kind: "text", text: "x" } });
  t = failPending(t, "k2", "too_long");
  assert.equal(t.pending[0].status, "failed");
  assert.equal(t.pending[0].error, "too_long");
  t = removePending(t, "k2");
  assert.equal(t.pending.length, 0);
});

test("history pages merge below what is held, and the cursor moves back", () => {
  let t = emptyTranscript();
  t = applyMessage(t, text(10), undefined, ME);
  assert.equal(historyCursor(t), 10);
  t = applyHistory(t, [text(7), text(8), text(9), text(10)], true);
  assert.deepEqual(t.messages.map((m) => m.seq), [7, 8, 9, 10]);
  assert.equal(t.hasMoreBefore, true);
  assert.equal(historyCursor(t), 7);
  t = applyHistory(t, [text(5), text(6)], false);
  assert.equal(t.hasMoreBefore, false);
  assert.equal(t.loaded, true);
});

test("resync drops confirmed messages but keeps what is being sent", () => {
  let t = applyMessage(emptyTranscript(), text(1), undefined, ME);
  t = addPending(t, { clientId: "k", sender: ME, createdAt: 1, message: { kind: "text", text: "x" } });
  t = resync(t, 900);
  assert.equal(t.messages.length, 0);
  assert.equal(t.pending.length, 1);
  assert.equal(t.lastSeq, 900);
  assert.equal(historyCursor(t), 901);
});

test("stickers stuck onto a loaded bubble travel with it", () => {
  let t = emptyTranscript();
  t = applyMessage(t, text(1), undefined, ME);
  const sticker = { seq: 2, clientId: "s", sender: ME, createdAt: 2, kind: "sticker", image: "a".repeat(64), stuckTo: { seq: 1, x: 0.5, y: 0.5 } };
  const loose = { ...sticker, seq: 3, clientId: "s2", stuckTo: { seq: 99, x: 0, y: 0 } };
  t = applyMessage(applyMessage(t, sticker, undefined, ME), loose, undefined, ME);
  const rows = transcriptRows(t);
  assert.deepEqual(rows.map((r) => r.message.seq), [1, 3]);
  assert.equal(rows[0].stickers[0].seq, 2);
});

test("unread counts others' current messages after the last read one and one's own last", () => {
  let t = emptyTranscript();
  t = applyMessage(t, text(1), undefined, ME);
  t = applyMessage(t, app(2, "s", 1), undefined, ME);
  t = applyMessage(t, app(3, "s", 2), { seq: 2, summary: "x" }, ME);
  t = applyMessage(t, text(4), undefined, ME);
  assert.equal(unreadCount(t, 0, ME), 3); // 1, 3, 4
  assert.equal(unreadCount(t, 3, ME), 1);
  assert.equal(unreadCount(t, 4, ME), 0);
  // a reply of one's own (from another device: this one's read mark is still 0)
  t = applyMessage(t, text(5, ME), undefined, ME);
  assert.equal(unreadCount(t, 0, ME), 0);
  t = applyMessage(t, text(6), undefined, ME);
  assert.equal(unreadCount(t, 0, ME), 1);
});

test("a blocked person's messages are not unread, nor where the New messages line stands", async () => {
  const { firstUnreadSeq, newestUnread } = await import("../../Public/js/state/transcript.js");
  const m = (seq, sender) => ({ seq, sender, kind: "text", text: `m${seq}`, createdAt: seq });
  const t = { messages: [m(1, "uMe"), m(2, "uEve"), m(3, "uBen"), m(4, "uEve")] };
  const blocked = new Set(["uEve"]);
  assert.equal(unreadCount(t, 1, "uMe"), 3, "counted while not blocked");
  assert.equal(unreadCount(t, 1, "uMe", blocked), 1);
  assert.equal(newestUnread(t, 1, "uMe", blocked).seq, 3, "the newest one not blocked is told of");
  assert.equal(firstUnreadSeq(t, 1, "uMe", blocked), 3);
  assert.equal(unreadCount({ messages: [m(1, "uMe"), m(2, "uEve")] }, 0, "uMe", blocked), 0);
  // their message is no sign of anything read: what came before it still counts
  assert.equal(unreadCount({ messages: [m(1, "uBen"), m(2, "uEve")] }, 0, "uMe", blocked), 1);
});

test("a blocked person's messages held back from a reader far up are not counted for the pill, nor when paged in", async () => {
  const { heldBack, applyNewer } = await import("../../Public/js/state/transcript.js");
  const m = (seq, sender) => ({ seq, sender, kind: "text", text: `m${seq}`, createdAt: seq });
  const blocked = new Set(["uEve"]);
  let t = { ...emptyTranscript(), messages: [m(1, "uBen")], lastSeq: 1 };
  t = heldBack(t, m(2, "uEve"), undefined, "uMe", blocked);
  t = heldBack(t, m(3, "uBen"), undefined, "uMe", blocked);
  assert.equal(t.heldBackNew, 1, "Ben's, not Eve's");
  assert.equal(heldBack(t, m(4, "uEve"), undefined, "uMe").heldBackNew, 3, "counted while not blocked, hers before too");
  t = heldBack(t, m(4, "uBen"), undefined, "uMe", blocked);
  // a page with Eve's and one of Ben's is drawn: the pill counts Ben's other one still
  t = applyNewer(t, [m(2, "uEve"), m(3, "uBen")], true, "uMe", blocked);
  assert.equal(t.heldBackNew, 1);
});

test("held-back messages are counted again after a block or an unblock made since", async () => {
  const { heldBack, applyNewer, recountHeld } = await import("../../Public/js/state/transcript.js");
  const m = (seq, sender, mentions) => ({ seq, sender, kind: "text", text: `m${seq}`, createdAt: seq, ...(mentions ? { mentions } : {}) });
  let t = { ...emptyTranscript(), messages: [m(1, "uBen")], lastSeq: 1 };
  for (const [seq, sender] of [[2, "uEve"], [3, "uBen"], [4, "uEve"]]) t = heldBack(t, m(seq, sender, ["uMe"]), undefined, "uMe");
  assert.deepEqual([t.heldBackNew, t.heldBackMentions], [3, 3]);
  // Eve blocked now: hers no longer count, though they came before the block
  t = recountHeld(t, new Set(["uEve"]));
  assert.deepEqual([t.heldBackNew, t.heldBackMentions], [1, 1]);
  // unblocked: they count again; one of hers paged in is drawn
  t = applyNewer(recountHeld(t, new Set()), [m(2, "uEve", ["uMe"])], true, "uMe");
  assert.deepEqual([t.heldBackNew, t.heldBackMentions], [2, 2]);
  assert.equal(recountHeld(emptyTranscript(), new Set(["uEve"])).heldBackNew, undefined, "nothing held: unchanged");
});

test("mentions of the reader among messages held back are counted, and drawn when paged in", async () => {
  const { heldBack, applyNewer } = await import("../../Public/js/state/transcript.js");
  const m = (seq, sender, mentions) => ({ seq, sender, kind: "text", text: `m${seq}`, createdAt: seq, ...(mentions ? { mentions } : {}) });
  let t = { ...emptyTranscript(), messages: [m(1, "uBen")], lastSeq: 1 };
  t = heldBack(t, m(2, "uBen", ["uMe"]), undefined, "uMe");
  t = heldBack(t, m(3, "uBen", ["uCy"]), undefined, "uMe");
  const eve = new Set(["uEve"]);
  t = heldBack(t, m(4, "uEve", ["uMe"]), undefined, "uMe", eve);
  t = heldBack(t, m(5, "uMe", ["uMe"]), undefined, "uMe", eve);
  t = heldBack(t, m(6, "uCy", ["uMe"]), undefined, "uMe", eve);
  assert.equal(t.heldBackMentions, 2, "Ben's and Cy's: not one naming someone else, not a blocked person's, not one's own");
  t = applyNewer(t, [m(2, "uBen", ["uMe"]), m(3, "uBen", ["uCy"])], true, "uMe", eve);
  assert.equal(t.heldBackMentions, 1, "the one paged in is drawn");
  t = applyNewer(t, [m(4, "uEve", ["uMe"]), m(5, "uMe", ["uMe"]), m(6, "uCy", ["uMe"])], false, "uMe", eve);
  assert.equal(t.heldBackMentions, 0);
});

test("a refused app move is dropped once its app has something staged", () => {
  let t = addPending(emptyTranscript(), { clientId: "a", sender: "u1", createdAt: 1, message: { kind: "app", appId: "partylist", url: "?x", session: { id: "s1", baseVersion: 1 } } });
  t = addPending(t, { clientId: "b", sender: "u1", createdAt: 2, message: { kind: "text", text: "hi" } });
  t = failPending(t, "a", "session_conflict", app(2, "s1", 2));
  t = failPending(t, "b", "internal");
  assert.equal(hasConflict(t, "partylist"), true);
  assert.equal(dropSettledConflicts(t, []), t, "nothing staged, nothing newer: kept");
  assert.equal(dropSettledConflicts(t, [{ key: "k", appId: "wenderpic", message: { kind: "app", appId: "wenderpic" } }]), t);
  const after = dropSettledConflicts(t, [{ key: "k", appId: "partylist", message: { kind: "app", appId: "partylist" } }]);
  assert.deepEqual(after.pending.map((p) => p.clientId), ["b"]);
  assert.equal(hasConflict(after, "partylist"), false);
});

test("a refused app move is dropped once its sender moved the session past the winner", () => {
  const refused = { kind: "app", appId: "example", url: "?mine", session: { id: "s1", baseVersion: 1 } };
  let t = applyMessage(emptyTranscript(), app(1, "s1", 1), undefined, ME);
  t = addPending(t, { clientId: "a", sender: ME, createdAt: 1, message: refused });
  // the winner (seq 2) arrives live before the refusal, which names it as current
  t = applyMessage(t, app(2, "s1", 2), { seq: 1, summary: "x" }, ME);
  t = failPending(t, "a", "session_conflict", app(2, "s1", 2));
  assert.equal(t.pending[0].conflictSeq, 2);
  assert.equal(dropSettledConflicts(t), t, "the winner itself does not hide the refused copy");
  t = applyMessage(t, text(3), undefined, ME);
  t = applyMessage(t, app(4, "s2", 1), undefined, ME);
  assert.equal(dropSettledConflicts(t), t, "other messages and other sessions do not either");
  t = applyMessage(t, app(5, "s1", 3), { seq: 2, summary: "y" }, ME);
  assert.equal(dropSettledConflicts(t), t, "someone else moving on again does not: the app can still merge it");
  t = applyMessage(t, app(6, "s1", 4, ME), { seq: 5, summary: "z" }, ME);
  assert.equal(dropSettledConflicts(t).pending.length, 0, "the person moved on (another device)");
});

test("a refusal without the current message measures from the newest of the session held", () => {
  let t = applyMessage(emptyTranscript(), app(1, "s1", 1), undefined, ME);
  t = applyMessage(t, app(3, "s1", 2), { seq: 1, summary: "x" }, ME);
  t = addPending(t, { clientId: "a", sender: ME, createdAt: 1, message: { kind: "app", appId: "example", url: "?m", session: { id: "s1", baseVersion: 1 } } });
  t = failPending(t, "a", "session_conflict");
  assert.equal(t.pending[0].conflictSeq, 3);
  assert.equal(dropSettledConflicts(t), t);
});

test("the New messages line: above the oldest message unreadCount counts, none when all is read or answered", async () => {
  const { firstUnreadSeq } = await import("../../Public/js/state/transcript.js");
  const m = (seq, sender, more = {}) => ({ seq, sender, kind: "text", text: `m${seq}`, createdAt: seq, ...more });
  const t = { messages: [m(1, "uBen"), m(2, "uMe"), m(3, "uBen"), m(4, "uBen", { supersededBy: 6 }), m(5, "uCy", { kind: "deleted" }), m(6, "uBen")] };
  assert.equal(firstUnreadSeq(t, 2, "uMe"), 3);
  assert.equal(firstUnreadSeq(t, 3, "uMe"), 6, "a replaced move and a deletion are not where it stands");
  assert.equal(firstUnreadSeq(t, 6, "uMe"), undefined);
  assert.equal(firstUnreadSeq({ messages: [...t.messages, m(7, "uMe")] }, 0, "uMe"), undefined, "answered since");
});
