// The network client against a fake WebSocket: auth first, request/answer by
// id, invalid frames dropped, reconnect after a drop.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ParlorClient, RESTART_ATTEMPTS } from "../../Public/js/net/client.js";

class FakeSocket {
  static all = [];
  constructor(url, protocol) {
    this.url = url;
    this.protocol = protocol;
    this.sent = [];
    FakeSocket.all.push(this);
    queueMicrotask(() => this.onopen && this.onopen());
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    queueMicrotask(() => this.onclose && this.onclose({ code: 1006 }));
  }
  serverCloses(code, reason = "") {
    this.onclose({ code, reason });
  }
  serverSends(obj) {
    this.onmessage({ data: typeof obj === "string" ? obj : JSON.stringify(obj) });
  }
}

const tick = () => new Promise((r) => setImmediate(r));
const user = { id: "u1", name: "Ana" };

test("authenticates first, answers requests by id, validates frames, reconnects", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  FakeSocket.all = [];
  const c = new ParlorClient({ url: "ws://x/ws", WebSocket: FakeSocket, random: () => 0 });
  const events = [];
  for (const type of ["status", "ready", "message", "invalidframe"]) c.addEventListener(type, (e) => events.push([type, e.detail]));
  c.start({ register: "Ana" });
  await tick();
  const ws = FakeSocket.all[0];
  assert.equal(ws.protocol, "parlor.v1");
  assert.equal(ws.sent[0].type, "register");
  assert.equal(ws.sent[0].name, "Ana");
  await assert.rejects(c.request("conversations.list"), { code: "offline" });
  ws.serverSends({ type: "result", re: ws.sent[0].id, result: { user, token: "T", installedApps: [] } });
  await tick();
  assert.equal(c.status, "online");
  assert.equal(events.find((e) => e[0] === "ready")[1].token, "T");

  const p = c.request("conversations.list");
  const req = ws.sent.at(-1);
  assert.equal(req.type, "conversations.list");
  ws.serverSends({ type: "result", re: req.id, result: { conversations: [] } });
  assert.deepEqual(await p, { conversations: [] });

  const q = c.request("invites.create", { conversationId: "c1" });
  ws.serverSends({ type: "error", re: ws.sent.at(-1).id, code: "not_member", message: "no" });
  await assert.rejects(q, { code: "not_member" });

  ws.serverSends("{nonsense");
  ws.serverSends({ type: "message", conversationId: "c1", message: { seq: "1" } });
  ws.serverSends({ type: "message", conversationId: "c1", message: { seq: 1, clientId: "k", sender: "u2", createdAt: 1, kind: "text", text: "hi" } });
  assert.equal(events.filter((e) => e[0] === "invalidframe").length, 2);
  assert.equal(events.filter((e) => e[0] === "message").length, 1);

  // a drop: pending requests fail, the client comes back and authenticates with the token
  const r = c.request("conversations.list");
  ws.close();
  await assert.rejects(r, { code: "offline" });
  assert.equal(c.status, "offline");
  t.mock.timers.tick(1000);
  await tick();
  const ws2 = FakeSocket.all[1];
  assert.ok(ws2, "reconnected");
  assert.deepEqual({ type: ws2.sent[0].type, token: ws2.sent[0].token }, { type: "auth", token: "T" });
  ws2.serverSends({ type: "result", re: ws2.sent[0].id, result: { user, installedApps: ["example"] } });
  await tick();
  assert.equal(c.status, "online");
  assert.equal(events.filter((e) => e[0] === "ready").length, 2);
  c.stop();
});

// a request sent with the sign-in (withSignIn) is refused with it, unheard: no
// unhandled rejection ends the run
for (const withSignIn of [() => [], () => [["conversations.list", {}]]]) {
  test(`an unknown token stops the client and says so (sent with it: ${withSignIn().map(([t]) => t).join() || "nothing"})`, async () => {
    FakeSocket.all = [];
    const c = new ParlorClient({ url: "ws://x/ws", WebSocket: FakeSocket, withSignIn });
    let failed = null;
    c.addEventListener("authfailed", (e) => (failed = e.detail));
    c.start({ token: "bad" });
    await tick();
    const ws = FakeSocket.all[0];
    ws.serverSends({ type: "error", re: ws.sent[0].id, code: "invalid_token", message: "unknown" });
    for (const behind of ws.sent.slice(1)) ws.serverSends({ type: "error", re: behind.id, code: "not_authenticated", message: "send auth or register first" });
    await tick();
    await tick();
    assert.equal(failed.code, "invalid_token");
    assert.equal(c.stopped, true);
    assert.equal(FakeSocket.all.length, 1);
  });
}

test("a request sent with the sign-in goes right behind it, and its answer is taken once", async () => {
  FakeSocket.all = [];
  const c = new ParlorClient({ url: "ws://x/ws", WebSocket: FakeSocket, withSignIn: () => [["conversations.list", {}], ["invites.peek", { invite: "K" }]] });
  let ready = 0;
  c.addEventListener("ready", () => ready++);
  c.start({ token: "T" });
  await tick();
  const ws = FakeSocket.all[0];
  // both at once, the sign-in first: the server takes them in order
  assert.deepEqual(ws.sent.map((f) => f.type), ["auth", "conversations.list", "invites.peek"]);
  assert.equal(ws.sent[2].invite, "K");
  ws.serverSends({ type: "result", re: ws.sent[0].id, result: { user, installedApps: [] } });
  ws.serverSends({ type: "result", re: ws.sent[1].id, result: { conversations: [] } });
  await tick();
  assert.equal(ready, 1);
  const answer = c.signInAnswer("conversations.list");
  assert.deepEqual(await answer, { conversations: [] });
  assert.equal(c.signInAnswer("conversations.list"), null, "taken once: a later list is asked anew");
  assert.equal(c.signInAnswer("history"), null);
  assert.equal(c.signInAnswer("invites.peek", { invite: "other" }), null, "another invite's is asked anew");
  assert.ok(c.signInAnswer("invites.peek", { invite: "K" }));
  c.stop();
});

// ---- close codes ---------------------------------------------------------------------------

async function online(c, ws) {
  await tick();
  ws.serverSends({ type: "result", re: ws.sent[0].id, result: { user, installedApps: [] } });
  await tick();
  assert.equal(c.status, "online");
}

function statusLog(c) {
  const log = [];
  c.addEventListener("status", ({ detail: { status, restarting, retryInMs } }) => log.push({ status, restarting, retryInMs }));
  return log;
}

/** A client online on a fake socket, with its status changes logged; timers mocked. */
async function signedIn(t) {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  FakeSocket.all = [];
  const c = new ParlorClient({ url: "ws://x/ws", WebSocket: FakeSocket, random: () => 1 });
  c.start({ token: "T" });
  await online(c, FakeSocket.all[0]);
  return { c, log: statusLog(c) };
}

for (const code of [1001, 1012]) {
  test(`a server that closes with ${code} is restarting: said so, and back soon`, async (t) => {
    const { c, log } = await signedIn(t);
    const pending = c.request("conversations.list");

    FakeSocket.all[0].serverCloses(code);
    await assert.rejects(pending, { code: "offline" });
    assert.deepEqual(log.at(-1), { status: "offline", restarting: true, retryInMs: 250 });

    // the server is still down: refused again, and again soon
    t.mock.timers.tick(250);
    await tick();
    assert.equal(FakeSocket.all.length, 2);
    assert.deepEqual([log.at(-1).status, log.at(-1).restarting], ["connecting", true]);
    FakeSocket.all[1].serverCloses(1006);
    assert.deepEqual(log.at(-1), { status: "offline", restarting: true, retryInMs: 500 });

    // it is back: the client signs in and the restart is over
    t.mock.timers.tick(500);
    await online(c, FakeSocket.all[2]);
    assert.deepEqual(FakeSocket.all[2].sent[0].type, "auth");
    assert.deepEqual([log.at(-1).status, log.at(-1).restarting], ["online", false]);
    c.stop();
  });
}

test("a restart that lasts too long becomes an ordinary outage", async (t) => {
  const { c, log } = await signedIn(t);
  FakeSocket.all[0].serverCloses(1012);
  const delays = [log.at(-1).retryInMs];
  for (let i = 1; log.at(-1).restarting; i++) {
    t.mock.timers.tick(log.at(-1).retryInMs);
    await tick();
    FakeSocket.all[i].serverCloses(1006);
    delays.push(log.at(-1).retryInMs);
  }
  assert.equal(delays.length, RESTART_ATTEMPTS + 1);
  assert.deepEqual(delays.slice(0, 5), [250, 500, 1000, 2000, 2000]);
  assert.ok(delays.slice(0, -1).reduce((a, b) => a + b) <= 30000, "within 30 s");
  assert.equal(delays.at(-1), 15000, "then the ordinary backoff");
  c.stop();
});

for (const code of [1006, 4001, 4008, 1009]) {
  test(`a close with ${code} reconnects as before: the ordinary backoff, not a restart`, async (t) => {
    const { c, log } = await signedIn(t);
    FakeSocket.all[0].serverCloses(code);
    assert.deepEqual(log.at(-1), { status: "offline", restarting: false, retryInMs: 500 });
    t.mock.timers.tick(500);
    await online(c, FakeSocket.all[1]);
    c.stop();
  });
}

test("a 4003 is the end of this token: no reconnect, and the page hears why", async (t) => {
  const { c } = await signedIn(t);
  const heard = [];
  c.addEventListener("signedout", (e) => heard.push(e.detail.reason));
  const pending = c.request("conversations.list");
  FakeSocket.all[0].serverCloses(4003, "account deactivated");
  await assert.rejects(pending, { code: "offline" });
  assert.deepEqual(heard, ["account deactivated"]);
  t.mock.timers.tick(60000);
  await tick();
  assert.equal(FakeSocket.all.length, 1, "never reconnects with a dead token");
  c.stop();
});

test("the store hears of a restart through Sync, and of its end", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  FakeSocket.all = [];
  const { Store } = await import("../../Public/js/store.js");
  const { Sync } = await import("../../Public/js/sync.js");
  const c = new ParlorClient({ url: "ws://x/ws", WebSocket: FakeSocket, random: () => 1 });
  const store = new Store();
  new Sync(c, store);
  c.start({ token: "T" });
  await online(c, FakeSocket.all[0]);
  assert.deepEqual([store.state.status, store.state.restarting], ["online", false]);
  FakeSocket.all[0].serverCloses(1001);
  assert.deepEqual([store.state.status, store.state.restarting], ["offline", true]);
  t.mock.timers.tick(250);
  await tick();
  assert.deepEqual([store.state.status, store.state.restarting], ["connecting", true]);
  await online(c, FakeSocket.all[1]);
  assert.deepEqual([store.state.status, store.state.restarting], ["online", false]);
  c.stop();
});

test("the banner says the server is restarting while it is, and what it said before otherwise", async () => {
  const { bannerText } = await import("../../Public/js/views/status.js");
  assert.equal(bannerText("offline", true), "Server restarting — reconnecting…");
  assert.equal(bannerText("connecting", true), "Server restarting — reconnecting…");
  assert.equal(bannerText("connecting", false), "Reconnecting…");
  assert.equal(bannerText("offline", false), "Offline — your messages will be sent when you're back");
});

test("the browser going offline drops the connection at once, without waiting for the close handshake", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  FakeSocket.all = [];
  // a socket whose close never completes: no network to carry the handshake
  class Stuck extends FakeSocket {
    close(code, reason) { this.closedWith = [code, reason]; }
  }
  const c = new ParlorClient({ url: "ws://x/ws", WebSocket: Stuck, random: () => 0 });
  c.start({ token: "T" });
  const ws = FakeSocket.all[0];
  await online(c, ws);
  const pending = c.request("conversations.list");
  c.drop();
  assert.equal(c.status, "offline", "offline now, not after the close event");
  await assert.rejects(pending, { code: "offline" });
  assert.deepEqual(ws.closedWith, [4000, "client drop"]);
  // a close event that comes late changes nothing; the retry connects again
  ws.onclose({ code: 1006 });
  t.mock.timers.tick(1000);
  await tick();
  assert.equal(FakeSocket.all.length, 2, "one reconnect, not two");
  c.stop();
});

test("a connection that says nothing is asked (ping), and dropped and made again when the ping goes unanswered", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "setInterval", "Date"] });
  FakeSocket.all = [];
  const c = new ParlorClient({ url: "ws://x/ws", WebSocket: FakeSocket, random: () => 0 });
  c.start({ token: "T" });
  const ws = FakeSocket.all[0];
  await online(c, ws);

  // quiet for 25 s: a ping; answered, the connection stays
  t.mock.timers.tick(25_000);
  await tick();
  const ping = ws.sent.at(-1);
  assert.equal(ping.type, "ping");
  ws.serverSends({ type: "result", re: ping.id, result: {} });
  await tick();
  t.mock.timers.tick(10_000);
  await tick();
  assert.equal(c.status, "online");
  assert.equal(FakeSocket.all.length, 1);

  // a request goes unanswered (the signal went): a ping at once, unanswered too: dropped
  const lost = c.request("send", { conversationId: "c1" });
  t.mock.timers.tick(20_000);
  await assert.rejects(lost, { code: "timeout" });
  assert.equal(ws.sent.at(-1).type, "ping", "asked at once");
  t.mock.timers.tick(10_000);
  await tick();
  assert.equal(c.status, "offline", "no longer says online");
  t.mock.timers.tick(2_000);
  await tick();
  assert.equal(FakeSocket.all.length, 2, "connecting again");
  assert.equal(FakeSocket.all[1].sent[0].type, "auth");
  c.stop();
});

test("stopping answers what waits at once (offline), not at the request's 20 s timeout", async () => {
  FakeSocket.all = [];
  const c = new ParlorClient({ url: "ws://x/ws", WebSocket: FakeSocket, random: () => 0 });
  c.start({ register: "Ana" });
  await tick();
  const ws = FakeSocket.all[0];
  ws.serverSends({ type: "result", re: ws.sent[0].id, result: { user, token: "T", installedApps: [] } });
  await tick();
  const pending = c.request("conversations.list");
  c.stop();
  await assert.rejects(pending, { code: "offline" });
  assert.equal(c.waiting.size, 0);
});
