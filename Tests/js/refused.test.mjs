// A refused app move (session_conflict) outlives a reload and is handed to the
// app once: its record (state/refused.js) is kept in localStorage beside the
// outbox while its grey copy is shown, restored as that copy after a reload,
// and goes on Discard or once the copy settles. Store, Sync and Outgoing
// against a fake client and a fake localStorage.
import { test } from "node:test";
import assert from "node:assert/strict";
import { installFakeStorage } from "./fake-storage.mjs";
import { Store } from "../../Public/js/store.js";
import { Sync } from "../../Public/js/sync.js";
import { Outgoing } from "../../Public/js/outgoing.js";
import { ProtocolError } from "../../Public/js/net/client.js";
import { transcriptRows } from "../../Public/js/state/transcript.js";
import {
  refusedRecord, withRefused, keptRefused, dueRefused, markTaken, baseOf, winnerOf, MAX_REFUSED,
} from "../../Public/js/state/refused.js";
import { FakeClient } from "./fake-client.mjs";

const storage = installFakeStorage();
const ME = { id: "uMe", name: "Me" };
const C = "c1";

function move(baseVersion, url, appId = "partylist") {
  return { kind: "app", appId, url, summaryText: "list", session: { id: "s1", baseVersion } };
}

function stored(seq, version, sender = "uKate") {
  return {
    seq, clientId: `k${seq}`, sender, createdAt: seq, kind: "app", appId: "partylist", url: `?v${version}`,
    summaryText: "list", live: false, session: { id: "s1", version },
  };
}

const winner = stored(2, 2);
const refusal = () => new ProtocolError({ code: "session_conflict", message: "moved on", current: winner });
const greyCopies = (store) => transcriptRows(store.transcript(C)).filter((r) => r.type === "pending" && r.pending.status === "failed");
const kept = () => JSON.parse(storage.getItem(`parlor.refused.${ME.id}`) ?? "[]");

/** A page signed in as Me: the list at version 1, then Kate's version 2. */
function page() {
  const store = new Store();
  const client = new FakeClient();
  const sync = new Sync(client, store);
  const outgoing = new Outgoing(store, sync);
  client.serverSends("ready", { user: ME, installedApps: ["partylist"], token: "t" });
  for (const r of client.requests.splice(0)) r.resolve({ conversations: [], messages: [], hasMore: false });
  return { store, client, sync, outgoing };
}

/** Me sends an edit of version 1 (sent offline, say); the server refuses it. */
async function refusedEdit(p) {
  p.client.serverSends("message", { conversationId: C, message: stored(1, 1) });
  p.client.serverSends("message", { conversationId: C, message: winner, supersedes: { seq: 1, summary: "Kate started" } });
  const sent = p.sync.send(C, move(1, "?mine"));
  p.client.sends().at(-1).reject(refusal());
  await assert.rejects(sent, (e) => e.code === "session_conflict" && typeof e.clientId === "string");
  return sent.catch((e) => e.clientId);
}

test("a refused move is kept in localStorage while its grey copy shows, and comes back after a reload", async () => {
  storage.clear();
  const first = page();
  const clientId = await refusedEdit(first);
  assert.equal(greyCopies(first.store).length, 1);
  assert.deepEqual(kept().map((r) => [r.clientId, r.conflictSeq, r.taken, r.message.url, r.current.seq]), [[clientId, 2, false, "?mine", 2]]);
  assert.deepEqual(first.store.outbox(), [], "no longer in the outbox: it is not sent again");

  // a reload: the grey copy is back, with its conflict, before the history arrives
  const second = page();
  const copies = greyCopies(second.store);
  assert.equal(copies.length, 1);
  assert.equal(copies[0].pending.clientId, clientId);
  assert.equal(copies[0].pending.error, "session_conflict");
  assert.equal(copies[0].pending.conflictSeq, 2);
  assert.equal(second.client.sends().length, 0, "nothing is sent again");
  assert.equal(dueRefused(second.store.state.refused, { conversationId: C, appId: "partylist" }).length, 1, "still due to the app");

  // the history that then arrives does not settle it (the winner is not a newer move)
  second.client.serverSends("message", { conversationId: C, message: winner });
  assert.equal(greyCopies(second.store).length, 1);
  assert.equal(kept().length, 1);
});

test("taken by the app: kept while shown, but no longer due; Discard forgets it", async () => {
  storage.clear();
  const p = page();
  const clientId = await refusedEdit(p);
  p.sync.takeRefused(clientId);
  assert.deepEqual(dueRefused(p.store.state.refused, { conversationId: C, appId: "partylist" }), []);
  assert.equal(kept()[0].taken, true, "a reload does not hand it over again");
  assert.equal(greyCopies(page().store).length, 1, "and still shows it");

  const q = page();
  q.sync.discard(C, clientId);
  assert.equal(greyCopies(q.store).length, 0);
  assert.deepEqual(kept(), []);
  assert.equal(greyCopies(page().store).length, 0, "gone after a reload too");
});

test("the copy settled (the app staged the move again, or this user moved the session on): the record goes", async () => {
  storage.clear();
  const p = page();
  await refusedEdit(p);
  p.outgoing.stage(C, { appId: "partylist", message: move(2, "?merged") });
  assert.equal(greyCopies(p.store).length, 0);
  assert.deepEqual(kept(), []);

  storage.clear();
  const q = page();
  await refusedEdit(q);
  q.client.serverSends("message", { conversationId: C, message: stored(3, 3), supersedes: { seq: 2, summary: "Kate edited" } });
  assert.equal(kept().length, 1, "someone else's newer move: still the app's to merge");
  q.client.serverSends("message", { conversationId: C, message: stored(4, 4, ME.id), supersedes: { seq: 3, summary: "Me, elsewhere" } });
  assert.deepEqual(kept(), []);
});

test("only stale app moves are kept: not a text refused, not another code", async () => {
  storage.clear();
  const p = page();
  const text = p.sync.send(C, { kind: "text", text: "hi" });
  p.client.sends().at(-1).reject(new ProtocolError({ code: "session_conflict", message: "?" }));
  await assert.rejects(text);
  const app = p.sync.send(C, move(1, "?x"));
  p.client.sends().at(-1).reject(new ProtocolError({ code: "too_long", message: "too long" }));
  await assert.rejects(app);
  assert.deepEqual(kept(), []);
});

test("state/refused.js: bounded, well-formed, due by app and session, the base and the winner from the transcript", () => {
  const item = (i, appId = "partylist", session = "s1") => ({ clientId: `m${i}`, conversationId: C, createdAt: i, message: { ...move(1, `?${i}`, appId), session: { id: session, baseVersion: 1 } } });
  const err = { code: "session_conflict", current: winner };
  assert.equal(refusedRecord(item(0), { code: "too_long" }, 2), null);
  assert.equal(refusedRecord({ ...item(0), message: { kind: "app", appId: "x", url: "?" } }, err, 2), null, "no session: no conflict");
  let records = [];
  for (let i = 0; i < MAX_REFUSED + 5; i++) records = withRefused(records, refusedRecord(item(i), err, 2));
  assert.equal(records.length, MAX_REFUSED);
  assert.equal(records[0].clientId, "m5", "the oldest go first");
  assert.deepEqual(keptRefused([null, { clientId: 1 }, records[0], "x"]), [records[0]]);
  assert.deepEqual(keptRefused({}), []);

  records = [refusedRecord(item(1), err, 2), refusedRecord(item(2, "wenderpic"), err, 2), refusedRecord(item(3, "partylist", "s2"), err, 2)];
  const due = (where) => dueRefused(records, { conversationId: C, ...where }).map((r) => r.clientId);
  assert.deepEqual(due({ appId: "partylist" }), ["m1", "m3"], "opened from the drawer: every session");
  assert.deepEqual(due({ appId: "partylist", sessionId: "s2" }), ["m3"]);
  assert.deepEqual(dueRefused(records, { conversationId: "c2", appId: "partylist" }), []);
  records = markTaken(records, "m1");
  assert.deepEqual(due({ appId: "partylist" }), ["m3"]);
  assert.equal(markTaken(records, "m1"), records, "unchanged: the same list");

  const t = { messages: [stored(1, 1), { ...stored(2, 2), url: "?newer" }], pending: [] };
  assert.equal(baseOf(t, records[0]).seq, 1);
  assert.equal(baseOf({ messages: [], pending: [] }, records[0]), null);
  assert.equal(winnerOf(t, records[0]).url, "?newer", "the newest of the session, as held now");
  assert.equal(winnerOf({ messages: [], pending: [] }, records[0]).seq, 2, "else the refusal's");
});
