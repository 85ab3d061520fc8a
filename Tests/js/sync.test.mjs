// Sync against a fake client: catching up after authentication, the outbox kept
// across a reload, participant maps (asked for by state, asked again when a
// member joins), senders' names in batches, and apps' storage.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Store } from "../../Public/js/store.js";
import { Sync, HOLD } from "../../Public/js/sync.js";
import { ProtocolError } from "../../Public/js/net/client.js";
import { FakeClient } from "./fake-client.mjs";
import { installFakeStorage } from "./fake-storage.mjs";

const storage = installFakeStorage();
const ME = { id: "uMe", name: "Me" };
const ANA = { userId: "uAna", name: "Ana" };
const BEN = { userId: "uBen", name: "Ben" };
const P_ME = "11111111-1111-4111-8111-111111111111";
const P_ANA = "22222222-2222-4222-8222-222222222222";
const P_BEN = "33333333-3333-4333-8333-333333333333";
const C = "c1";
const tick = () => new Promise((r) => setImmediate(r));
const asked = (client, type) => client.requests.filter((r) => r.type === type);

function setup() {
  storage.clear();
  const store = new Store();
  const client = new FakeClient();
  const sync = new Sync(client, store);
  return { store, client, sync };
}

/** Signed in, in conversation C with Ana, looking at it. */
function inConversation() {
  const s = setup();
  s.store.update(["user"], () => ({ user: ME }));
  s.store.update(["conversations"], () => ({ conversations: [{ id: C, title: "Games", lastSeq: 0, members: [{ userId: ME.id, name: ME.name }, ANA] }] }));
  s.store.update(["current"], () => ({ currentId: C }));
  return s;
}

const answerParticipants = (req, members) =>
  req.resolve({ local: P_ME, participants: members.map(([userId, participantId]) => ({ userId, participantId })) });

function appMessage(seq, caption, sender = ANA.userId) {
  return { seq, clientId: `k${seq}`, sender, createdAt: seq, kind: "app", appId: "wenderpic", url: "?w", live: false, layout: { caption } };
}

test("ready: the list in the server's order, a subscribe from the last seq held, 'ready' before the subscriptions end, then the outbox", async () => {
  const { store, client, sync } = setup();
  storage.setItem(`parlor.lastRead.${ME.id}`, JSON.stringify({ c2: 4 }));
  let ready = null;
  sync.addEventListener("ready", (e) => (ready = e.detail));
  client.serverSends("ready", { user: ME, installedApps: ["wenderpic"], token: "t" });
  assert.deepEqual(store.state.user, ME);
  const list = asked(client, "conversations.list")[0];
  list.resolve({ conversations: [{ id: "c2", title: "B", lastSeq: 9, members: [] }, { id: C, title: "A", lastSeq: 1, members: [] }] });
  await tick();
  assert.deepEqual(store.state.conversations.map((c) => c.id), ["c2", C]);
  assert.deepEqual(ready, { first: true }, "ready once listed, while subscribing");
  assert.deepEqual(asked(client, "subscribe").map((r) => r.fields), [{ conversationId: "c2", afterSeq: 4 }, { conversationId: C, afterSeq: 0 }]);
  assert.equal(store.transcript("c2").hasMoreBefore, true, "what came before the read mark is left to history");
});

test("the outbox is read once when the user signs in, kept in memory, written through, and echoed as Sending…", async () => {
  const { store, client } = setup();
  const item = { clientId: "kept1", conversationId: C, message: { kind: "text", text: "sent before the reload" }, createdAt: 5 };
  storage.setItem(`parlor.outbox.${ME.id}`, JSON.stringify([item]));
  client.serverSends("ready", { user: ME, installedApps: [], token: "t" });
  const reads = storage.reads;
  assert.deepEqual(store.outbox(), [item]);
  store.outbox();
  assert.equal(storage.reads, reads, "not read again");
  assert.deepEqual(store.transcript(C).pending.map((p) => [p.clientId, p.status]), [["kept1", "sending"]]);

  asked(client, "conversations.list")[0].resolve({ conversations: [] });
  await tick();
  await tick();
  const send = client.sends()[0];
  assert.equal(send.fields.clientId, "kept1", "sent again with the same client id");
  send.resolve({ message: { seq: 3, clientId: "kept1", sender: ME.id, createdAt: 5, kind: "text", text: "sent before the reload" } });
  await tick();
  assert.deepEqual(store.outbox(), []);
  assert.equal(storage.m.get(`parlor.outbox.${ME.id}`), "[]", "written through");
  assert.equal(store.transcript(C).pending.length, 0);
});

test("a caption naming a participant gets its map asked for by the state changing, not by drawing", async () => {
  const { store, client } = inConversation();
  client.serverSends("message", { conversationId: C, message: appMessage(1, "a plain caption") });
  assert.equal(asked(client, "participants").length, 0, "nothing to name");
  client.serverSends("message", { conversationId: C, message: appMessage(2, `$${P_ANA} drew`) });
  client.serverSends("message", { conversationId: C, message: appMessage(3, `$${P_ANA} drew again`) });
  assert.deepEqual(asked(client, "participants").map((r) => r.fields), [{ conversationId: C, appId: "wenderpic" }], "once");
  answerParticipants(asked(client, "participants")[0], [[ME.id, P_ME], [ANA.userId, P_ANA]]);
  await tick();
  assert.equal(store.state.participants[`${C}|wenderpic`].toUser.get(P_ANA), ANA.userId);
});

test("a member who joined later: the participant map is asked for again, so their identifier gets a name", async () => {
  const { store, client, sync } = inConversation();
  const first = sync.participants(C, "wenderpic");
  answerParticipants(asked(client, "participants")[0], [[ME.id, P_ME], [ANA.userId, P_ANA]]);
  await first;
  assert.equal(store.state.participants[`${C}|wenderpic`].toUser.get(P_BEN), undefined);

  client.serverSends("member", { conversationId: C, member: BEN });
  assert.equal(asked(client, "participants").length, 2, "asked again when Ben joined");
  assert.equal(store.state.participants[`${C}|wenderpic`].toUser.get(P_ANA), ANA.userId, "the old map serves meanwhile");
  const joined = sync.participants(C, "wenderpic"); // the pane asks after the member event: it gets the new map
  answerParticipants(asked(client, "participants")[1], [[ME.id, P_ME], [ANA.userId, P_ANA], [BEN.userId, P_BEN]]);
  assert.equal((await joined).toUser.get(P_BEN), BEN.userId);
  assert.equal(store.state.participants[`${C}|wenderpic`].toUser.get(P_BEN), BEN.userId);

  client.serverSends("member", { conversationId: C, member: { ...ANA, name: "Ana B." } });
  assert.equal(asked(client, "participants").length, 2, "a rename of someone the map knows asks nothing");
});

test("a map on its way when a member joins is stale: the newer answer is the one kept", async () => {
  const { store, client, sync } = inConversation();
  const old = sync.participants(C, "wenderpic");
  client.serverSends("member", { conversationId: C, member: BEN });
  const [before, after] = asked(client, "participants");
  answerParticipants(after, [[ME.id, P_ME], [ANA.userId, P_ANA], [BEN.userId, P_BEN]]);
  await tick();
  answerParticipants(before, [[ME.id, P_ME], [ANA.userId, P_ANA]]);
  assert.equal((await old).toUser.get(P_BEN), BEN.userId, "the stale request's caller gets the new map");
  assert.equal(store.state.participants[`${C}|wenderpic`].toUser.get(P_BEN), BEN.userId);
});

test("senders beyond the member list are looked up in one batch, and again if that failed", async () => {
  const { store, client } = inConversation();
  const text = (seq, sender) => ({ seq, clientId: `k${seq}`, sender, createdAt: seq, kind: "text", text: "hi" });
  client.serverSends("message", { conversationId: C, message: text(1, "uZoe") });
  client.serverSends("message", { conversationId: C, message: text(2, "uYan") });
  client.serverSends("message", { conversationId: C, message: text(3, "uZoe") });
  client.serverSends("message", { conversationId: C, message: text(4, ANA.userId) });
  await tick();
  assert.deepEqual(asked(client, "members").map((r) => r.fields), [{ conversationId: C, userIds: ["uZoe", "uYan"] }]);
  asked(client, "members")[0].reject(new ProtocolError({ code: "timeout", message: "slow" }));
  await tick();
  client.serverSends("message", { conversationId: C, message: text(5, "uZoe") });
  await tick();
  const again = asked(client, "members")[1];
  assert.deepEqual(again.fields.userIds, ["uZoe"]);
  again.resolve({ members: [{ userId: "uZoe", name: "Zoe" }] });
  await tick();
  assert.equal(store.memberName(C, "uZoe"), "Zoe");
  client.serverSends("message", { conversationId: C, message: text(6, "uZoe") });
  await tick();
  assert.equal(asked(client, "members").length, 2, "known now");

  // someone who left: named on what they sent, not listed as a member, asked once
  client.serverSends("message", { conversationId: C, message: text(7, "uXia") });
  await tick();
  asked(client, "members")[2].resolve({ members: [], formerMembers: [{ userId: "uXia", name: "Xia" }] });
  await tick();
  assert.equal(store.memberName(C, "uXia"), "Xia");
  assert.ok(!store.conversation(C).members.some((m) => m.userId === "uXia"));
  client.serverSends("message", { conversationId: C, message: text(8, "uXia") });
  await tick();
  assert.equal(asked(client, "members").length, 3);
});

test("app storage: asked once, then held; a write updates it; offline reads the copy this browser kept", async () => {
  const { store, client, sync } = inConversation();
  const a = sync.appData("icecream");
  const b = sync.appData("icecream");
  assert.equal(asked(client, "appdata.get").length, 1);
  asked(client, "appdata.get")[0].resolve({ data: { history: [1] } });
  assert.deepEqual(await a, { history: [1] });
  assert.deepEqual(await b, { history: [1] });
  assert.deepEqual(await sync.appData("icecream"), { history: [1] });
  assert.equal(asked(client, "appdata.get").length, 1, "held");

  const written = sync.setAppData("icecream", "recent", "cone");
  asked(client, "appdata.set")[0].resolve({});
  await written;
  assert.deepEqual(store.state.appData.icecream, { history: [1], recent: "cone" });

  const offline = sync.appData("wenderpic");
  storage.setItem(`parlor.appdata.${ME.id}.wenderpic`, JSON.stringify({ drafts: "x" }));
  asked(client, "appdata.get")[1].reject(new ProtocolError({ code: "offline", message: "not connected" }));
  assert.deepEqual(await offline, { drafts: "x" });
  assert.equal(store.state.appData.wenderpic, undefined, "asked again when back online");
});

test("app storage: one write per key at a time; values set meanwhile are sent once, the latest", async () => {
  const { store, client, sync } = inConversation();
  sync.appData("wenderpic");
  asked(client, "appdata.get")[0].resolve({ data: {} });
  await tick();
  const first = sync.setAppData("wenderpic", "drafts", "a");
  const typed = ["ab", "abc", "abcd"].map((v) => sync.setAppData("wenderpic", "drafts", v));
  const other = sync.setAppData("wenderpic", "words", "w");
  await tick();
  assert.deepEqual(asked(client, "appdata.set").map((r) => r.fields.value), ["a", "w"], "one per key on its way");
  asked(client, "appdata.set")[0].resolve({});
  asked(client, "appdata.set")[1].resolve({});
  await first;
  await other;
  await tick();
  assert.deepEqual(asked(client, "appdata.set").map((r) => r.fields.value), ["a", "w", "abcd"], "the latest, once");
  asked(client, "appdata.set")[2].resolve({});
  await Promise.all(typed);
  assert.deepEqual(store.state.appData.wenderpic, { drafts: "abcd", words: "w" });
  const later = sync.setAppData("wenderpic", "drafts", "z");
  await tick();
  assert.equal(asked(client, "appdata.set").length, 4, "idle again: written at once");
  asked(client, "appdata.set")[3].resolve({});
  await later;
});

test("a message whose image is being uploaded goes first: the text sent with it waits, then follows", async () => {
  const { store, client, sync } = inConversation();
  sync.images.forUser(ME.id);
  let finishUpload;
  const uploads = [];
  sync.outbox.upload = (blob) => {
    uploads.push(blob);
    return new Promise((resolve) => { finishUpload = resolve; });
  };
  const move = { kind: "app", appId: "wenderpic", url: "?w=cat", live: false, layout: { caption: "Guess my WenderPic!" } };
  const drawing = new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" });
  const sentMove = sync.send(C, move, { image: drawing });
  const sentText = sync.send(C, { kind: "text", text: "my drawing!" });
  await tick();
  assert.equal(uploads.length, 1);
  assert.equal(client.sends().length, 0, "the text waits for the drawing");
  assert.deepEqual(store.transcript(C).pending.map((p) => p.message.kind), ["app", "text"], "both shown as Sending…");

  finishUpload("ab".repeat(32));
  await tick();
  await tick();
  const [first] = client.sends();
  assert.equal(first.fields.message.kind, "app");
  assert.equal(first.fields.message.layout.image, "ab".repeat(32), "the hash in the message");
  assert.equal(store.outbox()[0].imageKey, undefined, "kept with its hash from now on");
  const echo = store.transcript(C).pending[0];
  assert.ok(echo.imageKey && sync.images.url(echo.imageKey), "its echo still shows this browser's copy, not a download");
  first.resolve({ message: { seq: 1, clientId: first.fields.clientId, sender: ME.id, createdAt: 1, ...first.fields.message } });
  await tick();
  await tick();
  assert.equal(sync.images.url(echo.imageKey), null, "stored: the copy is let go");
  const second = client.sends()[1];
  assert.equal(second.fields.message.text, "my drawing!", "then the text");
  second.resolve({ message: { seq: 2, clientId: second.fields.clientId, sender: ME.id, createdAt: 2, ...second.fields.message } });
  await Promise.all([sentMove, sentText]);
  assert.deepEqual(store.outbox(), []);
});

test("a text stays behind a drawing whose upload failed and is tried again, whatever flushes the outbox", async () => {
  const { store, client, sync } = inConversation();
  sync.images.forUser(ME.id);
  const attempts = [];
  sync.outbox.upload = () => new Promise((resolve, reject) => attempts.push({ resolve, reject }));
  sync.outbox.random = () => 0; // the shortest retry
  const move = { kind: "app", appId: "wenderpic", url: "?w=cat", live: false, layout: { caption: "Guess my WenderPic!" } };
  sync.send(C, move, { image: new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" }) });
  sync.send(C, { kind: "text", text: "what is it?" });
  await tick();
  attempts[0].reject(Object.assign(new Error("proxy error"), { code: "unreachable" })); // online: retried later
  await tick();
  const flushed = sync.flushOutbox(); // a reconnect's flush: the drawing's upload fails again
  await tick();
  assert.equal(attempts.length, 2, "the flush tried the drawing again");
  attempts[1].reject(Object.assign(new Error("proxy error"), { code: "unreachable" }));
  await flushed;
  await tick();
  assert.equal(client.sends().length, 0, "the text did not overtake the drawing");
  // the retry's upload goes through: the drawing, then the text
  const deadline = Date.now() + 10_000;
  while (attempts.length < 3) {
    assert.ok(Date.now() < deadline, "the upload was not tried again");
    await new Promise((r) => setTimeout(r, 20));
  }
  attempts[2].resolve("cd".repeat(32));
  await tick();
  await tick();
  assert.equal(client.sends()[0].fields.message.kind, "app");
  client.sends()[0].resolve({ message: { seq: 1, clientId: client.sends()[0].fields.clientId, sender: ME.id, createdAt: 1, ...client.sends()[0].fields.message } });
  await tick();
  await tick();
  assert.equal(client.sends()[1].fields.message.text, "what is it?");
  client.sends()[1].resolve({ message: { seq: 2, clientId: client.sends()[1].fields.clientId, sender: ME.id, createdAt: 2, ...client.sends()[1].fields.message } });
});

test("a busy conversation holds its newest messages, not all: the oldest go, unless the reader is up among them, and come back by history", async () => {
  const { store, client, sync } = inConversation();
  let reading = false;
  sync.readingBack = (id) => id === C && reading;
  const text = (seq) => ({ seq, clientId: `t${seq}`, sender: ANA.userId, createdAt: seq, kind: "text", text: `m${seq}` });
  const arrive = (from, to) => {
    for (let seq = from; seq <= to; seq++) client.serverSends("message", { conversationId: C, message: text(seq) });
  };
  arrive(1, HOLD.max);
  assert.equal(store.transcript(C).messages.length, HOLD.max, "up to the bound, all kept");
  arrive(HOLD.max + 1, HOLD.max + 1);
  let t = store.transcript(C);
  assert.equal(t.messages.length, HOLD.keep);
  assert.equal(t.messages.at(-1).seq, HOLD.max + 1, "the newest kept");
  assert.equal(t.hasMoreBefore, true, "the rest is history to page");

  // scrolled up: nothing is let go under the reader
  reading = true;
  arrive(HOLD.max + 2, 2 * HOLD.max);
  assert.equal(store.transcript(C).messages.length, 2 * HOLD.max - HOLD.max - 1 + HOLD.keep);
  // back at the bottom, the next message lets the old ones go
  reading = false;
  arrive(2 * HOLD.max + 1, 2 * HOLD.max + 1);
  t = store.transcript(C);
  assert.equal(t.messages.length, HOLD.keep);

  // "Show earlier messages" pages from the oldest held
  sync.loadOlder(C);
  assert.deepEqual(asked(client, "history").at(-1).fields, { conversationId: C, beforeSeq: t.messages[0].seq, limit: 50 });

  // pages read and then left behind for another conversation are let go too
  asked(client, "history").at(-1).resolve({ messages: Array.from({ length: 50 }, (_, i) => text(t.messages[0].seq - 50 + i)), hasMore: true });
  await tick();
  assert.equal(store.transcript(C).messages.length, HOLD.keep + 50);
  sync.letGoOlder(C);
  assert.equal(store.transcript(C).messages.length, HOLD.keep);
});

test("a reader far up stops getting rows below them: what arrives is held back, counted, paged in forward, or left for the newest", async () => {
  const { store, client, sync } = inConversation();
  let reader = null;
  sync.readingBack = (id) => id === C && reader !== null;
  sync.readerSeq = () => reader;
  const text = (seq, sender = ANA.userId) => ({ seq, clientId: `t${seq}`, sender, createdAt: seq, kind: "text", text: `m${seq}` });
  const arrive = (from, to) => {
    for (let seq = from; seq <= to; seq++) client.serverSends("message", { conversationId: C, message: text(seq) });
  };
  arrive(1, HOLD.max);
  // reading message 10: 240 rows below, so ten more are drawn, then the rest held back
  reader = 10;
  arrive(HOLD.max + 1, HOLD.max + 20);
  let t = store.transcript(C);
  assert.equal(t.messages.length, HOLD.max + 10, "held up to the bound below the reader");
  assert.equal(t.hasMoreAfter, true);
  assert.equal(t.heldBackNew, 10, "each counted for the pill");
  assert.equal(t.lastSeq, HOLD.max + 20, "a resume starts after what was held back");
  // come down to the bottom of what is held: what arrives now is still held back (no gap)
  reader = null;
  arrive(HOLD.max + 21, HOLD.max + 21);
  assert.equal(store.transcript(C).messages.length, HOLD.max + 10);
  // "Show newer messages": a page after the newest held
  sync.loadNewer(C);
  const req = asked(client, "history").at(-1);
  assert.deepEqual(req.fields, { conversationId: C, afterSeq: HOLD.max + 10, limit: 50 });
  req.resolve({ messages: Array.from({ length: 11 }, (_, i) => text(HOLD.max + 11 + i)), hasMore: false });
  await tick();
  t = store.transcript(C);
  assert.deepEqual(t.messages.map((m) => m.seq), Array.from({ length: HOLD.max + 21 }, (_, i) => i + 1), "each once, in order");
  assert.equal(t.hasMoreAfter, false, "the newest held again: new ones are drawn");
  assert.equal(t.heldBackNew, 0, "none held back for the pill to count");
  arrive(HOLD.max + 22, HOLD.max + 22);
  assert.equal(store.transcript(C).messages.at(-1).seq, HOLD.max + 22);

  assert.equal(store.transcript(C).messages.length, HOLD.keep, "at the bottom, the oldest were let go");

  // a page read before a message arrived from elsewhere says nothing of it: still held back
  reader = store.transcript(C).messages[0].seq;
  const first = HOLD.max + 23;
  const heldFrom = first + (HOLD.max - HOLD.keep + 1);
  arrive(first, heldFrom + 1);
  t = store.transcript(C);
  assert.equal(t.messages.at(-1).seq, heldFrom - 1);
  assert.equal(t.hasMoreAfter, true);
  assert.equal(t.heldBackNew, 2);
  sync.loadNewer(C);
  asked(client, "history").at(-1).resolve({ messages: [text(heldFrom)], hasMore: false });
  await tick();
  assert.equal(store.transcript(C).hasMoreAfter, true, "the last one is yet to come");
  assert.equal(store.transcript(C).heldBackNew, 1, "the one paged in is drawn: the pill counts it there");

  // the pill, or Send: the newest, letting go of what is held; a page of the newest is asked
  sync.jumpToNewest(C);
  t = store.transcript(C);
  assert.equal(t.messages.length, 0);
  assert.equal(t.hasMoreAfter, undefined);
  assert.deepEqual(asked(client, "history").at(-1).fields, { conversationId: C, beforeSeq: heldFrom + 2, limit: 50 });
});

test("this tab's own message, stored while newer ones are held back, is shown at the newest", async () => {
  const { store, client, sync } = inConversation();
  const reader = 1;
  sync.readingBack = (id) => id === C;
  sync.readerSeq = () => reader;
  for (let seq = 1; seq <= HOLD.max + 2; seq++) {
    client.serverSends("message", { conversationId: C, message: { seq, clientId: `t${seq}`, sender: ANA.userId, createdAt: seq, kind: "text", text: "x" } });
  }
  assert.equal(store.transcript(C).hasMoreAfter, true);
  sync.send(C, { kind: "text", text: "mine" }, { clientId: "k1", sender: ME.id, createdAt: 9 }).catch(() => {});
  await tick();
  const send = client.sends().at(-1);
  send.resolve({ message: { seq: HOLD.max + 3, clientId: send.fields.clientId, sender: ME.id, createdAt: 9, kind: "text", text: "mine" } });
  await tick();
  const t = store.transcript(C);
  assert.equal(t.hasMoreAfter, undefined, "started over at the newest");
  assert.deepEqual(t.messages.map((m) => m.text), ["mine"], "shown, its page of the newest on its way");
  assert.equal(asked(client, "history").at(-1).fields.beforeSeq, HOLD.max + 3, "the page before it");
});

test("the open conversation's last page is asked once, and asked again after a reconnect when the connection dropped with it on its way", async () => {
  const { store, client, sync } = setup();
  storage.setItem(`parlor.lastRead.${ME.id}`, JSON.stringify({ [C]: 20 }));
  const conversations = [{ id: C, title: "A", lastSeq: 20, members: [] }];
  sync.addEventListener("ready", () => {
    // what opening it does (main.js); after a reconnect it is open already, and opened no more
    if (store.state.currentId === C) return;
    store.update(["current"], () => ({ currentId: C }));
    sync.loadOlder(C).catch(() => {});
  });
  client.serverSends("ready", { user: ME, installedApps: [], token: "t" });
  asked(client, "conversations.list")[0].resolve({ conversations });
  await tick();
  asked(client, "subscribe")[0].resolve({ conversation: conversations[0], lastSeq: 20 });
  await tick();
  assert.equal(asked(client, "history").length, 1, "opening it and its subscription ask for one page between them");
  assert.equal(asked(client, "history")[0].fields.beforeSeq, 21, "the page before the read mark");

  // the connection drops with the page on its way: nothing is shown
  client.setStatus("offline");
  asked(client, "history")[0].reject(new ProtocolError({ code: "offline", message: "not connected" }));
  await tick();
  assert.equal(store.transcript(C).messages.length, 0);

  // signed in again: the page is asked for again, and shown
  client.setStatus("online");
  client.serverSends("ready", { user: ME, installedApps: [], token: "t" });
  asked(client, "conversations.list")[1].resolve({ conversations });
  await tick();
  asked(client, "subscribe")[1].resolve({ conversation: conversations[0], lastSeq: 20 });
  await tick();
  const again = asked(client, "history");
  assert.equal(again.length, 2, "asked again once subscribed");
  again[1].resolve({ messages: [{ seq: 20, clientId: "x", sender: ANA.userId, createdAt: 20, kind: "text", text: "hi" }], hasMore: true });
  await tick();
  assert.deepEqual(store.transcript(C).messages.map((m) => m.seq), [20]);
});

test("a page of history names its senders beyond the member list, as live messages do", async () => {
  const { store, client, sync } = inConversation();
  store.setTranscript(C, { ...store.transcript(C), lastSeq: 1, hasMoreBefore: true });
  sync.loadOlder(C);
  asked(client, "history")[0].resolve({ messages: [{ seq: 1, clientId: "h1", sender: "uXia", createdAt: 1, kind: "text", text: "bye all" }], hasMore: false });
  await tick();
  await tick();
  const ask = asked(client, "members")[0];
  assert.deepEqual(ask.fields, { conversationId: C, userIds: ["uXia"] });
  ask.resolve({ members: [], formerMembers: [{ userId: "uXia", name: "Xia" }] });
  await tick();
  assert.equal(store.memberName(C, "uXia"), "Xia");
});

test("after a reload, the conversation in the address is subscribed first and its last page asked right after, before the others", async () => {
  const { client, sync } = setup();
  storage.setItem(`parlor.lastRead.${ME.id}`, JSON.stringify({ c3: 9 }));
  sync.showingFirst = () => "c3";
  client.serverSends("ready", { user: ME, installedApps: [], token: "t" });
  asked(client, "conversations.list")[0].resolve({ conversations: ["c1", "c2", "c3", "c4"].map((id) => ({ id, title: id, lastSeq: 9, members: [] })) });
  await tick();
  const order = client.requests.filter((r) => r.type === "subscribe" || r.type === "history").map((r) => `${r.type}:${r.fields.conversationId}`);
  assert.deepEqual(order, ["subscribe:c3", "history:c3", "subscribe:c1", "subscribe:c2", "subscribe:c4"]);
});

test("on a reconnect the shown conversation's subscription goes with the sign-in and its answer is taken, not asked again", async () => {
  const { store, client, sync } = setup();
  const msg = (seq) => ({ seq, clientId: `k${seq}`, sender: ANA.userId, createdAt: seq, kind: "text", text: `m${seq}` });
  sync.showingFirst = () => "c3";
  // a first sign-in: no token, so no account whose read marks were kept
  assert.deepEqual(sync.resume.withSignIn(), []);
  client.serverSends("ready", { user: ME, installedApps: [], token: "t" });
  const conv = (id) => ({ id, title: id, lastSeq: 7, members: [] });
  asked(client, "conversations.list")[0].resolve({ conversations: [conv("c1"), conv("c3")] });
  await tick();
  for (const r of asked(client, "subscribe")) r.resolve({ conversation: conv(r.fields.conversationId), lastSeq: 7, resync: false });
  store.setTranscript("c3", { ...store.transcript("c3"), messages: [msg(6), msg(7)], lastSeq: 7, loaded: true });
  await tick();

  // the connection drops; at the next sign-in the shown conversation goes with it, from what is held
  assert.deepEqual(sync.resume.withSignIn(), [["subscribe", { conversationId: "c3", afterSeq: 7, afterClientId: "k7" }]]);
  const before = asked(client, "subscribe").length;
  const early = { conversation: conv("c3"), lastSeq: 9, resync: false };
  const taken = [];
  client.signInAnswer = (type, fields) => {
    taken.push([type, fields]);
    return type === "subscribe" && fields.conversationId === "c3" && fields.afterSeq === 7 ? Promise.resolve(early) : null;
  };
  client.serverSends("ready", { user: ME, installedApps: [], token: "t" });
  asked(client, "conversations.list")[1].resolve({ conversations: [conv("c1"), conv("c3")] });
  await tick();
  const again = asked(client, "subscribe").slice(before).map((r) => r.fields.conversationId);
  assert.deepEqual(again, ["c1"], "c3's answer came with the sign-in; only the others are asked");
  assert.ok(taken.some(([t, f]) => t === "subscribe" && f.conversationId === "c3"));
});

test("on a reload the shown conversation's subscription, from the read mark kept for the token's account, and the page before it go with the sign-in; their answers are taken, not asked again", async () => {
  const { store, client, sync } = setup();
  const msg = (seq) => ({ seq, clientId: `k${seq}`, sender: ANA.userId, createdAt: seq, kind: "text", text: `m${seq}` });
  // signed in before this page: the token, whose it is, and the marks read there
  store.token = "t";
  store.keepAccount(ME.id);
  storage.setItem(`parlor.lastRead.${ME.id}`, JSON.stringify({ c3: 60 }));
  sync.showingFirst = () => "c3";
  const early = sync.resume.withSignIn();
  assert.deepEqual(early, [
    ["subscribe", { conversationId: "c3", afterSeq: 60 }],
    ["history", { conversationId: "c3", beforeSeq: 61, limit: 50 }],
  ]);
  const conv = (id) => ({ id, title: id, lastSeq: 62, members: [] });
  const answers = new Map([
    [`subscribe ${JSON.stringify(early[0][1])}`, { conversation: conv("c3"), lastSeq: 62, resync: false }],
    [`history ${JSON.stringify(early[1][1])}`, { messages: [msg(59), msg(60)], hasMore: true }],
  ]);
  client.signInAnswer = (type, fields) => {
    const key = `${type} ${JSON.stringify(fields)}`;
    const answer = answers.get(key);
    answers.delete(key);
    return answer ? Promise.resolve(answer) : null;
  };
  client.serverSends("ready", { user: ME, installedApps: [], token: "t" });
  store.update(["current"], () => ({ currentId: "c3" }));
  asked(client, "conversations.list")[0].resolve({ conversations: [conv("c1"), conv("c3")] });
  await tick();
  await tick();
  assert.equal(answers.size, 0, "both answers that came with the sign-in were taken");
  assert.deepEqual(asked(client, "subscribe").map((r) => r.fields.conversationId), ["c1"], "only the others are asked");
  assert.deepEqual(asked(client, "history"), []);
  assert.deepEqual(store.transcript("c3").messages.map((m) => m.seq), [59, 60]);

  // signed out: the token goes, and whose it was with it; the next page sends nothing early
  store.token = null;
  assert.equal(storage.getItem(`parlor.lastRead.${ME.id}`) !== null, true, "(the marks themselves go with forgetUser)");
  const next = new Sync(new FakeClient(), new Store());
  next.resume.showingFirst = () => "c3";
  assert.equal(next.store.keptMarks(), null);
  assert.deepEqual(next.resume.withSignIn(), []);
});

test("a page asked for before the transcript started over (resync) or let pages go is dropped, not put in with a gap", async () => {
  const { store, client, sync } = setup();
  const msg = (seq) => ({ seq, clientId: `k${seq}`, sender: ANA.userId, createdAt: seq, kind: "text", text: `m${seq}` });
  const page = (from, n) => Array.from({ length: n }, (_, i) => msg(from + i));
  // a reload into a conversation read up to 100, now 1,000 messages further on
  storage.setItem(`parlor.lastRead.${ME.id}`, JSON.stringify({ c3: 100 }));
  sync.showingFirst = () => "c3";
  client.serverSends("ready", { user: ME, installedApps: [], token: "t" });
  const conv = { id: "c3", title: "c3", lastSeq: 1100, members: [] };
  asked(client, "conversations.list")[0].resolve({ conversations: [conv] });
  await tick();
  store.update(["current"], () => ({ currentId: "c3" }));
  const early = asked(client, "history")[0];
  assert.equal(early.fields.beforeSeq, 101);
  asked(client, "subscribe")[0].resolve({ conversation: conv, lastSeq: 1100, resync: true });
  await tick();
  const fresh = asked(client, "history")[1];
  assert.equal(fresh?.fields.beforeSeq, 1101, "the newest page is asked for anew");
  early.resolve({ messages: page(51, 50), hasMore: true });
  await tick();
  fresh.resolve({ messages: page(1051, 50), hasMore: true });
  await tick();
  let seqs = store.transcript("c3").messages.map((m) => m.seq);
  assert.deepEqual([seqs[0], seqs.at(-1), seqs.length], [1051, 1100, 50], "the newest page, without the stale one");

  // a page on its way when the conversation is left (its older pages let go): dropped
  store.setTranscript("c3", { ...store.transcript("c3"), messages: page(801, 300) });
  const loading = sync.loadOlder("c3");
  const late = asked(client, "history").at(-1);
  sync.letGoOlder("c3");
  late.resolve({ messages: page(751, 50), hasMore: true });
  await loading;
  seqs = store.transcript("c3").messages.map((m) => m.seq);
  assert.ok(seqs.every((s, i) => i === 0 || s === seqs[i - 1] + 1), `no gap: ${seqs[0]}..${seqs.at(-1)}`);
});

test("a subscribe names the message held at afterSeq, so a server restored from a backup can tell that history went another way", async () => {
  const { store, client, sync } = setup();
  const conversations = [{ id: C, title: "A", lastSeq: 2, members: [] }];
  client.serverSends("ready", { user: ME, installedApps: [], token: "t" });
  asked(client, "conversations.list")[0].resolve({ conversations });
  await tick();
  asked(client, "subscribe")[0].resolve({ conversation: conversations[0], lastSeq: 2 });
  client.serverSends("message", { conversationId: C, message: { seq: 1, clientId: "k1", sender: ANA.userId, createdAt: 1, kind: "text", text: "a" } });
  client.serverSends("message", { conversationId: C, message: { seq: 2, clientId: "k2", sender: ANA.userId, createdAt: 2, kind: "text", text: "b" } });
  await tick();

  client.setStatus("offline");
  client.setStatus("online");
  client.serverSends("ready", { user: ME, installedApps: [], token: "t" });
  asked(client, "conversations.list")[1].resolve({ conversations });
  await tick();
  assert.deepEqual(asked(client, "subscribe")[1].fields, { conversationId: C, afterSeq: 2, afterClientId: "k2" });
  // the server's seq 2 is another message: it answers resync, and the page starts over
  asked(client, "subscribe")[1].resolve({ conversation: conversations[0], lastSeq: 3, resync: true });
  await tick();
  assert.deepEqual(store.transcript(C).messages, [], "the lost messages are not kept");
});

test("app storage: a write made offline is kept here, read back, and sent once signed in again; one refused for good is dropped", async () => {
  const { store, client, sync } = inConversation();
  sync.appData("wenderpic");
  asked(client, "appdata.get")[0].resolve({ data: { words: "w" } });
  await tick();
  client.setStatus("offline");
  const saved = sync.setAppData("wenderpic", "drafts", "lines");
  await tick();
  asked(client, "appdata.set")[0].reject(new ProtocolError({ code: "offline", message: "not connected" }));
  await saved; // the app is not told it failed: it is kept
  assert.deepEqual(store.state.appData.wenderpic, { words: "w", drafts: "lines" });
  assert.deepEqual(JSON.parse(storage.getItem(`parlor.appdata.${ME.id}.wenderpic`)), { words: "w", drafts: "lines" });

  // a reload: the server's copy is asked for again, and the pending write wins over it
  store.update(["appData"], () => ({ appData: {} }));
  const read = sync.appData("wenderpic");
  asked(client, "appdata.get")[1].resolve({ data: { words: "w" } });
  assert.deepEqual(await read, { words: "w", drafts: "lines" });

  // signed in again: sent, and no longer pending
  client.setStatus("online");
  sync.storage.flushPending();
  await tick();
  const sent = asked(client, "appdata.set")[1];
  assert.deepEqual(sent.fields, { appId: "wenderpic", key: "drafts", value: "lines" });
  sent.resolve({});
  await tick();
  assert.deepEqual(store.pendingAppData(), []);

  // refused for good when sent: dropped, not sent at every sign-in
  store.savePendingAppData([{ appId: "wenderpic", key: "huge", value: "x" }]);
  const warn = console.warn;
  console.warn = () => {};
  try {
    const flushed = sync.storage.flushPending();
    await tick();
    asked(client, "appdata.set")[2].reject(new ProtocolError({ code: "too_long", message: "too long" }));
    await flushed;
  } finally {
    console.warn = warn;
  }
  assert.deepEqual(store.pendingAppData(), []);
});

test("app storage keeps values as JSON at once, as they read back after a reload", async () => {
  const { store, client, sync } = inConversation();
  sync.appData("quiz");
  asked(client, "appdata.get")[0].resolve({ data: {} });
  await tick();
  const written = sync.setAppData("quiz", "k", { d: new Date(0), n: NaN, u: undefined, m: new Map([[1, 2]]) });
  await tick();
  const sent = asked(client, "appdata.set")[0];
  assert.deepEqual(sent.fields.value, { d: "1970-01-01T00:00:00.000Z", n: null, m: {} });
  sent.resolve({});
  await written;
  assert.deepEqual(store.state.appData.quiz, { k: { d: "1970-01-01T00:00:00.000Z", n: null, m: {} } });
});

test("app storage follows writes made on another device; this page's own write on its way or waiting wins over an echo", async () => {
  const { store, client, sync } = inConversation();
  const told = [];
  sync.addEventListener("appdata", (e) => told.push(e.detail));
  sync.appData("iconstore");
  asked(client, "appdata.get")[0].resolve({ data: { owned: ["cat"] } });
  await tick();
  // bought on the laptop: the phone's held copy follows, and the open app is told
  client.serverSends("appdata", { type: "appdata", appId: "iconstore", key: "owned", value: ["cat", "dog"] });
  assert.deepEqual(store.state.appData.iconstore, { owned: ["cat", "dog"] });
  assert.deepEqual(await sync.appData("iconstore"), { owned: ["cat", "dog"] }, "what the app reads now");
  assert.deepEqual(told, [{ appId: "iconstore", key: "owned", value: ["cat", "dog"] }]);
  assert.equal(asked(client, "appdata.get").length, 1, "no new read");
  // removed elsewhere
  client.serverSends("appdata", { type: "appdata", appId: "iconstore", key: "owned", value: null });
  assert.deepEqual(store.state.appData.iconstore, {});
  assert.equal(told.length, 2);

  // this page's own write on its way, another waiting: the echoes and the other device's older value do not roll it back
  const first = sync.setAppData("iconstore", "owned", ["a"]);
  const second = sync.setAppData("iconstore", "owned", ["a", "b"]);
  client.serverSends("appdata", { type: "appdata", appId: "iconstore", key: "owned", value: ["x"] });
  assert.equal(told.length, 2, "ignored while this page writes the key");
  asked(client, "appdata.set")[0].resolve({});
  await first;
  client.serverSends("appdata", { type: "appdata", appId: "iconstore", key: "owned", value: ["a"] }); // the echo of the first
  await tick();
  asked(client, "appdata.set")[1].resolve({});
  await second;
  assert.deepEqual(store.state.appData.iconstore, { owned: ["a", "b"] });
  client.serverSends("appdata", { type: "appdata", appId: "iconstore", key: "owned", value: ["a", "b"] }); // the echo of the second
  assert.deepEqual(store.state.appData.iconstore, { owned: ["a", "b"] });
  assert.equal(told.length, 2, "an echo of what the page holds tells the app nothing");

  // a write kept while offline waits to be sent: it wins too
  store.savePendingAppData([{ appId: "iconstore", key: "owned", value: ["offline"] }]);
  client.serverSends("appdata", { type: "appdata", appId: "iconstore", key: "owned", value: ["other"] });
  assert.deepEqual(store.state.appData.iconstore, { owned: ["a", "b"] });
  store.savePendingAppData([]);

  // an app whose storage this page never read: nothing held to change, read fresh when asked
  client.serverSends("appdata", { type: "appdata", appId: "wenderpic", key: "drafts", value: "x" });
  assert.equal(store.state.appData.wenderpic, undefined);
});

test("an app installed or removed on another device is installed or removed here", () => {
  const { store, client } = inConversation();
  store.update(["apps"], () => ({ installedApps: ["iconstore"] }));
  client.serverSends("apps", { type: "apps", installedApps: ["iconstore", "wenderpic"] });
  assert.deepEqual(store.state.installedApps, ["iconstore", "wenderpic"]);
});

test("a new recovery key made on another device: the old unsaved one kept here is forgotten; one made here is kept", () => {
  const { store, client, sync } = inConversation();
  store.update(["user"], () => ({ device: { id: "dPhone" } }));
  let replaced = 0;
  sync.addEventListener("recoverykeyreplaced", () => replaced++);
  store.saveRecoveryKey("NEWK-EYMA-DEHE-RE00");
  client.serverSends("recovery", { type: "recovery", deviceId: "dPhone" });
  assert.equal(store.recoveryKey, "NEWK-EYMA-DEHE-RE00", "this device made it: kept");
  assert.equal(store.state.unsavedRecoveryKey, "NEWK-EYMA-DEHE-RE00");
  client.serverSends("recovery", { type: "recovery", deviceId: "dLaptop" });
  assert.equal(store.recoveryKey, null);
  assert.equal(store.state.unsavedRecoveryKey, null, "the reminder goes");
  assert.equal(replaced, 1);
});

test("renamed on another device: the name this page shows as its own follows", () => {
  const { store, sync } = inConversation();
  sync.onMember({ conversationId: C, member: { userId: ME.id, name: "Me Renamed" }, change: "renamed" });
  assert.equal(store.state.user.name, "Me Renamed");
  assert.equal(store.state.user.id, ME.id);
  sync.onMember({ conversationId: C, member: { userId: ANA.userId, name: "Ana B" }, change: "renamed" });
  assert.equal(store.state.user.name, "Me Renamed", "someone else's rename is theirs");
});

test("renamed on another device, in no conversation: a user event renames this page's own name", () => {
  const { store, client } = setup();
  store.update(["user"], () => ({ user: ME }));
  client.serverSends("user", { type: "user", user: { id: ME.id, name: "Me Renamed" } });
  assert.deepEqual(store.state.user, { ...ME, name: "Me Renamed" });
  client.serverSends("user", { type: "user", user: { id: ANA.userId, name: "Ana B" } });
  assert.equal(store.state.user.name, "Me Renamed", "only one's own");
});

test("a join through an invite sends the subscribe right behind it, before its answer; refused, the join's error is what is said", async () => {
  const { store, client, sync } = setup();
  client.serverSends("ready", { user: ME, installedApps: [], token: "t" });
  asked(client, "conversations.list")[0].resolve({ conversations: [] });
  await tick();
  const conv = { id: "c9", title: "Games night", lastSeq: 3, members: [{ userId: ME.id, name: ME.name }, ANA] };
  const joined = sync.join("inv1", "c9");
  assert.deepEqual(client.requests.slice(-2).map((r) => [r.type, r.fields]),
    [["conversations.join", { invite: "inv1" }], ["subscribe", { conversationId: "c9", afterSeq: 0 }]], "both asked before either is answered");
  asked(client, "conversations.join")[0].resolve({ conversation: conv });
  asked(client, "subscribe").at(-1).resolve({ conversation: conv, lastSeq: 3, resync: false });
  assert.equal((await joined).id, "c9");
  assert.deepEqual(store.state.conversations.map((c) => c.id), ["c9"]);
  assert.equal(asked(client, "subscribe").length, 1, "not asked again");

  const refused = sync.join("gone", "c8");
  asked(client, "conversations.join")[1].reject(new ProtocolError({ code: "invalid_invite", message: "no such invite" }));
  asked(client, "subscribe").at(-1).reject(new ProtocolError({ code: "not_member", message: "not a member" }));
  await assert.rejects(refused, (e) => e.code === "invalid_invite");
});
