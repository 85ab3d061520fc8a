// The network client against a fake WebSocket: auth first, request/answer by
// id, invalid frames dropped, reconnect after a drop.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ParlorClient } from "../../Public/js/net/client.js";

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

test("an unknown token stops the client and says so", async () => {
  FakeSocket.all = [];
  const c = new ParlorClient({ url: "ws://x/ws", WebSocket: FakeSocket });
  let failed = null;
  c.addEventListener("authfailed", (e) => (failed = e.detail));
  c.start({ token: "bad" });
  await tick();
  const ws = FakeSocket.all[0];
  ws.serverSends({ type: "error", re: ws.sent[0].id, code: "invalid_token", message: "unknown" });
  await tick();
  await tick();
  assert.equal(failed.code, "invalid_token");
  assert.equal(c.stopped, true);
  assert.equal(FakeSocket.all.length, 1);
});
