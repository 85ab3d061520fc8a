// Direct conversations and blocks as state (Public/js/state/direct.js), and the store's
// rule that titles a direct conversation after its other person, whatever changed it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { otherPerson, directTitle, nameDirect, directWith, blockedIds, blockedOther, blockedProblem } from "../../Public/js/state/direct.js";
import { upsertConversation, applyMember, renameEverywhere } from "../../Public/js/state/conversations.js";
import { parseFrame, resultProblem } from "../../Public/js/net/frames.js";
import { installFakeStorage } from "./fake-storage.mjs";
import { signedInStore } from "./signed-in-store.mjs";

const dm = (extra = {}) => ({
  id: "c9", title: "", lastSeq: 0, direct: true, directUserIds: ["u1", "u2"], memberCount: 2,
  members: [{ userId: "u1", name: "Ana" }, { userId: "u2", name: "Ben" }], ...extra,
});
const group = { id: "c1", title: "Book club", lastSeq: 3, members: [{ userId: "u1", name: "Ana" }] };

test("the other person of a direct conversation; none for a group", () => {
  assert.equal(otherPerson(dm(), "u1"), "u2");
  assert.equal(otherPerson(dm(), "u2"), "u1");
  assert.equal(otherPerson(group, "u1"), null);
});

test("each side sees the other's name, as now named; one who left by the name last known", () => {
  assert.equal(directTitle(dm(), "u1"), "Ben");
  assert.equal(directTitle(dm(), "u2"), "Ana");
  const renamed = renameEverywhere([dm()], { id: "u2", name: "Deleted account" });
  assert.equal(directTitle(renamed[0], "u1"), "Deleted account");
  const left = applyMember([dm()], "c9", { userId: "u2", name: "Ben" }, { change: "left", selfId: "u1" });
  assert.equal(directTitle(left[0], "u1"), "Ben");
  assert.equal(directTitle(dm({ members: [{ userId: "u1", name: "Ana" }] }), "u1"), "Direct conversation");
  // after a reload this page knows them only as the server names them
  const gone = dm({ members: [{ userId: "u1", name: "Ana" }], directNames: ["Ana", "Ben"] });
  assert.equal(directTitle(gone, "u1"), "Ben");
  assert.equal(directTitle({ ...gone, members: [{ userId: "u2", name: "Benjamin" }] }, "u1"), "Benjamin");
  assert.equal(directTitle(group, "u1"), "Book club");
});

test("naming keeps the list as it is when no title changes", () => {
  const list = nameDirect([group, dm()], "u1");
  assert.equal(list[1].title, "Ben");
  assert.equal(list[0], group);
  assert.equal(nameDirect(list, "u1"), list);
  assert.equal(nameDirect([dm()], undefined)[0].title, "");
});

test("the direct conversation with someone, unless left", () => {
  assert.equal(directWith([group, dm()], "u1", "u2")?.id, "c9");
  assert.equal(directWith([dm({ left: "left" })], "u1", "u2"), null);
});

test("a direct conversation with someone blocked says so to the blocker only", () => {
  const blocked = [{ userId: "u2", name: "Ben" }];
  assert.deepEqual(blockedOther(dm(), "u1", blocked), { userId: "u2", name: "Ben" });
  const gone = dm({ members: [{ userId: "u1", name: "Ana" }], directNames: ["Ana", "Benjamin"] });
  assert.deepEqual(blockedOther(gone, "u1", blocked), { userId: "u2", name: "Benjamin" }, "named as the conversation is");
  assert.equal(blockedOther(dm(), "u1", []), null, "unblocked");
  assert.equal(blockedOther(dm(), "u1", undefined), null);
  // Ben's page holds no list with Ana in it: nothing tells him
  assert.equal(blockedOther(dm(), "u2", []), null);
  assert.equal(blockedOther({ ...group, members: [{ userId: "u2", name: "Ben" }] }, "u1", blocked), null, "a group: its messages fold instead");
});

test("the block list, and its check", () => {
  assert.deepEqual([...blockedIds([{ userId: "u2", name: "Ben" }])], ["u2"]);
  assert.equal(blockedIds(undefined).size, 0);
  assert.equal(blockedProblem([{ userId: "u2", name: "Ben" }]), null);
  assert.equal(blockedProblem([{ userId: "u2" }]), "users");
  assert.equal(blockedProblem("u2"), "users");
  assert.equal(parseFrame(JSON.stringify({ type: "blocked", users: [{ userId: "u2", name: "Ben" }] })).ok, true);
  assert.equal(parseFrame(JSON.stringify({ type: "blocked", users: [{ name: "Ben" }] })).ok, false);
  assert.equal(resultProblem("conversations.direct", { conversation: dm() }), null);
  assert.equal(resultProblem("conversations.direct", { conversation: dm({ directNames: ["Ana", "Ben"] }) }), null);
  assert.equal(resultProblem("conversations.direct", { conversation: dm({ directNames: ["Ana"] }) }), "conversation.directNames");
  assert.equal(resultProblem("conversations.direct", { conversation: dm({ directNames: ["Ana", 2] }) }), "conversation.directNames");
  assert.equal(resultProblem("auth", { user: { id: "u1", name: "Ana" }, installedApps: [], blocked: [{ userId: 3 }] }), "blocked");
});

test("the store titles a direct conversation after the other person, following renames", () => {
  const storage = installFakeStorage();
  const store = signedInStore(storage, { id: "u1", name: "Ana" });
  store.update(["conversations"], (s) => ({ conversations: upsertConversation(s.conversations, dm()) }));
  assert.equal(store.conversation("c9").title, "Ben");
  // the server's copy again (title ""): still named
  store.update(["conversations"], (s) => ({ conversations: upsertConversation(s.conversations, dm()) }));
  assert.equal(store.conversation("c9").title, "Ben");
  store.update(["conversations"], (s) => ({ conversations: applyMember(s.conversations, "c9", { userId: "u2", name: "Benjamin" }, { change: "renamed" }) }));
  assert.equal(store.conversation("c9").title, "Benjamin");
});

test("a blocked person's message is folded in the list's line too", async () => {
  const { previewLine } = await import("../../Public/js/state/previews.js");
  const how = { selfId: "u1", group: true, appName: (a) => a, names: (t) => t, nameOf: () => "Ben", blocked: (id) => id === "u2" };
  assert.equal(previewLine({ kind: "text", text: "hello all", sender: "u2" }, how), "Message from someone you blocked");
  assert.equal(previewLine({ kind: "text", text: "hi", sender: "u3" }, how), "Ben: hi");
});

test("a block or an unblock counts the messages held back from a reader far up again", async () => {
  const { People } = await import("../../Public/js/sync/direct.js");
  const { heldBack } = await import("../../Public/js/state/transcript.js");
  const { FakeClient } = await import("./fake-client.mjs");
  const storage = installFakeStorage();
  const store = signedInStore(storage, { id: "u1", name: "Ana" });
  const people = new People(new FakeClient(), store, { subscribe: async () => {} });
  let t = { ...store.transcript("c1"), messages: [{ seq: 1, sender: "u2", kind: "text", text: "a", createdAt: 1 }], lastSeq: 1 };
  for (const seq of [2, 3]) t = heldBack(t, { seq, sender: "u3", kind: "text", text: "@Ana", mentions: ["u1"], createdAt: seq }, undefined, "u1");
  store.setTranscript("c1", t);
  assert.equal(store.transcript("c1").heldBackNew, 2);
  people.set([{ userId: "u3", name: "Eve" }]);
  assert.deepEqual([store.transcript("c1").heldBackNew, store.transcript("c1").heldBackMentions], [0, 0], "Eve's, blocked since");
  people.set([]);
  assert.deepEqual([store.transcript("c1").heldBackNew, store.transcript("c1").heldBackMentions], [2, 2]);
});
