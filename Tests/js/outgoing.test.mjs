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

test("a staged drawing is uploaded as it is staged: Send sends it with that hash and uploads nothing more; a head start that failed is uploaded again at Send", async () => {
  const { client, outgoing } = setup();
  const { sync } = outgoing;
  sync.images.forUser(ME.id);
  const uploads = [];
  sync.outbox.upload = (blob) => new Promise((resolve, reject) => uploads.push({ blob, resolve, reject }));
  const drawing = new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" });
  const move = { kind: "app", appId: "wenderpic", url: "?w=cat", live: false, layout: { caption: "Guess my WenderPic!" } };

  const first = outgoing.stage(C, { appId: "wenderpic", message: move, image: drawing });
  await tick();
  assert.equal(uploads.length, 1, "uploaded as it was staged, before Send");
  assert.equal(uploads[0].blob, drawing);
  uploads[0].resolve("cd".repeat(32));
  await tick();
  outgoing.send(C, "");
  await tick();
  await tick();
  assert.equal(uploads.length, 1, "Send uploads nothing more");
  const [sent] = client.sends();
  assert.equal(sent.fields.message.layout.image, "cd".repeat(32));
  sent.resolve(storedFor(sent, 1));
  await first;

  // the head start failed (offline a moment, say): Send uploads it again
  const second = outgoing.stage(C, { appId: "wenderpic", message: move, image: drawing });
  await tick();
  uploads[1].reject(Object.assign(new Error("down"), { code: "unreachable" }));
  await tick();
  outgoing.send(C, "");
  await tick();
  await tick();
  assert.equal(uploads.length, 3, "uploaded again at Send");
  uploads[2].resolve("ef".repeat(32));
  await tick();
  await tick();
  const again = client.sends()[1];
  assert.equal(again.fields.message.layout.image, "ef".repeat(32));
  again.resolve(storedFor(again, 2));
  await second;
});
