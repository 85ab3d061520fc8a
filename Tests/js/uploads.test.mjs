// An image upload that cannot reach the server waits, as a text message does:
// offline until the connection is back (however long), online a few times with
// backoff; a refusal of the image itself fails at once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { uploadWhenReachable } from "../../Public/js/sync/uploads.js";
import { SEND_ATTEMPTS } from "../../Public/js/net/retry.js";
import { ProtocolError } from "../../Public/js/net/client.js";
import { Store } from "../../Public/js/store.js";
import { Sync } from "../../Public/js/sync.js";
import { FakeClient } from "./fake-client.mjs";

const HASH = "a".repeat(64);
const unreachable = () => new ProtocolError({ code: "unreachable", message: "the server could not be reached" });

function harness({ online = true } = {}) {
  const h = { online, waits: 0, slept: [], tokens: [], results: [], resolveOnline: null };
  h.how = {
    token: () => `t${h.tokens.length}`,
    online: () => h.online,
    whenOnline: () => { h.waits += 1; return new Promise((r) => { h.resolveOnline = r; }); },
    attempt: async (blob, token) => {
      h.tokens.push(token);
      const next = h.results.shift();
      if (next instanceof Error) throw next;
      if (typeof next === "function") return next();
      return next;
    },
    sleep: async (ms) => { h.slept.push(ms); },
    random: () => 0,
  };
  return h;
}

const tick = () => new Promise((r) => setImmediate(r));

test("offline: nothing is tried until the connection is back, then it uploads with the new token", async () => {
  const h = harness({ online: false });
  h.results.push(HASH);
  const p = uploadWhenReachable(new Blob(["x"]), h.how);
  await tick();
  assert.equal(h.tokens.length, 0, "no attempt while offline");
  assert.equal(h.waits, 1);
  h.online = true;
  h.resolveOnline();
  assert.equal(await p, HASH);
  assert.equal(h.tokens.length, 1);
});

test("the connection drops during the upload: it waits for the next online, attempts not counted", async () => {
  const h = harness();
  // each attempt fails as the connection goes, more times than the online budget
  let failsLeft = SEND_ATTEMPTS + 2;
  h.how.attempt = async () => {
    if (failsLeft-- > 0) { h.online = false; throw unreachable(); }
    return HASH;
  };
  const p = uploadWhenReachable(new Blob(["x"]), h.how);
  for (let i = 0; i < SEND_ATTEMPTS + 2; i++) {
    await tick();
    h.online = true;
    h.resolveOnline();
  }
  assert.equal(await p, HASH);
  assert.equal(h.waits, SEND_ATTEMPTS + 2);
  assert.deepEqual(h.slept, [], "offline waits are not backoff");
});

test("online but unreachable (a restart behind a proxy): retried with backoff, then it fails", async () => {
  const h = harness();
  h.results.push(unreachable(), unreachable(), HASH);
  assert.equal(await uploadWhenReachable(new Blob(["x"]), h.how), HASH);
  assert.deepEqual(h.slept, [500, 1000], "equal jitter of 1 s, 2 s (random 0: the lower half)");

  const g = harness();
  for (let i = 0; i < SEND_ATTEMPTS; i++) g.results.push(unreachable());
  await assert.rejects(uploadWhenReachable(new Blob(["x"]), g.how), (e) => e.code === "unreachable");
  assert.equal(g.tokens.length, SEND_ATTEMPTS);
});

test("a refusal of the image itself is not retried", async () => {
  const h = harness();
  h.results.push(new ProtocolError({ code: "too_large", message: "upload failed (413)" }));
  await assert.rejects(uploadWhenReachable(new Blob(["x"]), h.how), (e) => e.code === "too_large");
  assert.equal(h.tokens.length, 1);
  assert.deepEqual(h.slept, []);
});

test("Sync.whenOnline resolves at the client's next online, not at connecting", async () => {
  const client = new FakeClient();
  const sync = new Sync(client, new Store());
  await sync.whenOnline();
  client.setStatus("offline");
  let done = false;
  sync.whenOnline().then(() => { done = true; });
  client.setStatus("connecting");
  await tick();
  assert.equal(done, false);
  client.setStatus("online");
  await tick();
  assert.equal(done, true);
});

test("an attempt that stalls is given up after its deadline, as unreachable, so it is tried again", async () => {
  const { upload, uploadDeadlineMs } = await import("../../Public/js/sync/uploads.js");
  let signal = null;
  const stalled = (url, init) => new Promise((_, reject) => {
    signal = init.signal;
    init.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
  });
  await assert.rejects(upload(new Blob(["x"]), "t", { fetch: stalled, deadlineMs: 20 }), (e) => e.code === "unreachable");
  assert.equal(signal.aborted, true);
  // the server's bounds, and a little more: a small drawing 12-13 s, a 5 MiB photo at most 125 s
  assert.equal(uploadDeadlineMs(1), 13_000);
  assert.equal(uploadDeadlineMs(5 * 1024 * 1024), 125_000);
});
