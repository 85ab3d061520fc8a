// Editing a sent text (state/edits.js, state/transcript.js): an edit record changes the
// bubble where it stands and is nothing of its own: not a row, not unread, not the
// list's order; history's copy and replayed records agree; a quote shows the new words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EDIT_WINDOW_MS, MAX_EDITS, canEdit, editableUntil, edited, editRefusal } from "../../Public/js/state/edits.js";
import {
  emptyTranscript, applyMessage, applyHistory, transcriptRows, unreadCount, newestUnread, heldBack,
} from "../../Public/js/state/transcript.js";
import { newestMessage, previewLine } from "../../Public/js/state/previews.js";
import { touchConversation } from "../../Public/js/state/conversations.js";
import { messageProblem, parseFrame } from "../../Public/js/net/frames.js";
import { Store } from "../../Public/js/store.js";
import { Sync } from "../../Public/js/sync.js";
import { ProtocolError } from "../../Public/js/net/client.js";
import { FakeClient } from "./fake-client.mjs";
import { installFakeStorage } from "./fake-storage.mjs";

const storage = installFakeStorage();
const ME = "uMe";
const BEN = "uBen";

const text = (seq, sender = BEN, extra = {}) => ({ seq, clientId: `t${seq}`, sender, createdAt: 1000 + seq, kind: "text", text: `m${seq}`, ...extra });
const edit = (seq, sender, edits, words, editCount) => ({
  seq, clientId: `edit-of-c-${edits}-${editCount}-000`, sender, createdAt: 5000 + seq, kind: "edit", edits,
  ...(words === undefined ? {} : { text: words }), editCount,
});
const apply = (t, ...ms) => ms.reduce((u, m) => applyMessage(u, m, undefined, ME), t);

test("one's own text, for 15 minutes, at most 5 times", () => {
  const mine = text(1, ME);
  assert.equal(editableUntil(mine, ME), mine.createdAt + EDIT_WINDOW_MS);
  assert.equal(canEdit(mine, ME, mine.createdAt + EDIT_WINDOW_MS - 1), true);
  assert.equal(canEdit(mine, ME, mine.createdAt + EDIT_WINDOW_MS), false);
  assert.equal(canEdit(text(1, BEN), ME, 0), false, "not another's");
  assert.equal(canEdit({ ...mine, editCount: MAX_EDITS - 1 }, ME, 0), true);
  assert.equal(canEdit({ ...mine, editCount: MAX_EDITS }, ME, 0), false);
  for (const kind of ["app", "sticker", "attachment", "reaction", "deleted"]) assert.equal(canEdit({ ...mine, kind }, ME, 0), false, kind);
});

test("an edit record changes the text where it stands and is no row of its own", () => {
  let t = apply(emptyTranscript(), text(1), text(2, ME), text(3, BEN, { replyTo: 1 }));
  t = apply(t, edit(4, BEN, 1, "fixed", 1));
  const rows = transcriptRows(t);
  assert.deepEqual(rows.map((r) => r.message.seq), [1, 2, 3]);
  assert.deepEqual([rows[0].message.text, rows[0].message.editCount, rows[0].message.editedAt], ["fixed", 1, 5004]);
  assert.equal(rows[2].quoted.text, "fixed", "a reply's quote shows the new words");
  assert.equal(t.lastSeq, 4, "counted as seen");
  // an older record than what is shown, or one scrubbed of its words, changes nothing
  const same = apply(t, edit(5, BEN, 1, undefined, 1));
  assert.equal(same.messages[0], t.messages[0]);
  // a record on a deleted message, or on a message not held, changes nothing either
  assert.equal(apply(t, edit(6, BEN, 9, "x", 1)).messages.length, 3);
  assert.equal(edited({ ...text(1), kind: "deleted" }, edit(6, BEN, 1, "x", 1)).kind, "deleted");
});

test("history brings the message as it is, then its records (some scrubbed): the newest words win", () => {
  const page = [
    text(1, BEN, { text: "v2", editedAt: 5003, editCount: 2 }), text(2),
    edit(3, BEN, 1, undefined, 1), edit(4, BEN, 1, "v2", 2),
  ];
  const t = applyHistory(emptyTranscript(), page, false);
  assert.deepEqual(transcriptRows(t).map((r) => [r.message.seq, r.message.text, r.message.editCount ?? 0]), [[1, "v2", 2], [2, "m2", 0]]);
  // a resume from before the edits: the message as it was, then its replayed records
  const resumed = apply(emptyTranscript(), text(1, BEN, { text: "v0" }), text(2), edit(3, BEN, 1, undefined, 1), edit(4, BEN, 1, "v2", 2));
  assert.equal(resumed.messages[0].text, "v2");
});

test("an edit is not unread, not news, not the list's order; the list's line shows the new words", () => {
  let t = apply(emptyTranscript(), text(1, ME), text(2));
  t = apply(t, edit(3, BEN, 2, "later words", 1));
  assert.equal(unreadCount(t, 1, ME), 1, "Ben's one message, not his edit");
  assert.equal(newestUnread(t, 1, ME).text, "later words");
  assert.equal(unreadCount(apply(t, edit(4, ME, 1, "mine again", 1)), 2, ME), 0, "one's own edit reads nothing and makes nothing unread");
  assert.equal(newestMessage({ id: "b" }, t).text, "later words");
  assert.equal(previewLine(newestMessage({ id: "b" }, t), { selfId: ME, appName: (a) => a, names: (s) => s, nameOf: () => "Ben" }), "later words");
  // "a" was active after "b"'s message and before the edit (at 5008): the edit moves nothing
  const list = [{ id: "a", lastMessage: { ...text(7), createdAt: 3000 } }, { id: "b", lastMessage: text(2) }];
  const after = touchConversation(list, "b", edit(8, BEN, 2, "later words", 1));
  assert.deepEqual(after.map((c) => c.id), ["a", "b"], "the list keeps its order");
  assert.deepEqual([after[1].lastMessage.seq, after[1].lastMessage.kind, after[1].lastMessage.text], [2, "text", "later words"]);
  assert.equal(after[1].lastSeq, 8);
  // while the reader is far up: applied to a held bubble, not counted as news
  const held = heldBack({ ...t, hasMoreAfter: true, heldBackNew: 0 }, edit(9, BEN, 2, "again", 2), undefined, ME);
  assert.equal(held.heldBackNew, 0);
  assert.equal(held.messages[1].text, "again");
});

test("frames: the record and an edited text are checked", () => {
  assert.equal(messageProblem(edit(3, BEN, 1, "x", 1)), null);
  assert.equal(messageProblem(edit(3, BEN, 1, undefined, 1)), null);
  assert.equal(messageProblem({ ...edit(3, BEN, 1, "x", 1), edits: "1" }), "message.edits");
  assert.equal(messageProblem({ ...edit(3, BEN, 1, "x", 1), text: 7 }), "message.text");
  assert.equal(messageProblem(text(1, BEN, { editedAt: 5, editCount: 1 })), null);
  assert.equal(messageProblem(text(1, BEN, { editCount: "1" })), "message.editCount");
  assert.equal(parseFrame(JSON.stringify({ type: "message", conversationId: "c1", message: edit(3, BEN, 1, "x", 1) })).ok, true);
});

test("refusals are said plainly", () => {
  const other = (e) => e.message;
  assert.match(editRefusal({ code: "offline" }, text(1, ME), other), /offline/);
  assert.match(editRefusal({ code: "forbidden" }, text(1, ME, { editCount: 5 }), other), /5 times/);
  assert.match(editRefusal({ code: "forbidden" }, text(1, ME), other), /15 minutes/);
  assert.match(editRefusal({ code: "too_long", message: "text is too long" }, text(1, ME), other), /too long/);
});

const C = "c1";

function signedIn() {
  storage.clear();
  const store = new Store();
  const client = new FakeClient();
  const sync = new Sync(client, store);
  store.update(["user"], () => ({ user: { id: ME, name: "Me" } }));
  store.update(["conversations"], () => ({ conversations: [{ id: C, title: "Chat", lastSeq: 0, members: [{ userId: ME, name: "Me" }, { userId: BEN, name: "Ben" }] }] }));
  store.update(["current"], () => ({ currentId: C }));
  return { store, client, sync };
}

test("an edit is asked, shown from the answer, and not queued: offline it is refused", async () => {
  const { store, client, sync } = signedIn();
  client.serverSends("message", { conversationId: C, message: text(1, ME) });
  const saving = sync.editMessage(C, 1, "better words");
  const req = client.requests.at(-1);
  assert.equal(req.type, "messages.edit");
  assert.deepEqual(req.fields, { conversationId: C, seq: 1, text: "better words" });
  req.resolve({ message: { ...text(1, ME), text: "better words", editedAt: 7000, editCount: 1 } });
  await saving;
  assert.equal(store.transcript(C).messages[0].text, "better words");
  assert.equal(store.outbox().length, 0, "nothing kept to send again");
  // the live record after the answer changes nothing more
  client.serverSends("message", { conversationId: C, message: edit(2, ME, 1, "better words", 1) });
  assert.deepEqual(transcriptRows(store.transcript(C)).map((r) => [r.message.seq, r.message.text]), [[1, "better words"]]);
  const offline = sync.editMessage(C, 1, "again");
  client.requests.at(-1).reject(new ProtocolError({ code: "offline", message: "not connected" }));
  await assert.rejects(offline, (e) => e.code === "offline");
  assert.equal(store.transcript(C).messages[0].text, "better words");
});

test("Edit buttons hide at their time; the same words again ask nothing", async () => {
  const { Editing } = await import("../../Public/js/editing.js");
  const { store, client, sync } = signedIn();
  const said = [];
  const editing = new Editing({ store, sync, composer: () => null, announce: (t) => said.push(t) });
  const now = Date.now();
  const late = { dataset: { editableUntil: String(now - 1) }, hidden: false };
  const soon = { dataset: { editableUntil: String(now + 60_000) }, hidden: false };
  const rows = [{ dataset: { seq: "1" }, classList: new Set(["row"]) }, { dataset: { seq: "2" }, classList: new Set(["row", "editing"]) }];
  rows.forEach((r) => (r.classList.remove = r.classList.delete));
  const root = {
    querySelectorAll: (sel) => (sel === "button.edit-message" ? [late, soon] : sel === ".row.editing" ? rows.filter((r) => r.classList.has("editing")) : []),
    querySelector: (sel) => rows.find((r) => sel === `.row[data-seq="${r.dataset.seq}"]`) ?? null,
  };
  editing.sweep(root);
  assert.deepEqual([late.hidden, soon.hidden], [true, false]);
  assert.ok(editing.timer, "comes back when the next one's time is over");
  clearTimeout(editing.timer);
  // the row being edited is marked, and only it
  editing.editing(root, 1);
  assert.deepEqual(rows.map((r) => r.classList.has("editing")), [true, false]);
  editing.editing(root, null);
  assert.deepEqual(rows.map((r) => r.classList.has("editing")), [false, false]);
  clearTimeout(editing.timer);
  // one's own text in a conversation one left: no Edit
  client.serverSends("message", { conversationId: C, message: { ...text(1, ME), createdAt: now } });
  assert.equal(editing.until(C, store.transcript(C).messages[0]), now + EDIT_WINDOW_MS);
  store.update(["conversations"], (s) => ({ conversations: s.conversations.map((c) => ({ ...c, left: "left" })) }));
  assert.equal(editing.until(C, store.transcript(C).messages[0]), 0);
  const asked = client.requests.length;
  assert.equal(await editing.save(C, 1, "m1"), true);
  assert.equal(client.requests.length, asked, "nothing to save");
  const refused = editing.save(C, 1, "other words");
  client.requests.at(-1).reject(new ProtocolError({ code: "forbidden", message: "too late" }));
  assert.equal(await refused, false, "the box keeps the words");
  assert.match(said.at(-1), /15 minutes/);
});
