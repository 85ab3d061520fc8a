// A voice message goes through the outbox as an app's drawing does: kept (with its
// recording) while offline, its recording uploaded once the connection is back, and
// its hash put in `audio`, not in a layout.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Store } from "../../Public/js/store.js";
import { Sync } from "../../Public/js/sync.js";
import { FakeClient } from "./fake-client.mjs";
import { installFakeStorage } from "./fake-storage.mjs";

const storage = installFakeStorage();
const ME = { id: "uMe", name: "Me" };
const C = "c1";
const tick = () => new Promise((r) => setImmediate(r));

test("a voice message recorded offline waits, then its recording is uploaded and its hash sent as its audio", async () => {
  storage.clear();
  const store = new Store();
  const client = new FakeClient();
  const sync = new Sync(client, store);
  store.update(["user"], () => ({ user: ME }));
  store.update(["conversations"], () => ({ conversations: [{ id: C, title: "Voices", lastSeq: 0, members: [{ userId: ME.id, name: ME.name }] }] }));
  sync.images.forUser(ME.id);
  const uploads = [];
  sync.outbox.upload = async (blob) => { uploads.push(blob); return "cd".repeat(32); };

  client.setStatus("offline");
  const recording = new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3])], { type: "audio/webm" });
  const sent = sync.send(C, { kind: "audio", durationMs: 1200 }, { image: recording });
  await tick();
  assert.equal(uploads.length, 0, "nothing uploaded offline");
  assert.equal(client.sends().length, 0);
  const [pending] = store.transcript(C).pending;
  assert.equal(pending.message.kind, "audio", "shown as Sending…");
  assert.ok(pending.imageKey, "its recording kept for the upload");

  client.setStatus("online");
  sync.flushOutbox(); // as the reconnect does
  for (let i = 0; i < 5 && client.sends().length === 0; i++) await tick();
  assert.deepEqual(uploads, [recording]);
  const [send] = client.sends();
  assert.deepEqual(send.fields.message, { kind: "audio", durationMs: 1200, audio: "cd".repeat(32) });
  send.resolve({ message: { seq: 1, clientId: send.fields.clientId, sender: ME.id, createdAt: 1, ...send.fields.message } });
  assert.equal((await sent).audio, "cd".repeat(32));
});
