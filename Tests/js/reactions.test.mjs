// Tapbacks folded onto their bubbles (state/reactions.js, state/transcript.js), and
// what reactions are not: unread, the list's line or order, the end of "is typing",
// rows, news while the reader is far up.
import { test } from "node:test";
import assert from "node:assert/strict";
import { TAPBACKS, foldReactions, chipLabel } from "../../Public/js/state/reactions.js";
import {
  emptyTranscript, applyMessage, applyHistory, applyDeletion, addPending, transcriptRows, unreadCount, firstUnreadSeq, newerCursor,
} from "../../Public/js/state/transcript.js";
import { newestMessage } from "../../Public/js/state/previews.js";
import { touchConversation } from "../../Public/js/state/conversations.js";
import { messageProblem, outboundProblem } from "../../Public/js/net/frames.js";
import { Store } from "../../Public/js/store.js";
import { Sync, HOLD } from "../../Public/js/sync.js";
import { TypingNotices } from "../../Public/js/sync/typing.js";
import { ProtocolError } from "../../Public/js/net/client.js";
import { FakeClient } from "./fake-client.mjs";
import { installFakeStorage } from "./fake-storage.mjs";

const storage = installFakeStorage();
const ME = "uMe";
const ANA = "uAna";
const BEN = "uBen";
const LOVE = "\u2764\uFE0F";
const LIKE = "\u{1F44D}";
const LAUGH = "\u{1F602}";

const text = (seq, sender = BEN) => ({ seq, clientId: `t${seq}`, sender, createdAt: 1000 + seq, kind: "text", text: `m${seq}` });
const react = (seq, sender, to, emoji) => ({ seq, clientId: `r${seq}`, sender, createdAt: 1000 + seq, kind: "reaction", to, emoji });
const app = (seq, session, version) => ({ seq, clientId: `a${seq}`, sender: BEN, createdAt: 1000 + seq, kind: "app", appId: "x", url: `?v=${version}`, session: { id: session, version } });
const apply = (t, ...ms) => ms.reduce((u, m) => applyMessage(u, m, undefined, ME), t);
/** The chips on each drawn message, as "emoji:senders" lines. */
const chipsOf = (t) => Object.fromEntries(transcriptRows(t).filter((r) => r.type === "message" && r.reactions.length)
  .map((r) => [r.message.seq, r.reactions.map((c) => `${c.emoji}:${c.senders.join(",")}`)]));

test("the six are iMessage's, with U+FE0F in Love and Emphasize, and frames check them", () => {
  assert.deepEqual(TAPBACKS.map((t) => t.name), ["Love", "Like", "Dislike", "Laugh", "Emphasize", "Question"]);
  assert.deepEqual([...TAPBACKS[0].emoji].map((c) => c.codePointAt(0)), [0x2764, 0xfe0f]);
  assert.deepEqual([...TAPBACKS[4].emoji].map((c) => c.codePointAt(0)), [0x203c, 0xfe0f]);
  assert.equal(outboundProblem({ kind: "reaction", to: 3, emoji: LOVE }), null);
  assert.equal(outboundProblem({ kind: "reaction", to: 3, emoji: "" }), null);
  assert.equal(outboundProblem({ kind: "reaction", to: 3, emoji: "\u2764" }), "emoji");
  assert.equal(outboundProblem({ kind: "reaction", to: 0, emoji: LOVE }), "to");
  assert.equal(messageProblem(react(2, BEN, 1, LOVE)), null);
  assert.equal(messageProblem({ ...react(2, BEN, 1, LOVE), to: "1" }), "message.to");
});

test("each person's newest reaction to a message is theirs; an empty one takes it back", () => {
  let t = apply(emptyTranscript(), text(1), text(2, ANA));
  t = apply(t, react(3, ANA, 1, LOVE), react(4, BEN, 1, LOVE), react(5, ME, 1, LIKE), react(6, ANA, 1, LAUGH));
  assert.deepEqual(chipsOf(t), { 1: [`${LOVE}:${BEN}`, `${LIKE}:${ME}`, `${LAUGH}:${ANA}`] }, "Ana's laugh replaced her love");
  t = apply(t, react(7, ME, 1, ""));
  assert.deepEqual(chipsOf(t), { 1: [`${LOVE}:${BEN}`, `${LAUGH}:${ANA}`] });
  t = apply(t, react(8, ME, 1, LOVE), react(9, ANA, 2, LIKE));
  assert.deepEqual(chipsOf(t), { 1: [`${LOVE}:${BEN},${ME}`, `${LAUGH}:${ANA}`], 2: [`${LIKE}:${ANA}`] });
  // never rows of their own
  assert.deepEqual(transcriptRows(t).map((r) => r.message.seq), [1, 2]);
});

test("the chips' names say who: 'Love: Ana, Ben', 'Love: you and Ben'", () => {
  const nameOf = (id) => ({ [ANA]: "Ana", [BEN]: "Ben" })[id];
  const chip = (senders) => ({ emoji: LOVE, name: "Love", senders, pending: false });
  assert.equal(chipLabel(chip([ANA, BEN]), ME, nameOf), "Love: Ana, Ben");
  assert.equal(chipLabel(chip([BEN, ME]), ME, nameOf), "Love: you and Ben");
  assert.equal(chipLabel(chip([ME]), ME, nameOf), "Love: you");
  assert.equal(chipLabel(chip([ANA, ME, BEN]), ME, nameOf), "Love: you, Ana and Ben");
});

test("a reaction whose message is not loaded yet shows once a page of history brings it", () => {
  let t = apply(emptyTranscript(), text(40), react(41, ANA, 12, LOVE));
  assert.deepEqual(chipsOf(t), {});
  assert.deepEqual(transcriptRows(t).map((r) => r.message.seq), [40], "nor is it drawn on its own");
  t = applyHistory(t, [text(11), text(12), text(13)], false);
  assert.deepEqual(chipsOf(t), { 12: [`${LOVE}:${ANA}`] });
});

test("a deleted message, a superseded state and a reaction show no reactions", () => {
  let t = apply(emptyTranscript(), text(1), app(2, "s", 1), react(3, ANA, 1, LOVE), react(4, ANA, 2, LIKE), react(5, BEN, 3, LAUGH));
  assert.deepEqual(chipsOf(t), { 1: [`${LOVE}:${ANA}`], 2: [`${LIKE}:${ANA}`] }, "a reaction to a reaction is ignored");
  t = applyMessage(t, app(6, "s", 2), { seq: 2, summary: "Ben played x" }, ME);
  assert.deepEqual(chipsOf(t), { 1: [`${LOVE}:${ANA}`] }, "the reaction stays with the old state, which is a summary line");
  assert.equal(transcriptRows(t).find((r) => r.message?.seq === 2).type, "summary");
  t = applyDeletion(t, { seq: 7, deletes: 1, createdAt: 2000 });
  assert.deepEqual(chipsOf(t), {});
});

test("one's own reaction shows at once, before the server has it, and replaces one's stored one", () => {
  let t = apply(emptyTranscript(), text(1), react(2, ME, 1, LOVE), react(3, ANA, 1, LOVE));
  t = addPending(t, { clientId: "p1", sender: ME, createdAt: 5000, message: { kind: "reaction", to: 1, emoji: LIKE } });
  assert.deepEqual(chipsOf(t), { 1: [`${LOVE}:${ANA}`, `${LIKE}:${ME}`] });
  assert.equal(transcriptRows(t).find((r) => r.message?.seq === 1).reactions[1].pending, true);
  assert.ok(!transcriptRows(t).some((r) => r.type === "pending"), "no echo row for it");
  const keyBefore = transcriptRows(t)[0].reactionsKey;
  t = applyMessage(t, { ...react(4, ME, 1, LIKE), clientId: "p1" }, undefined, ME);
  assert.deepEqual(t.pending, []);
  assert.deepEqual(chipsOf(t), { 1: [`${LOVE}:${ANA}`, `${LIKE}:${ME}`] });
  assert.notEqual(transcriptRows(t)[0].reactionsKey, keyBefore, "the row is drawn again, no longer pending");
});

test("reactions are not unread, nor a sign of having read, nor the conversation's last message", () => {
  let t = apply(emptyTranscript(), text(1, ME), text(2, BEN), react(3, BEN, 1, LOVE));
  assert.equal(unreadCount(t, 1, ME), 1, "Ben's reaction to my message is not unread");
  assert.equal(firstUnreadSeq(t, 1, ME), 2);
  t = apply(t, react(4, ME, 2, LIKE));
  assert.equal(unreadCount(t, 1, ME), 1, "my reaction does not say I read what came before");
  assert.equal(newestMessage({ id: "c" }, t).seq, 2);
  assert.equal(newestMessage({ id: "c", lastMessage: text(2) }, apply(emptyTranscript(), react(9, BEN, 2, LOVE))).seq, 2);

  const list = [{ id: "a", lastMessage: text(5), lastSeq: 5 }, { id: "b", lastMessage: text(1), lastSeq: 1 }];
  const after = touchConversation(list, "b", react(6, BEN, 1, LOVE));
  assert.deepEqual(after.map((c) => c.id), ["a", "b"], "the list keeps its order");
  assert.equal(after[1].lastMessage.seq, 1, "and its line");
  assert.equal(after[1].lastSeq, 6);
});

test("a reaction does not end someone's 'is typing'", () => {
  const store = new Store();
  const client = new FakeClient();
  const messages = new EventTarget();
  const typing = new TypingNotices(client, store, messages);
  client.serverSends("typing", { conversationId: "c1", userId: BEN, typing: true });
  messages.dispatchEvent(new CustomEvent("message", { detail: { conversationId: "c1", message: react(3, BEN, 1, LOVE) } }));
  assert.deepEqual(Object.keys(store.state.typing.c1), [BEN]);
  messages.dispatchEvent(new CustomEvent("message", { detail: { conversationId: "c1", message: text(4) } }));
  assert.deepEqual(Object.keys(store.state.typing.c1 ?? {}), []);
  clearTimeout(typing.timer);
});

const C = "c1";
const tick = () => new Promise((r) => setImmediate(r));

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

test("a reaction goes through the outbox: shown at once, dropped if refused", async () => {
  const { store, client, sync } = signedIn();
  client.serverSends("message", { conversationId: C, message: text(1) });
  const sent = sync.send(C, { kind: "reaction", to: 1, emoji: LOVE });
  assert.deepEqual(chipsOf(store.transcript(C)), { 1: [`${LOVE}:${ME}`] }, "optimistic");
  assert.equal(store.outbox().length, 1, "kept, to be sent again after a reload or reconnect");
  const req = client.sends().at(-1);
  assert.deepEqual(req.fields.message, { kind: "reaction", to: 1, emoji: LOVE });
  req.reject(new ProtocolError({ code: "not_found", message: "no such message" }));
  await assert.rejects(sent, (e) => e.code === "not_found");
  assert.deepEqual(chipsOf(store.transcript(C)), {}, "refused: gone");
  assert.deepEqual(store.transcript(C).pending, [], "no failed echo with Retry");
  assert.equal(store.outbox().length, 0);
});

test("far up a long conversation, a reaction is still held (no row, not news) and paging newer starts before it", async () => {
  const { store, client, sync } = signedIn();
  let reader = null;
  sync.readingBack = (id) => id === C && reader !== null;
  sync.readerSeq = () => reader;
  for (let seq = 1; seq <= HOLD.max; seq++) client.serverSends("message", { conversationId: C, message: text(seq) });
  reader = 10;
  for (let seq = HOLD.max + 1; seq <= HOLD.max + 20; seq++) client.serverSends("message", { conversationId: C, message: text(seq) });
  let t = store.transcript(C);
  assert.equal(t.hasMoreAfter, true);
  const cursor = newerCursor(t);
  const newsBefore = t.heldBackNew;
  client.serverSends("message", { conversationId: C, message: react(HOLD.max + 21, BEN, 10, LOVE) });
  t = store.transcript(C);
  assert.deepEqual(chipsOf(t)[10], [`${LOVE}:${BEN}`], "shown on the message the reader looks at");
  assert.equal(t.heldBackNew, newsBefore, "not counted as a new message");
  assert.equal(newerCursor(t), cursor, "the newer page starts where it did");
  sync.loadNewer(C);
  assert.equal(client.requests.filter((r) => r.type === "history").at(-1).fields.afterSeq, cursor);
  await tick();
});
