// A refused app move (session_conflict) leaves a grey copy in the transcript.
// It goes once the app has staged its move again or this user moved the session past the
// winner, whichever order the refusal, the winner's live message and the app's
// re-stage arrive in. Store, Sync and Outgoing together against a fake client.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Store } from "../../Public/js/store.js";
import { Sync } from "../../Public/js/sync.js";
import { Outgoing } from "../../Public/js/outgoing.js";
import { ProtocolError } from "../../Public/js/net/client.js";
import { transcriptRows } from "../../Public/js/state/transcript.js";
import { FakeClient } from "./fake-client.mjs";

const ME = { id: "uMe", name: "Me" };
const C = "c1";
const tick = () => new Promise((r) => setImmediate(r));

function listMessage(version, url) {
  return { kind: "app", appId: "partylist", url, summaryText: "list", session: { id: "s1", baseVersion: version } };
}

function stored(seq, version, sender = "uKate") {
  return {
    seq, clientId: `k${seq}`, sender, createdAt: seq, kind: "app", appId: "partylist", url: `?v${version}`,
    summaryText: "list", live: false, session: { id: "s1", version },
  };
}

function setup() {
  const store = new Store();
  const client = new FakeClient();
  const sync = new Sync(client, store);
  const outgoing = new Outgoing(store, sync);
  store.update(["user"], () => ({ user: ME }));
  // the list at version 1, sent by Kate
  client.serverSends("message", { conversationId: C, message: stored(1, 1) });
  return { store, client, sync, outgoing };
}

/** John stages his edit of version 1 and presses Send; the send is in flight. */
function sendMove({ outgoing, client }) {
  const inserted = outgoing.stage(C, { appId: "partylist", message: listMessage(1, "?john") });
  assert.equal(outgoing.send(C, ""), true);
  const req = client.requests.find((r) => r.type === "send");
  assert.ok(req, "the send went out");
  return { inserted, req };
}

const winner = stored(2, 2);
const refusal = () => new ProtocolError({ code: "session_conflict", message: "moved on", current: winner });
const greyCopies = (store) => transcriptRows(store.transcript(C)).filter((r) => r.type === "pending" && r.pending.status === "failed");

test("refusal first, then the app re-stages: the grey copy shows, then goes", async () => {
  const s = setup();
  const { inserted, req } = sendMove(s);
  s.client.serverSends("message", { conversationId: C, message: winner, supersedes: { seq: 1, summary: "Kate started" } });
  req.reject(refusal());
  await assert.rejects(inserted, { code: "session_conflict" });
  assert.equal(greyCopies(s.store).length, 1, "the user's only copy of the move is kept");

  const parts = [];
  s.store.addEventListener("change", (e) => parts.push(...e.detail.parts));
  s.outgoing.stage(C, { appId: "partylist", message: listMessage(2, "?merged") });
  assert.equal(greyCopies(s.store).length, 0);
  assert.ok(parts.includes(`transcript:${C}`), "the transcript view is told");
});

test("the app re-stages first (the winner reached it first), then the refusal: no grey copy", async () => {
  const s = setup();
  const { inserted, req } = sendMove(s);
  s.client.serverSends("message", { conversationId: C, message: winner, supersedes: { seq: 1, summary: "Kate started" } });
  s.outgoing.stage(C, { appId: "partylist", message: listMessage(2, "?merged") });
  req.reject(refusal());
  await assert.rejects(inserted, { code: "session_conflict" });
  await tick();
  assert.equal(greyCopies(s.store).length, 0);
  assert.equal(s.store.transcript(C).pending.length, 0);
});

test("the grey copy goes once this user moved the session past the winner, not for someone else's newer move", async () => {
  const s = setup();
  const { inserted, req } = sendMove(s);
  req.reject(refusal()); // the refusal before the winner's live message
  await assert.rejects(inserted, { code: "session_conflict" });
  s.client.serverSends("message", { conversationId: C, message: winner, supersedes: { seq: 1, summary: "Kate started" } });
  assert.equal(greyCopies(s.store).length, 1, "the winner itself does not settle it");
  s.client.serverSends("message", { conversationId: C, message: { ...stored(3, 0), kind: "text", text: "hi", session: undefined } });
  assert.equal(greyCopies(s.store).length, 1, "an unrelated message does not either");
  s.client.serverSends("message", { conversationId: C, message: stored(4, 3), supersedes: { seq: 2, summary: "Kate edited" } });
  assert.equal(greyCopies(s.store).length, 1, "Kate moved on again: the move can still be merged");
  s.client.serverSends("message", { conversationId: C, message: stored(5, 4, ME.id), supersedes: { seq: 4, summary: "Me, elsewhere" } });
  assert.equal(greyCopies(s.store).length, 0, "this user moved on (another device)");
});

test("other failures and other apps' refusals are not touched", async () => {
  const s = setup();
  const { inserted, req } = sendMove(s);
  req.reject(refusal());
  await assert.rejects(inserted);
  const text = s.sync.send(C, { kind: "text", text: "too long, say" });
  s.client.requests.at(-1).reject(new ProtocolError({ code: "too_long", message: "too long" }));
  await assert.rejects(text, { code: "too_long" });
  s.outgoing.stage(C, { appId: "wenderpic", message: { kind: "app", appId: "wenderpic", url: "?w" } });
  assert.deepEqual(greyCopies(s.store).map((r) => r.pending.error).sort(), ["session_conflict", "too_long"]);
});
