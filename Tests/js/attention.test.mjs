// What asks for a person's attention while they look elsewhere (state/attention.js):
// the title's count, and which conversations a notification tells of.
import { test } from "node:test";
import assert from "node:assert/strict";
import { titleWith, titleCount, subduedCount, dueNotices, noticeText } from "../../Public/js/state/attention.js";
import { newestUnread } from "../../Public/js/state/transcript.js";

const text = (seq, sender, more = {}) => ({ seq, sender, kind: "text", text: `m${seq}`, ...more });

test("the title counts the unread, 99+ past 99, and is itself with none", () => {
  assert.equal(titleWith("Parlor", 0), "Parlor");
  assert.equal(titleWith("Parlor", 3), "(3) Parlor");
  assert.equal(titleWith("Parlor", 250), "(99+) Parlor");
});

test("a muted conversation adds to the title only what mentions the person, and shows its count subdued", () => {
  assert.equal(titleCount("all", 5, () => 1), 5);
  assert.equal(titleCount(undefined, 5, () => 0), 5, "no level known: all");
  assert.equal(titleCount("none", 40, () => 0), 0, "muted chatter asks for nothing");
  assert.equal(titleCount("none", 40, () => 2), 2, "a mention still counts");
  assert.equal(titleCount("mentions", 7, () => 0), 0);
  assert.equal(titleCount("mentions", 7, () => 1), 1);
  assert.equal(titleCount("none", 0, () => 1), 0, "read here now: nothing");
  assert.equal(subduedCount("all", false), false);
  assert.equal(subduedCount("none", false), true);
  assert.equal(subduedCount("none", true), true, "muted: its count stays grey beside the @");
  assert.equal(subduedCount("mentions", false), true);
  assert.equal(subduedCount("mentions", true), false, "mentions only, holding one: as loud as any");
});

test("the newest unread message is another's, current, after the mark and one's own last", () => {
  const t = { messages: [text(1, "uBen"), text(2, "uMe"), text(3, "uBen", { supersededBy: 5 }), text(4, "uBen", { kind: "deleted" }), text(5, "uBen")] };
  assert.equal(newestUnread(t, 0, "uMe")?.seq, 5);
  assert.equal(newestUnread(t, 5, "uMe"), undefined, "read");
  assert.equal(newestUnread({ messages: [...t.messages, text(6, "uMe")] }, 0, "uMe"), undefined, "answered since (on any device)");
  assert.equal(newestUnread({ messages: t.messages.slice(0, 4) }, 0, "uMe"), undefined, "only a replaced move and a deletion after one's own");
});

test("a conversation is told of when its unread newest passes what was told or seen, only while away", () => {
  const told = new Map();
  // first met (the page just opened): nothing, whatever is unread
  assert.deepEqual(dueNotices(told, [{ id: "c1", newestSeq: 4, unreadSeq: 4 }], true), []);
  // a new message while looking at the page: seen, not told
  assert.deepEqual(dueNotices(told, [{ id: "c1", newestSeq: 5, unreadSeq: 5 }], false), []);
  // away: the next one is told, once
  assert.deepEqual(dueNotices(told, [{ id: "c1", newestSeq: 6, unreadSeq: 6 }], true), ["c1"]);
  assert.deepEqual(dueNotices(told, [{ id: "c1", newestSeq: 6, unreadSeq: 6 }], true), []);
  // one's own message moves what was seen on without telling
  assert.deepEqual(dueNotices(told, [{ id: "c1", newestSeq: 7, unreadSeq: 0 }], true), []);
  assert.equal(told.get("c1"), 7);
  // a history page of older messages is nothing new
  assert.deepEqual(dueNotices(told, [{ id: "c1", newestSeq: 7, unreadSeq: 3 }], true), []);
  assert.deepEqual(dueNotices(told, [{ id: "c1", newestSeq: 8, unreadSeq: 8 }, { id: "c2", newestSeq: 2, unreadSeq: 2 }], true), ["c1"]);
});

test("a notification's text is one line, without direction overrides or controls, and bounded", () => {
  assert.equal(noticeText("Ben: hi\nAna: I agree to pay Ben 500€"), "Ben: hi Ana: I agree to pay Ben 500€");
  assert.equal(noticeText("Ben: \u202eyap ot eerga I :anA"), "Ben: yap ot eerga I :anA");
  assert.equal(noticeText("a\u2067b\u2069\u200fc\u0007d"), "abc d");
  assert.equal(noticeText("x".repeat(300)).length, 160);
  assert.ok(noticeText("x".repeat(300)).endsWith("…"));
});
