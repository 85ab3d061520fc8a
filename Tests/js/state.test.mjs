import { test } from "node:test";
import assert from "node:assert/strict";
import { stage, unstage, sendPlan, appendText, storableStaged, keptStaged } from "../../Public/js/state/composer.js";
import { parseRoute, inviteLink, conversationHash } from "../../Public/js/state/route.js";
import { substituteParticipants, mentionedParticipants, initials } from "../../Public/js/state/text.js";
import { backoffDelay } from "../../Public/js/net/backoff.js";
import { upsertConversation, touchConversation, applyMember, applyPresence, membersLine } from "../../Public/js/state/conversations.js";
import { unreadLabel, previewOf, counted, someNames, attributed } from "../../Public/js/state/format.js";
import { attachmentBox, spokenLine } from "../../Public/js/views/bubble.js";
import { cleanManifest } from "../../Public/js/apps/registry.js";

const P1 = "9d0c0c4e-1111-4222-8333-444455556666";
const P2 = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";

test("an app has one staged message; a new insert replaces it", () => {
  const a1 = { key: "1", message: { kind: "app", appId: "x", url: "?1" } };
  const a2 = { key: "2", message: { kind: "app", appId: "x", url: "?2" } };
  const s1 = { key: "3", message: { kind: "sticker", image: "h" } };
  let r = stage([], a1);
  r = stage(r.staged, s1);
  r = stage(r.staged, a2);
  assert.equal(r.replaced, a1);
  assert.deepEqual(r.staged.map((s) => s.key), ["2", "3"]);
  assert.deepEqual(unstage(r.staged, "2").map((s) => s.key), ["3"]);
  assert.deepEqual(sendPlan(r.staged, "  hi "), [a2.message, s1.message, { kind: "text", text: "  hi " }]);
  assert.deepEqual(sendPlan([], "   "), []);
  // what the server refuses is not sent: control characters (a pasted form feed), a text that draws nothing
  assert.deepEqual(sendPlan([], "page\fbreak\u0085\tand\r\nlines"), [{ kind: "text", text: "pagebreak\tand\r\nlines" }]);
  assert.deepEqual(sendPlan([], " \u200b\u2800\u0301\n"), []);
  assert.equal(appendText("hello", "world"), "hello world");
  assert.equal(appendText("", "world"), "world");
});

test("routes", () => {
  assert.deepEqual(parseRoute(""), { name: "home" });
  assert.deepEqual(parseRoute("#/c/c123"), { name: "conversation", id: "c123" });
  assert.deepEqual(parseRoute("#/join/AbC-_9"), { name: "join", code: "AbC-_9" });
  assert.deepEqual(parseRoute("#/c/abc", "?invite=XYZ"), { name: "join", code: "XYZ" });
  assert.deepEqual(parseRoute("#/c/%E0%A4"), { name: "conversation", id: "%E0%A4" });
  assert.equal(inviteLink("http://h:1", "a/b"), "http://h:1/#/join/a%2Fb");
  assert.equal(conversationHash("c1"), "#/c/c1");
});

test("$<participant id> gets a name; unknown ones say someone", () => {
  const names = { [P1]: "Ana" };
  const nameOf = (id) => names[id];
  assert.equal(substituteParticipants(`$${P1} drew, $${P2.toUpperCase()} guessed`, nameOf), "Ana drew, someone guessed");
  assert.equal(substituteParticipants("costs $5", nameOf), "costs $5");
  assert.deepEqual(mentionedParticipants(`$${P1} and $${P2}`), [P1, P2]);
  assert.equal(initials("ana belén"), "AB");
  assert.equal(initials("  "), "?");
});

test("backoff grows, is jittered and capped", () => {
  assert.equal(backoffDelay(0, { random: () => 0 }), 250);
  assert.equal(backoffDelay(0, { random: () => 1 }), 500);
  assert.equal(backoffDelay(3, { random: () => 1 }), 4000);
  assert.equal(backoffDelay(50, { random: () => 1 }), 15000);
  assert.ok(backoffDelay(50, { random: () => 0 }) >= 7500);
});

test("conversation list: upsert, activity to the top, members, presence", () => {
  const a = { id: "a", title: "A", lastSeq: 1, members: [{ userId: "u1", name: "Ana" }] };
  const b = { id: "b", title: "B", lastSeq: 5, members: [] };
  let list = upsertConversation(upsertConversation([], b), a);
  assert.deepEqual(list.map((c) => c.id), ["a", "b"]);
  list = touchConversation(list, "b", { seq: 6, kind: "text", text: "hi" });
  assert.deepEqual(list.map((c) => c.id), ["b", "a"]);
  assert.equal(list[0].lastSeq, 6);
  list = touchConversation(list, "a", { seq: 1, kind: "text", text: "old" });
  assert.deepEqual(list.map((c) => c.id), ["a", "b"]);
  // an old message (a new device's resume replays it) goes where its time puts it
  let order = [{ id: "quiet", createdAt: 200 }, { id: "chatty", createdAt: 100 }];
  order = touchConversation(order, "chatty", { seq: 3, kind: "text", text: "before quiet was made", createdAt: 150 });
  assert.deepEqual(order.map((c) => c.id), ["quiet", "chatty"]);
  order = touchConversation(order, "chatty", { seq: 4, kind: "text", text: "now", createdAt: 300 });
  assert.deepEqual(order.map((c) => c.id), ["chatty", "quiet"]);
  list = applyMember(list, "a", { userId: "u2", name: "Ben" });
  list = applyMember(list, "a", { userId: "u1", name: "Ana B." });
  assert.deepEqual(list[0].members.map((m) => m.name), ["Ana B.", "Ben"]);
  assert.equal(list[0].memberCount, 2, "a join is counted at once; a rename is not a join");
  assert.equal(membersLine(list[0].members, "u1"), "Ben");
  let online = applyPresence(new Set(), { online: ["u1"] });
  online = applyPresence(online, { userId: "u2", online: true });
  online = applyPresence(online, { userId: "u1", online: false });
  assert.deepEqual([...online], ["u2"]);
});

test("the member count follows joins, also when the list it came with was cut short", () => {
  const room = (members, memberCount) => [{ id: "r", title: "R", members, memberCount }];
  let list = applyMember(room([{ userId: "u1", name: "Ana" }], 1), "r", { userId: "u2", name: "Ben" });
  list = applyMember(list, "r", { userId: "u3", name: "Cy" });
  assert.equal(list[0].memberCount, 3);
  // 200 listed of 250: an unlisted name may be an old member, so the count is not raised past the list
  const many = Array.from({ length: 200 }, (_, i) => ({ userId: `u${i}`, name: `N${i}` }));
  assert.equal(applyMember(room(many, 250), "r", { userId: "u230", name: "Old" })[0].memberCount, 250);
  assert.equal(counted(1, "member"), "1 member");
  assert.equal(counted(3, "member"), "3 members");
  assert.equal(counted(0, "new message", "new messages"), "0 new messages");
});

test("labels", () => {
  assert.equal(unreadLabel(0), "");
  assert.equal(unreadLabel(120), "99+");
  assert.equal(previewOf({ kind: "app", appId: "x", summaryText: "Ana drew" }), "Ana drew");
  assert.equal(previewOf({ kind: "text", text: "a\n\nb" }), "a b");
});

test("lines cut for the list and for screen readers keep an emoji at the cut whole or leave it out", () => {
  const preview = previewOf({ kind: "text", text: `${"x".repeat(119)}😀😀` });
  assert.equal(preview, "x".repeat(119), "120 units would end in half an emoji");
  const spoken = spokenLine({ kind: "text", sender: "uBen", text: `${"y".repeat(298)}🇧🇪 and on` }, { nameOf: () => "Ben" });
  assert.ok(spoken.isWellFormed() && spoken.endsWith("y…"), spoken.slice(-4));
  const app = cleanManifest("quiz", { id: "quiz", name: "Quiz", description: `${"d".repeat(299)}🎲`, icon: "icon.png", entry: "index.html" });
  assert.equal(app.description, "d".repeat(299));
});

test("an app's line is its sender's own only when it starts with their name as a word", () => {
  assert.equal(attributed("Ana: I'm leaving", "A"), "A: Ana: I'm leaving", "a member named A does not pass for Ana");
  assert.equal(attributed("Ana drew a WenderPic", "Ana"), "Ana drew a WenderPic");
  assert.equal(attributed("Ana, Ben and Cy are in", "Ana"), "Ana, Ben and Cy are in");
  assert.equal(attributed("Ana", "Ana"), "Ana");
  assert.equal(attributed("Anabel resigned", "Ana", "You"), "You: Anabel resigned");
});

test("staged items survive a reload as data: the app frame is left behind, its ref kept; junk is dropped", () => {
  const frame = { hook() {} };
  const app = { key: "k1", message: { kind: "app", appId: "wenderpic", url: "?w=cat", layout: { image: "a".repeat(64) } }, appId: "wenderpic", ref: "r1", frame };
  const sticker = { key: "k2", message: { kind: "sticker", image: "b".repeat(64), description: "sun" } };
  const kept = JSON.parse(JSON.stringify(storableStaged({ c1: [app, sticker], c2: [] })));
  assert.deepEqual(Object.keys(kept), ["c1"], "empty composers are not kept");
  assert.equal(kept.c1[0].frame, undefined);
  assert.equal(kept.c1[0].ref, "r1");
  assert.deepEqual(keptStaged(kept), kept);
  assert.deepEqual(keptStaged({ c1: [null, { key: 1, message: {} }, { key: "x" }, { key: "y", message: { kind: 3 } }, sticker] }), { c1: [sticker] });
  for (const junk of [null, "x", [], 7, { c1: "no" }]) assert.deepEqual(keptStaged(junk), {});
});

test("a big room's header names three people and counts the rest", () => {
  assert.equal(someNames(["Ben"]), "Ben");
  assert.equal(someNames(["Ben", "Cy", "Dee"]), "Ben, Cy, Dee");
  const forty = Array.from({ length: 40 }, (_, i) => `P${i}`);
  assert.equal(someNames(forty), "P0, P1, P2 and 37 more");
  // members not yet known by name still count
  assert.equal(someNames(["Ben", "Cy"], 199), "Ben, Cy and 197 more");
  assert.equal(someNames(forty, 199), "P0, P1, P2 and 196 more");
});

test("a sent picture's box is its size brought within the bubble's, before the picture comes", () => {
  assert.deepEqual(attachmentBox({ width: 4032, height: 3024 }), { width: "260px", height: "195px" });
  assert.deepEqual(attachmentBox({ width: 3024, height: 4032 }), { width: "195px", height: "260px" });
  assert.deepEqual(attachmentBox({ width: 3, height: 2 }), { width: "3px", height: "2px" }); // never enlarged
  assert.deepEqual(attachmentBox({ width: 10000, height: 1 }), { width: "260px", height: "1px" });
  assert.deepEqual(attachmentBox({}), {}); // sent before sizes: the picture's own
});
