// Read marks that follow the person between her devices: the pure rules
// (state/readMarks.js), the requests and events (sync/readMarks.js), and Sync's
// wiring (the list after each sign-in, the `read` event).
import { test } from "node:test";
import assert from "node:assert/strict";
import { raisedMarks, listedMarks, aheadOfServer } from "../../Public/js/state/readMarks.js";
import { ReadMarks, AT_ONCE } from "../../Public/js/sync/readMarks.js";
import { Sync } from "../../Public/js/sync.js";
import { Store } from "../../Public/js/store.js";
import { parseFrame, conversationProblem } from "../../Public/js/net/frames.js";
import { FakeClient } from "./fake-client.mjs";
import { installFakeStorage } from "./fake-storage.mjs";
import { signedInStore } from "./signed-in-store.mjs";

const storage = installFakeStorage();
const ME = { id: "uMe", name: "Me" };
const tick = () => new Promise((r) => setImmediate(r));
const asked = (client, type) => client.requests.filter((r) => r.type === type);

/** Timers the test fires by hand. */
function manualTimers() {
  const t = { pending: new Map(), n: 0 };
  t.setTimer = (fn) => (t.pending.set(++t.n, fn), t.n);
  t.clearTimer = (id) => t.pending.delete(id);
  t.fire = () => {
    const fns = [...t.pending.values()];
    t.pending.clear();
    for (const fn of fns) fn();
  };
  return t;
}

function setup() {
  const store = signedInStore(storage, ME);
  const client = new FakeClient();
  const timers = manualTimers();
  const marks = new ReadMarks(client, store, timers);
  return { store, client, timers, marks };
}

test("raisedMarks: only higher marks, the same object when none is", () => {
  const marks = { a: 5, b: 2 };
  assert.equal(raisedMarks(marks, { a: 3, b: 2 }), marks);
  assert.equal(raisedMarks(marks, { a: -1, c: 1.5, d: "9", e: null }), marks, "nothing that is not a seq");
  assert.deepEqual(raisedMarks(marks, { a: 4, b: 7, c: 1 }), { a: 5, b: 7, c: 1 });
  assert.deepEqual(marks, { a: 5, b: 2 }, "never changed in place");
});

test("listedMarks and aheadOfServer", () => {
  assert.deepEqual(listedMarks([{ id: "a", lastReadSeq: 3 }, { id: "b" }, { id: "c", lastReadSeq: 0 }]), { a: 3, c: 0 });
  assert.deepEqual(aheadOfServer({ a: 5, b: 2, x: 9 }, { a: 5, b: 1 }, ["a", "b", "c"]), [["b", 2]]);
});

test("a mark that advanced is told once, after the delay, with the mark as it is then", async () => {
  const { store, client, timers } = setup();
  store.markRead("c1", 3);
  store.markRead("c1", 5);
  store.markRead("c2", 1);
  assert.equal(asked(client, "read").length, 0, "not at once: scrolling moves it at every message");
  timers.fire();
  assert.deepEqual(asked(client, "read").map((r) => r.fields), [{ conversationId: "c1", seq: 5 }, { conversationId: "c2", seq: 1 }]);
  for (const r of asked(client, "read")) r.resolve({});
  await tick();
  store.markRead("c1", 5);
  timers.fire();
  assert.equal(asked(client, "read").length, 2, "a mark that did not advance is not told");
});

test("offline, nothing is sent; after the next sign-in, a mark ahead of the list's is", async () => {
  const { store, client, timers, marks } = setup();
  client.setStatus("offline");
  store.markRead("c1", 8);
  timers.fire();
  assert.equal(asked(client, "read").length, 0);
  client.setStatus("online");
  marks.listed([{ id: "c1", lastSeq: 9, lastReadSeq: 4, members: [] }, { id: "c2", lastSeq: 3, lastReadSeq: 3, members: [] }]);
  assert.deepEqual(asked(client, "read").map((r) => r.fields), [{ conversationId: "c1", seq: 8 }], "only what is ahead");
  assert.deepEqual(store.state.lastRead, { c1: 8, c2: 3 }, "the list's marks raise the ones here");
});

test("many marks ahead at a sign-in are told AT_ONCE at a time, and one refused as limited again after the wait", async () => {
  const { store, client, timers, marks } = setup();
  const list = [];
  client.setStatus("offline"); // the marks of a browser from before read marks were synced
  for (let i = 0; i < 20; i++) {
    store.markRead(`c${i}`, 5);
    list.push({ id: `c${i}`, lastSeq: 9, lastReadSeq: 1, members: [] });
  }
  timers.fire();
  client.setStatus("online");
  marks.listed(list);
  assert.equal(asked(client, "read").length, AT_ONCE, "not all at once: the server takes 10 a second");
  timers.fire();
  assert.equal(asked(client, "read").length, 2 * AT_ONCE);
  timers.fire();
  assert.equal(asked(client, "read").length, 20);
  asked(client, "read")[0].reject(Object.assign(new Error("limited"), { code: "rate_limited", retryAfterMs: 500 }));
  for (const r of asked(client, "read").slice(1)) r.resolve({});
  await tick();
  timers.fire();
  assert.deepEqual(asked(client, "read").slice(20).map((r) => r.fields), [{ conversationId: "c0", seq: 5 }], "the refused one again");
});

test("a mark from another device raises the one here and is not told back", () => {
  const { store, client, timers, marks } = setup();
  store.markRead("c1", 2);
  marks.heard("c1", 6);
  assert.equal(store.state.lastRead.c1, 6);
  marks.heard("c1", 4);
  assert.equal(store.state.lastRead.c1, 6, "never lowered");
  timers.fire();
  assert.equal(asked(client, "read").length, 0, "the server has 6 already");
});

test("Sync: the list's lastReadSeq and a read event clear the unread count here", async () => {
  storage.clear();
  const store = new Store();
  const client = new FakeClient();
  new Sync(client, store);
  client.serverSends("ready", { user: ME, installedApps: [], token: "t" });
  asked(client, "conversations.list")[0].resolve({ conversations: [{ id: "c1", title: "A", lastSeq: 9, lastReadSeq: 7, members: [] }] });
  await tick();
  assert.equal(store.state.lastRead.c1, 7);
  client.serverSends("read", { type: "read", conversationId: "c1", seq: 9 });
  assert.equal(store.state.lastRead.c1, 9);
  store.flush();
  assert.equal(JSON.parse(storage.m.get(`parlor.lastRead.${ME.id}`)).c1, 9, "kept for offline use");
  assert.equal(asked(client, "read").length, 0, "nothing told back");
});

test("frames: the read and user events and a listed lastReadSeq are checked", () => {
  assert.equal(parseFrame(JSON.stringify({ type: "read", conversationId: "c1", seq: 4 })).ok, true);
  assert.equal(parseFrame(JSON.stringify({ type: "read", conversationId: "c1", seq: -1 })).ok, false);
  assert.equal(parseFrame(JSON.stringify({ type: "read", conversationId: "c1" })).ok, false);
  assert.equal(parseFrame(JSON.stringify({ type: "user", user: { id: "u1", name: "Ana B." } })).ok, true);
  assert.equal(parseFrame(JSON.stringify({ type: "user", user: { id: "u1" } })).ok, false);
  const c = { id: "c1", title: "A", lastSeq: 3, members: [] };
  assert.equal(conversationProblem({ ...c, lastReadSeq: 2 }), null);
  assert.equal(conversationProblem(c), null, "absent: a server before read marks");
  assert.equal(conversationProblem({ ...c, lastReadSeq: -2 }), "conversation.lastReadSeq");
});

test("a conversation the server started over (a restore) takes the server's mark back, and reads after it are told", async () => {
  const { store, client, timers, marks } = setup();
  store.markRead("c1", 6);
  timers.fire();
  asked(client, "read")[0].resolve({});
  await tick();
  // the server restored from a backup: it has 2 for her, and gave seqs 3-5 to new messages
  marks.listed([{ id: "c1", lastSeq: 5, lastReadSeq: 2, members: [] }]);
  assert.equal(store.state.lastRead.c1, 6, "a list alone never lowers a mark");
  marks.restarted("c1");
  assert.equal(store.state.lastRead.c1, 2);
  store.markRead("c1", 5);
  timers.fire();
  assert.deepEqual(asked(client, "read").at(-1).fields, { conversationId: "c1", seq: 5 });
});
