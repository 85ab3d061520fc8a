// The SDK against a fake host window: lifecycle hooks in order, insert/send
// settling, isPending, and a session conflict that rejects with the current
// message and is delivered through didReceive.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  MessagesAppViewController, Message, Session, TemplateLayout, SessionConflictError, urlWithQueryItems,
} from "../../Public/sdk/index.js";

function fakeWindow() {
  const on = { message: [], focus: [], keydown: [] };
  const toHost = [];
  const options = [];
  const host = { postMessage: (msg, opts) => { toHost.push(msg); options.push(opts); } };
  const win = {
    parent: host,
    addEventListener: (type, fn) => on[type].push(fn),
  };
  const listeners = on.message;
  const fromHost = (data) => listeners.forEach((fn) => fn({ source: host, data }));
  const fromStranger = (data) => listeners.forEach((fn) => fn({ source: {}, data }));
  const fire = (type, event = {}) => on[type].forEach((fn) => fn(event));
  return { win, toHost, options, fromHost, fromStranger, fire };
}

const lastCall = (sent) => sent.filter((m) => m.type === "call").at(-1);
const tick = () => new Promise((r) => setImmediate(r));
const snapshot = (version, url = "?n=1") => ({
  ref: `s${version}`, url, layout: { caption: "c" }, summaryText: null,
  session: { id: "game", version }, senderParticipantIdentifier: "pBen", isPending: false, live: false,
});

class Recorder extends MessagesAppViewController {
  constructor() {
    super();
    this.calls = [];
  }
  willBecomeActive(c) { this.calls.push(["willBecomeActive", this.presentationStyle, c.selectedMessage?.url]); }
  didBecomeActive() { this.calls.push(["didBecomeActive"]); }
  willTransition(style) { this.calls.push(["willTransition", style, this.presentationStyle]); }
  didTransition(style) { this.calls.push(["didTransition", style, this.presentationStyle]); }
  didReceive(m) { this.calls.push(["didReceive", m.url, m.session.version]); }
  didStartSending(m) { this.calls.push(["didStartSending", m.isPending, m === this.inserted]); }
  didCancelSending(m) { this.calls.push(["didCancelSending", m === this.inserted]); }
}

test("the SDK: lifecycle, insert, send and a session conflict", async () => {
  const { win, toHost, fromHost, fromStranger } = fakeWindow();
  // In a browser Recorder.start() uses the frame's window; here a fake one.
  const app2 = new Recorder();
  const { start } = await import("../../Public/sdk/controller.js");
  start(app2, win);
  assert.equal(toHost[0].method, "ready");

  let eventId = 1;
  const event = (name, data) => fromHost({ parlor: 1, type: "event", id: eventId++, name, data });
  const conv = { localParticipantIdentifier: "pAna", remoteParticipantIdentifiers: ["pBen"], selectedMessage: snapshot(1) };
  event("willBecomeActive", { style: "expanded", conversation: conv });
  await tick();
  event("didBecomeActive", {});
  await tick();
  fromStranger({ parlor: 1, type: "event", id: 99, name: "didBecomeActive", data: {} }); // ignored
  event("willTransition", { style: "compact" });
  event("didTransition", { style: "compact" });
  await tick();
  assert.deepEqual(app2.calls, [
    ["willBecomeActive", "expanded", "?n=1"],
    ["didBecomeActive"],
    ["willTransition", "compact", "expanded"],
    ["didTransition", "compact", "compact"],
  ]);
  const acks = toHost.filter((m) => m.type === "ack").map((m) => m.re);
  assert.deepEqual(acks, [1, 2, 3, 4], "every hook is acknowledged, the stranger's is not");

  const c = app2.activeConversation;
  assert.equal(c.localParticipantIdentifier, "pAna");
  assert.deepEqual([...c.remoteParticipantIdentifiers], ["pBen"]);
  const selected = c.selectedMessage;
  assert.equal(selected.session, Session.withId("game"), "one Session object per id");
  assert.equal(selected.session.version, 1);

  // send, based on version 1, but Ben already moved to version 2
  const move = new Message(selected.session);
  move.url = urlWithQueryItems({ n: 2 });
  move.layout = new TemplateLayout({ caption: "my move" });
  const sending = c.send(move);
  await tick();
  const call = lastCall(toHost);
  assert.equal(call.method, "send");
  assert.deepEqual(call.args.message, { url: "?n=2", layout: { caption: "my move" }, live: false, session: { id: "game", baseVersion: 1 } });
  event("didReceive", { message: snapshot(2, "?n=ben"), conversation: conv });
  fromHost({ parlor: 1, type: "reply", re: call.id, ok: false, error: { code: "session_conflict", message: "stale", current: snapshot(2, "?n=ben") } });
  const err = await sending.then(() => null, (e) => e);
  assert.ok(err instanceof SessionConflictError);
  assert.equal(err.current.url, "?n=ben");
  assert.equal(err.current.session.version, 2);
  assert.deepEqual(app2.calls.at(-1), ["didReceive", "?n=ben", 2]);
  assert.equal(selected.session.version, 2, "the app now knows the current version");

  // insert: pending until the user presses Send, then settled by the host's reply
  const m = new Message(selected.session);
  m.url = "?n=3";
  m.layout = new TemplateLayout({ caption: "again" });
  app2.inserted = m;
  const inserting = c.insert(m);
  await tick();
  const ins = lastCall(toHost);
  assert.equal(ins.method, "insert");
  assert.equal(ins.args.message.session.baseVersion, 2);
  assert.equal(m.isPending, true);
  event("didStartSending", { message: { ...snapshot(2, "?n=3"), ref: ins.args.ref, isPending: true } });
  await tick();
  assert.deepEqual(app2.calls.at(-1), ["didStartSending", false, true]);
  fromHost({ parlor: 1, type: "reply", re: ins.id, ok: true, value: { ...snapshot(3, "?n=3"), senderParticipantIdentifier: "pAna" } });
  assert.equal(await inserting, m);
  assert.equal(m.senderParticipantIdentifier, "pAna");
  assert.equal(selected.session.version, 3);

  // removed from the composer: didCancelSending, and the promise says so
  const m2 = new Message(new Session());
  m2.url = "?x";
  m2.layout = new TemplateLayout();
  app2.inserted = m2;
  const cancelled = c.insert(m2);
  await tick();
  const ins2 = lastCall(toHost);
  event("didCancelSending", { message: { ...snapshot(0, "?x"), ref: ins2.args.ref } });
  await tick();
  fromHost({ parlor: 1, type: "reply", re: ins2.id, ok: false, error: { code: "cancelled", message: "removed" } });
  await assert.rejects(cancelled, { code: "cancelled" });
  assert.deepEqual(app2.calls.at(-1), ["didCancelSending", true]);
  assert.equal(m2.session.version, 0);
});

test("messages need a url and a layout", async () => {
  const { win } = fakeWindow();
  const { start } = await import("../../Public/sdk/controller.js");
  const app = start(new MessagesAppViewController(), win);
  const { Conversation } = await import("../../Public/sdk/conversation.js");
  const c = new Conversation(app._bridge, { localParticipantIdentifier: "p", remoteParticipantIdentifiers: [] });
  await assert.rejects(c.insert(new Message()), TypeError);
  const m = new Message();
  m.url = "?a";
  await assert.rejects(c.insert(m), TypeError);
});

test("the SDK tells the host when its window gets the focus, and of an Escape it did not use", async () => {
  const { win, toHost, options, fire } = fakeWindow();
  const { start } = await import("../../Public/sdk/controller.js");
  start(new Recorder(), win);
  fire("focus");
  assert.deepEqual(toHost.at(-1), { parlor: 1, type: "notice", name: "focused" });
  assert.equal(options.at(-1).includeUserActivation, true, "the browser vouches for the gesture, not the app");
  fire("keydown", { key: "Escape", defaultPrevented: true });
  assert.equal(toHost.at(-1).name, "focused", "an Escape the app used stays in the app");
  fire("keydown", { key: "a" });
  fire("keydown", { key: "Escape", defaultPrevented: false });
  assert.deepEqual(toHost.at(-1), { parlor: 1, type: "notice", name: "escape" });
});

test("didFailSending: the refused move, a SessionConflictError with current and base, and whether the app took it", async () => {
  const { start } = await import("../../Public/sdk/controller.js");
  const conv = { localParticipantIdentifier: "pAna", remoteParticipantIdentifiers: ["pBen"], selectedMessage: null };
  const refused = { ...snapshot(4, "?mine"), session: { id: "late", version: 4 }, ref: null, senderParticipantIdentifier: "pAna" };
  const current = { ...snapshot(5, "?theirs"), session: { id: "late", version: 5 } };
  const base = { ...snapshot(4, "?base"), session: { id: "late", version: 4 } };

  class Merger extends MessagesAppViewController {
    didFailSending(message, error) {
      this.got = { message, error };
      return message.url === "?mine" ? undefined : false;
    }
  }
  const run = async (app, data) => {
    const { win, toHost, fromHost } = fakeWindow();
    start(app, win);
    fromHost({ parlor: 1, type: "event", id: 1, name: "willBecomeActive", data: { style: "compact", conversation: conv } });
    await tick();
    fromHost({ parlor: 1, type: "event", id: 2, name: "didFailSending", data: { message: refused, current, base: null, conversation: conv, ...data } });
    await tick();
    return toHost.find((m) => m.type === "ack" && m.re === 2).value;
  };

  const app = new Merger();
  assert.deepEqual(await run(app, { base }), { taken: true }, "a hook that returns nothing took it");
  const { message, error } = app.got;
  assert.equal(message.url, "?mine");
  assert.equal(message.baseVersion, 4, "based on version 4");
  assert.equal(message.sessionVersion, null, "never stored: it holds no version");
  assert.equal(message.isPending, false);
  assert.ok(error instanceof SessionConflictError);
  assert.equal(error.code, "session_conflict");
  assert.equal(error.current.url, "?theirs");
  assert.equal(error.base.url, "?base");
  assert.equal(message.session, error.current.session, "one Session object");
  assert.equal(message.session.version, 5, "moved up to the winner's version");

  const declines = new Merger();
  assert.deepEqual(await run(declines, { message: { ...refused, url: "?other" } }), { taken: false });
  assert.equal(declines.got.error.base, null);
  assert.deepEqual(await run(new MessagesAppViewController()), { taken: false }, "the default leaves it to the person");
});

test("a call whose arguments cannot be sent to the host rejects at once, and waits for nothing", async () => {
  const { AppBridge } = await import("../../Public/sdk/bridge.js");
  const { win } = fakeWindow();
  win.parent.postMessage = (msg) => structuredClone(msg); // what a browser does first
  const bridge = new AppBridge(win);
  await assert.rejects(bridge.call("storage.set", { key: "f", value: { a: () => 1 } }), (e) => e.name === "BridgeError" && e.code === "invalid_call");
  assert.equal(bridge.waiting.size, 0);
});

test("insertText over 10,000 characters is a BridgeError too_long, not a TypeError", async () => {
  const { Conversation } = await import("../../Public/sdk/conversation.js");
  const { win } = fakeWindow();
  const { AppBridge } = await import("../../Public/sdk/bridge.js");
  const c = new Conversation(new AppBridge(win), { localParticipantIdentifier: "p", remoteParticipantIdentifiers: [] });
  await assert.rejects(c.insertText("x".repeat(10001)), (e) => e.name === "BridgeError" && e.code === "too_long");
});

test("a misspelt layout field is said where it is written, not dropped on the way", async () => {
  const { TemplateLayout } = await import("../../Public/sdk/index.js");
  assert.throws(() => new TemplateLayout({ subCaption: "x" }), /"subCaption" is not a layout field/);
  assert.equal(new TemplateLayout({ caption: "c", image: null }).caption, "c");
});

test("shorten cuts between characters; the SDK sends an app's texts well-formed, half an emoji as U+FFFD", async () => {
  const { shorten, wellFormed } = await import("../../Public/sdk/index.js");
  assert.equal(shorten("short", 10), "short");
  assert.equal(shorten("abc😀def", 5), "abc…");
  assert.equal(shorten("abc😀def", 5, ""), "abc😀");
  assert.equal(shorten("abc 👩‍👩‍👧 d", 12), "abc…", "a family is one character: whole or not at all");
  assert.equal(shorten(`a${"\u0301".repeat(40)}`, 10, "").length, 10, "one character longer than the room: cut by code points, not to nothing");
  assert.equal(wellFormed("a\ud83cb\udc00"), "a\ufffdb\ufffd");

  const { Conversation } = await import("../../Public/sdk/conversation.js");
  const { AppBridge } = await import("../../Public/sdk/bridge.js");
  const { win, toHost } = fakeWindow();
  const c = new Conversation(new AppBridge(win), { localParticipantIdentifier: "p", remoteParticipantIdentifiers: [] });
  const m = new Message();
  m.url = "?e=a\ud83c";
  m.summaryText = "Kate added b\ud83c";
  m.layout = new TemplateLayout({ caption: "x\ud83c", subcaption: "\udf55y" });
  c.insert(m);
  await tick();
  const sent = lastCall(toHost).args.message;
  assert.deepEqual([sent.url, sent.summaryText, sent.layout.caption, sent.layout.subcaption], ["?e=a\ufffd", "Kate added b\ufffd", "x\ufffd", "\ufffdy"]);
  c.insertText("hi \ud83c");
  await tick();
  assert.equal(lastCall(toHost).args.text, "hi \ufffd");
});

test("storageDidChange: a key changed on another device reaches the app's hook; the default does nothing", async () => {
  const { start } = await import("../../Public/sdk/controller.js");
  const conv = { localParticipantIdentifier: "pAna", remoteParticipantIdentifiers: [], selectedMessage: null };
  class Watcher extends MessagesAppViewController {
    storageDidChange(key, value) { this.got = [key, value]; }
  }
  for (const app of [new Watcher(), new MessagesAppViewController()]) {
    const { win, toHost, fromHost } = fakeWindow();
    start(app, win);
    fromHost({ parlor: 1, type: "event", id: 1, name: "willBecomeActive", data: { style: "compact", conversation: conv } });
    fromHost({ parlor: 1, type: "event", id: 2, name: "didBecomeActive", data: {} });
    fromHost({ parlor: 1, type: "event", id: 3, name: "storageDidChange", data: { key: "owned", value: ["cat", "dog"] } });
    await tick();
    assert.ok(toHost.some((m) => m.type === "ack" && m.re === 3), "acknowledged, so the host goes on");
    if (app instanceof Watcher) assert.deepEqual(app.got, ["owned", ["cat", "dog"]]);
    fromHost({ parlor: 1, type: "event", id: 4, name: "storageDidChange", data: { key: "owned" } });
    await tick();
    if (app instanceof Watcher) assert.deepEqual(app.got, ["owned", null], "removed: null");
  }
});
