// The SDK's NewestMessages: the newest message of each session an app was shown,
// whatever order they arrive in (a tapped old bubble after a friend's move).
import { test } from "node:test";
import assert from "node:assert/strict";
import { NewestMessages, Message, Session } from "../../Public/sdk/index.js";

function received(sessionId, version, url) {
  return Message.fromSnapshot({ ref: url, url, layout: {}, session: { id: sessionId, version }, isPending: false, live: false });
}

test("keeps the newest message per session, whatever order they are noted in", () => {
  const newest = new NewestMessages();
  const v2 = received("game", 2, "?v2");
  const v1 = received("game", 1, "?v1");
  const other = received("list", 5, "?list");
  assert.equal(newest.note(v2), 2);
  assert.equal(newest.note(v1), 1, "an older message still says which version it holds");
  newest.note(other);
  assert.equal(newest.newest("game"), v2);
  assert.equal(newest.newest("list"), other);
  assert.equal(newest.newest("unknown"), null);
  assert.equal(newest.newerThan("game", 1), v2, "someone moved on since version 1");
  assert.equal(newest.newerThan("game", 2), null);
  assert.equal(newest.newerThan("unknown", 0), null);
  const v2again = received("game", 2, "?v2b");
  newest.note(v2again);
  assert.equal(newest.newest("game"), v2again, "the same version seen later replaces it (our own send's answer)");
});

test("a message without a session holds version 0 and is not kept; one without sessionVersion reads its session's", () => {
  const newest = new NewestMessages();
  assert.equal(newest.note(new Message()), 0);
  const mine = new Message(new Session("drawn", 3)); // composed here: no sessionVersion yet
  assert.equal(newest.note(mine), 3);
  assert.equal(newest.newest("drawn"), mine);
});
