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
