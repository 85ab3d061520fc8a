// Outgoing against a fake client: what an app stages waits in the composer and
// its insert() settles when the story ends (sent, removed, replaced, refused);
// Send sends the staged items, then the text; a sticker dropped on a bubble
// goes at once, stuck to it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Store } from "../../Public/js/store.js";
import { Sync } from "../../Public/js/sync.js";
import { Outgoing, CancelledError } from "../../Public/js/outgoing.js";
import { ProtocolError } from "../../Public/js/net/client.js";
import { FakeClient } from "./fake-client.mjs";

const ME = { id: "uMe", name: "Me" };
const C = "c1";
const tick = () => new Promise((r) => setImmediate(r));
const poll = (url) => ({ kind: "app", appId: "example", url, live: false });
const storedFor = (req, seq) => ({ message: { seq, clientId: req.fields.clientId, sender: ME.id, createdAt: seq, ...req.fields.message } });

function setup() {
  const store = new Store();
  const client = new FakeClient();
  const sync = new Sync(client, store);
  const outgoing = new Outgoing(store, sync);
  store.update(["user"], () => ({ user: ME }));
  const events = [];
  for (const type of ["staged", "startsending", "cancelsending", "failed", "inserttext"]) {
    outgoing.addEventListener(type, (e) => events.push([type, e.detail.item?.key ?? e.detail.text]));
  }
  return { store, client, outgoing, events };
}

test("staged, then Send: the item goes first, then the text; the insert resolves with the stored message", async () => {
  const { store, client, outgoing, events } = setup();
  const inserted = outgoing.stage(C, { appId: "example", ref: "r1", message: poll("?q=pizza") });
  const key = outgoing.staged(C)[0].key;
  assert.equal(store.state.staged[C].length, 1, "the composer's staged items are the store's");
  assert.equal(outgoing.send(C, "  tonight? "), true);
  assert.deepEqual(outgoing.staged(C), []);
  assert.deepEqual(client.sends().map((r) => r.fields.message.kind), ["app", "text"]);
  client.sends()[0].resolve(storedFor(client.sends()[0], 1));
  const stored = await inserted;
  assert.equal(stored.seq, 1);
  assert.deepEqual(events, [["staged", key], ["startsending", key]]);
  assert.equal(outgoing.send(C, "   "), false, "nothing to send");
});

test("removed by the user, or replaced by the app's newer insert: the insert rejects as cancelled", async () => {
  const { outgoing, events, client } = setup();
  const first = outgoing.stage(C, { appId: "example", message: poll("?1") });
  const second = outgoing.stage(C, { appId: "example", message: poll("?2") });
  await assert.rejects(first, (e) => e instanceof CancelledError && /replaced/.test(e.message));
  assert.equal(outgoing.staged(C).length, 1);
  const key = outgoing.staged(C)[0].key;
  outgoing.remove(C, key);
  await assert.rejects(second, { code: "cancelled" });
  assert.deepEqual(events.at(-1), ["cancelsending", key]);
  assert.equal(client.requests.length, 0, "nothing went out");
});

test("a refusal reaches the insert and the page", async () => {
  const { outgoing, client, events } = setup();
  const inserted = outgoing.stage(C, { appId: "example", message: poll("?1") });
  outgoing.send(C, "");
  client.sends()[0].reject(new ProtocolError({ code: "not_member", message: "no" }));
  await assert.rejects(inserted, { code: "not_member" });
  await tick();
  assert.equal(events.at(-1)[0], "failed");
});

test("a sticker dropped on a bubble is sent at once, stuck where it was dropped; text an app inserts goes to the composer", async () => {
  const { outgoing, client, events } = setup();
  const inserted = outgoing.stage(C, { appId: "icecream", message: { kind: "sticker", image: "a".repeat(64), description: "A sundae" } });
  outgoing.stick(C, outgoing.staged(C)[0].key, { seq: 4, x: 0.5, y: 0.25 });
  assert.deepEqual(outgoing.staged(C), []);
  assert.deepEqual(client.sends()[0].fields.message.stuckTo, { seq: 4, x: 0.5, y: 0.25 });
  client.sends()[0].resolve(storedFor(client.sends()[0], 5));
  assert.equal((await inserted).seq, 5);
  outgoing.insertText(C, "Good game!");
  assert.deepEqual(events.at(-1), ["inserttext", "Good game!"]);
});
