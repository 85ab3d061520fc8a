import { test } from "node:test";
import assert from "node:assert/strict";
import { applyPlaying, othersPlaying, playingNow } from "../../Public/js/state/playing.js";

test("playing events fold into who has which session open", () => {
  let held = applyPlaying(undefined, { sessions: { s1: ["ana"] } });
  held = applyPlaying(held, { sessionId: "s1", userId: "ben", playing: true });
  held = applyPlaying(held, { sessionId: "s1", userId: "ben", playing: true }); // a repeat counts once
  held = applyPlaying(held, { sessionId: "s2", userId: "ana", playing: true });
  assert.deepEqual(held, { s1: ["ana", "ben"], s2: ["ana"] });
  held = applyPlaying(held, { sessionId: "s2", userId: "ana", playing: false });
  assert.deepEqual(held, { s1: ["ana", "ben"] }, "a session nobody plays is forgotten");
  assert.deepEqual(othersPlaying(held, "s1", "ana"), ["ben"], "the viewer is not shown to themselves");
  assert.deepEqual(othersPlaying(undefined, "s1", "ana"), []);
  // a new snapshot replaces what was held
  assert.deepEqual(applyPlaying(held, { sessions: {} }), {});
});

test("only a session open in the expanded pane of a visible page is playing", () => {
  const pane = { active: true, style: "expanded", conversationId: "c1", selected: { session: { id: "s1", version: 2 } } };
  assert.deepEqual(playingNow(pane), { conversationId: "c1", sessionId: "s1" });
  assert.equal(playingNow({ ...pane, style: "compact" }), null);
  assert.equal(playingNow(pane, false), null, "a hidden tab plays nothing");
  assert.equal(playingNow({ ...pane, selected: { session: null } }), null, "a message without a session");
  assert.equal(playingNow({ ...pane, selected: null }), null);
  assert.equal(playingNow({ active: false }), null);
});

// The page's own mark, against a fake client.
import { Store } from "../../Public/js/store.js";
import { PlayingMarks } from "../../Public/js/sync/playing.js";
import { ProtocolError } from "../../Public/js/net/client.js";
import { FakeClient } from "./fake-client.mjs";

const tick = () => new Promise((r) => setImmediate(r));
const expanded = (sid) => ({ active: true, style: "expanded", conversationId: "c1", selected: { session: { id: sid, version: 1 } } });
const marks = (client) => client.requests.filter((r) => r.type === "playing").map((r) => `${r.fields.sessionId}:${r.fields.playing}`);

test("the page says which session its expanded pane shows, stops when it closes, says it again after a reconnect", async () => {
  const store = new Store();
  const client = new FakeClient();
  new PlayingMarks(client, store);
  store.update(["pane"], () => ({ pane: expanded("s1") }));
  store.update(["pane"], () => ({ pane: expanded("s1") })); // nothing new
  store.update(["pane"], () => ({ pane: expanded("s2") })); // another session: stop one, start the other
  store.update(["pane"], () => ({ pane: { ...expanded("s2"), style: "compact" } }));
  assert.deepEqual(marks(client), ["s1:true", "s1:false", "s2:true", "s2:false"]);

  store.update(["pane"], () => ({ pane: expanded("s3") }));
  client.serverSends("playing", { conversationId: "c1", sessionId: "s3", userId: "uAna", playing: true });
  assert.deepEqual(store.state.playing, { c1: { s3: ["uAna"] } });
  // the connection drops: the server ended the mark, and what others do is unknown now
  client.setStatus("offline");
  assert.deepEqual(store.state.playing, {});
  client.setStatus("online");
  client.dispatchEvent(new CustomEvent("ready", { detail: {} }));
  assert.deepEqual(marks(client).slice(4), ["s3:true", "s3:true"]);
  store.update(["pane"], () => ({ pane: { active: false } })); // closed: no more repeats
  assert.deepEqual(marks(client).slice(6), ["s3:false"]);
});

test("refused as rate limited, the page waits the time given and then says what its pane shows by then, once", async () => {
  const store = new Store();
  const client = new FakeClient();
  new PlayingMarks(client, store);
  store.update(["pane"], () => ({ pane: expanded("s1") }));
  client.requests[0].reject(new ProtocolError({ code: "rate_limited", message: "slow down", retryAfterMs: 30 }));
  await tick();
  store.update(["pane"], () => ({ pane: { active: false } }));
  store.update(["pane"], () => ({ pane: expanded("s2") }));
  assert.deepEqual(marks(client), ["s1:true"], "nothing during the wait");
  await new Promise((r) => setTimeout(r, 60));
  assert.deepEqual(marks(client), ["s1:true", "s2:true"]);
  store.update(["pane"], () => ({ pane: { active: false } }));
});

test("what the live region says when the faces on a bubble change", async () => {
  const { playersNews } = await import("../../Public/js/views/players.js");
  const name = (u) => ({ k: "Kate", j: "John", a: "Ana" })[u];
  assert.deepEqual(playersNews([], ["k"], name, "Party list"), ["Kate has Party list open."]);
  assert.deepEqual(playersNews(["k"], ["k", "j", "a"], name, "Party list"), ["John and Ana have Party list open."]);
  assert.deepEqual(playersNews(["k", "j"], ["j"], name, "WenderPic"), ["Kate closed WenderPic."]);
  assert.deepEqual(playersNews(["k"], ["j"], name, "WenderPic"), ["John has WenderPic open.", "Kate closed WenderPic."]);
  assert.deepEqual(playersNews(["k"], ["k"], name, "WenderPic"), [], "nothing new: nothing said again");
});
