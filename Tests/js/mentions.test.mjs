// Mentions (state/mentions.js): what "@" offers as one types, what picking puts in the
// text, whom a sent text names, the parts a bubble marks, and who is told of what
// by their notification level; frames carrying them (net/frames.js), edits (state/edits.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  mentionQuery, mentionChoices, insertMention, mentionsIn, mentionsMe, mentionParts, withMentions, wantsNotice, unreadMention, unreadMentions,
} from "../../Public/js/state/mentions.js";
import { edited } from "../../Public/js/state/edits.js";
import { messageProblem, parseFrame } from "../../Public/js/net/frames.js";

const members = [
  { userId: "u1", name: "Ana" }, { userId: "u2", name: "Ben" }, { userId: "u3", name: "Cy Lee" },
  { userId: "u4", name: "Anabel" }, { userId: "u5", name: "Élodie" }, { userId: "u6", name: "Mary Ann" },
];

test("an @ at a word's start, before the caret, asks; an e-mail address does not", () => {
  assert.deepEqual(mentionQuery("hi @a", 5), { start: 3, query: "a" });
  assert.deepEqual(mentionQuery("@", 1), { start: 0, query: "" });
  assert.deepEqual(mentionQuery("(@Cy L", 6), { start: 1, query: "Cy L" });
  assert.equal(mentionQuery("ana@example", 11), null);
  assert.equal(mentionQuery("@a\nb", 4), null);
  assert.equal(mentionQuery("@ a", 3), null);
  assert.equal(mentionQuery("hi @ana and", 3), null); // the caret before the @
});

test("choices: names that begin with it first, then a later word; case and accents aside; not oneself", () => {
  assert.deepEqual(mentionChoices(members, "a", "u2").map((m) => m.name), ["Ana", "Anabel", "Mary Ann"]);
  assert.deepEqual(mentionChoices(members, "ANA", "u1").map((m) => m.name), ["Anabel"]);
  assert.deepEqual(mentionChoices(members, "elo", "u1").map((m) => m.name), ["Élodie"]);
  assert.deepEqual(mentionChoices(members, "lee", "u1").map((m) => m.name), ["Cy Lee"]);
  assert.equal(mentionChoices(members, "", "u1").length, 5);
  assert.equal(mentionChoices(Array.from({ length: 30 }, (_, i) => ({ userId: `x${i}`, name: `Al ${i}` })), "al").length, 8);
  assert.deepEqual(mentionChoices(members, "zz", "u1"), []);
});

test("picking puts @Name and one space where the query was, the caret after it", () => {
  assert.deepEqual(insertMention("hi @a", 3, 5, "Ana"), { text: "hi @Ana ", caret: 8 });
  assert.deepEqual(insertMention("@cy see you", 0, 3, "Cy Lee"), { text: "@Cy Lee see you", caret: 7 });
});

test("a text names those whose @Name it holds, not as the start of a longer word", () => {
  assert.deepEqual(mentionsIn("@Ana and @Cy Lee!", members), ["u1", "u3"]);
  assert.deepEqual(mentionsIn("@Anabel hi", members), ["u4"]);
  assert.deepEqual(mentionsIn("ana, @ana, Ana", members), []);
  assert.deepEqual(withMentions([{ kind: "sticker", image: "h" }, { kind: "text", text: "@Ben hi", replyTo: 2 }], members),
    [{ kind: "sticker", image: "h" }, { kind: "text", text: "@Ben hi", replyTo: 2, mentions: ["u2"] }]);
  assert.deepEqual(withMentions([{ kind: "text", text: "no one" }], members), [{ kind: "text", text: "no one" }]);
  const many = Array.from({ length: 25 }, (_, i) => ({ userId: `x${i}`, name: `P${i}` }));
  assert.equal(mentionsIn(many.map((m) => `@${m.name}`).join(" "), many).length, 20);
});

test("a bubble marks each @Name of its reader, as text", () => {
  assert.deepEqual(mentionParts("hey @Ana, and @Ana!", "Ana"), ["hey ", { mention: "@Ana" }, ", and ", { mention: "@Ana" }, "!"]);
  assert.deepEqual(mentionParts("@Anabel", "Ana"), ["@Anabel"]);
  assert.deepEqual(mentionParts("<b>@Ana</b>", "Ana"), ["<b>", { mention: "@Ana" }, "</b>"]);
  assert.deepEqual(mentionParts("plain", ""), ["plain"]);
});

test("who is told: all, mentions only those that mention them, none nothing", () => {
  const mention = { mentions: ["u1"] };
  const other = { text: "hi" };
  assert.equal(wantsNotice(undefined, other, "u1"), true);
  assert.equal(wantsNotice("all", other, "u1"), true);
  assert.equal(wantsNotice("mentions", other, "u1"), false);
  assert.equal(wantsNotice("mentions", mention, "u1"), true);
  assert.equal(wantsNotice("mentions", mention, "u2"), false);
  assert.equal(wantsNotice("none", mention, "u1"), false);
  assert.equal(mentionsMe(mention, undefined), false);
});

test("the list's @: an unread message of someone else's that mentions one", () => {
  const msgs = [{ seq: 1, sender: "u2", mentions: ["u1"] }, { seq: 2, sender: "u2" }, { seq: 3, sender: "u1", mentions: ["u1"] }];
  assert.equal(unreadMention(msgs, 0, "u1"), true);
  assert.equal(unreadMention(msgs, 1, "u1"), false); // read up to it; one's own does not count
  assert.equal(unreadMentions([...msgs, { seq: 4, sender: "u3", mentions: ["u1", "u2"] }], 0, "u1"), 2);
  // someone blocked who names one is not heard of
  assert.equal(unreadMentions([...msgs, { seq: 4, sender: "u3", mentions: ["u1"] }], 0, "u1", new Set(["u3"])), 1);
  assert.equal(unreadMention(msgs, 0, "u1", new Set(["u2"])), false);
});

test("an edit record brings its text's mentions, or takes them away", () => {
  const m = { seq: 1, kind: "text", text: "@Ana hi", mentions: ["u1"], editCount: 0 };
  assert.deepEqual(edited(m, { seq: 5, edits: 1, createdAt: 9, text: "@Ben hi", mentions: ["u2"], editCount: 1 }).mentions, ["u2"]);
  assert.equal("mentions" in edited(m, { seq: 5, edits: 1, createdAt: 9, text: "hi", editCount: 1 }), false);
  // a scrubbed record (no text) leaves them
  assert.deepEqual(edited(m, { seq: 5, edits: 1, createdAt: 9, editCount: 1 }).mentions, ["u1"]);
});

test("frames: mentions are a list of ids, notify one of three levels", () => {
  const base = { seq: 1, clientId: "k", sender: "u1", createdAt: 1, kind: "text", text: "@Ana" };
  assert.equal(messageProblem({ ...base, mentions: ["u1"] }), null);
  assert.equal(messageProblem({ ...base, mentions: "u1" }), "message.mentions");
  assert.equal(messageProblem({ ...base, mentions: [7] }), "message.mentions");
  assert.equal(parseFrame(JSON.stringify({ type: "notify", conversationId: "c1", notify: "mentions" })).ok, true);
  assert.equal(parseFrame(JSON.stringify({ type: "notify", conversationId: "c1", notify: "loud" })).ok, false);
});

test("a browser's own muted list becomes None on the server once, then goes; the level follows other devices", async () => {
  const { installFakeStorage } = await import("./fake-storage.mjs");
  const { signedInStore } = await import("./signed-in-store.mjs");
  const { NotifyLevels } = await import("../../Public/js/sync/notifyLevels.js");
  const storage = installFakeStorage();
  const store = signedInStore(storage, { id: "u1", name: "Ana" });
  store.update(["conversations"], () => ({ conversations: [
    { id: "c1", title: "Loud", members: [], notify: "all" },
    { id: "c2", title: "Quiet", members: [], notify: "none" },
    { id: "c3", title: "Flaky", members: [], notify: "all" },
  ] }));
  storage.setItem("parlor.muted.u1", JSON.stringify(["c1", "c2", "c3", "cgone"]));
  const asked = [];
  const client = { request: async (type, body) => {
    asked.push([type, body]);
    if (body.conversationId === "c3") throw new Error("offline");
    return {};
  } };
  const levels = new NotifyLevels(client, store);
  await levels.migrate("u1");
  // c2 was None already, cgone is no longer listed: only c1 and c3 asked
  assert.deepEqual(asked.map(([, b]) => [b.conversationId, b.notify]), [["c1", "none"], ["c3", "none"]]);
  assert.equal(store.conversation("c1").notify, "none");
  assert.equal(store.conversation("c3").notify, "all"); // refused: put back, and kept to try again
  assert.deepEqual(JSON.parse(storage.getItem("parlor.muted.u1")), ["c3"]);
  client.request = async () => ({});
  await levels.migrate("u1");
  assert.equal(storage.getItem("parlor.muted.u1"), null);
  levels.heard("c1", "mentions"); // set on another device
  assert.equal(store.conversation("c1").notify, "mentions");
});
