// The conversation list's previews (#13 item 5): names put on "$<participant>"
// for readers without the app once the map arrives, kept in the store, and
// restored from this browser's copy after a reload.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Store } from "../../Public/js/store.js";
import { Previews } from "../../Public/js/sync/previews.js";
import { derivePreviews, previewLine, newestMessage, keptPreviews, nameParticipants } from "../../Public/js/state/previews.js";
import { participantMap, participantsKey } from "../../Public/js/state/participants.js";
import { installFakeStorage } from "./fake-storage.mjs";
import { signedInStore } from "./signed-in-store.mjs";

const storage = installFakeStorage();
const ME = { id: "uMe", name: "Me" };
const ANA = { userId: "uAna", name: "Ana" };
const PID = "9d0c0c4e-1111-4222-8333-444455556666";
const drew = { seq: 4, createdAt: 1_700_000_000_000, sender: "uAna", kind: "app", appId: "wenderpic", summaryText: `$${PID} drew a WenderPic`, layout: { caption: "Guess my WenderPic!" } };
const conversation = { id: "c1", title: "Games", members: [{ userId: ME.id, name: "Me" }, ANA], lastMessage: drew };
const anaMap = participantMap({ local: "x", participants: [{ userId: "uAna", participantId: PID }] });

const signedIn = () => signedInStore(storage, ME);

test("a participant in an app's summary is named once the map is held, '…' meanwhile", () => {
  assert.equal(nameParticipants(`$${PID} drew a WenderPic`, undefined, () => "Ana"), "… drew a WenderPic");
  assert.equal(nameParticipants(`$${PID} drew a WenderPic`, anaMap, (u) => (u === "uAna" ? "Ana" : "?")), "Ana drew a WenderPic");
  const names = { uAna: "Ana", uBen: "Ben", [ME.id]: "Me" };
  const how = { selfId: ME.id, appName: () => "WenderPic", names: (text) => nameParticipants(text, anaMap, () => "Ana"), nameOf: (u) => names[u] };
  assert.equal(previewLine(drew, how), "Ana drew a WenderPic");
  assert.equal(previewLine({ kind: "text", sender: ME.id, text: "hi\nthere" }, how), "You: hi there");
  assert.equal(previewLine({ kind: "app", appId: "wenderpic", sender: ME.id }, how), "You: WenderPic", "no summary, no caption: the app's name");
  // an app names anyone in its summary: one that does not start with its sender says who sent it
  assert.equal(previewLine({ ...drew, sender: "uBen" }, how), "Ben: Ana drew a WenderPic");
  assert.equal(previewLine({ ...drew, summaryText: "Ana owes Ben 20 EUR", sender: ME.id }, how), "You: Ana owes Ben 20 EUR");
  assert.equal(previewLine({ kind: "deleted", sender: "uAna" }, how), "Message deleted");
});

test("the store's preview is named when the map arrives, for a reader without the app (no re-send needed)", () => {
  const store = signedIn();
  new Previews(store, { appName: () => "WenderPic" });
  const drawn = [];
  store.addEventListener("change", (e) => e.detail.parts.has("previews") && drawn.push(store.state.previews.c1.text));
  store.update(["conversations"], () => ({ conversations: [conversation] }));
  assert.deepEqual(store.state.previews.c1, { seq: 4, at: drew.createdAt, text: "Ana: … drew a WenderPic" });
  // sync/participants.js stores the map under the conversation's transcript part, not "conversations"
  store.update(["transcript:c1"], (s) => ({ participants: { ...s.participants, [participantsKey("c1", "wenderpic")]: anaMap } }));
  assert.equal(store.state.previews.c1.text, "Ana drew a WenderPic");
  assert.deepEqual(drawn, ["Ana: … drew a WenderPic", "Ana drew a WenderPic"], "the list is told each time");
});

test("previews survive a reload: restored for the user until the page holds a newer message", () => {
  const store = signedIn();
  new Previews(store, { appName: () => "WenderPic" });
  store.update(["transcript:c1"], (s) => ({ participants: { ...s.participants, [participantsKey("c1", "wenderpic")]: anaMap } }));
  store.update(["conversations"], () => ({ conversations: [conversation] }));
  store.flush(); // the page hidden or left (a running page writes its copy at most once a second)
  const kept = JSON.parse(storage.getItem(`parlor.previews.v2.${ME.id}`));
  assert.deepEqual(kept.c1, { seq: 4, at: drew.createdAt, text: "Ana drew a WenderPic" });

  // the reload: the server lists the conversation without its last message
  const again = new Store();
  again.loadForUser(ME.id);
  again.update(["user"], () => ({ user: ME }));
  new Previews(again, { appName: () => "WenderPic" });
  again.update(["conversations"], () => ({ conversations: [{ ...conversation, lastMessage: undefined }] }));
  assert.deepEqual(again.state.previews.c1, kept.c1);
  // an older page of history does not take its place; a newer message does
  again.setTranscript("c1", { ...again.transcript("c1"), messages: [{ seq: 2, createdAt: 1, sender: "uAna", kind: "text", text: "old" }] });
  assert.equal(again.state.previews.c1.text, "Ana drew a WenderPic");
  again.setTranscript("c1", { ...again.transcript("c1"), messages: [{ seq: 5, createdAt: 2, sender: "uAna", kind: "text", text: "new" }] });
  assert.deepEqual(again.state.previews.c1, { seq: 5, at: 2, text: "new" });
});

test("the newest message is the conversation's last or its transcript's, whichever is newer; kept copies are checked", () => {
  assert.equal(newestMessage({ lastMessage: drew }, { messages: [{ seq: 3 }] }), drew);
  assert.equal(newestMessage({}, { messages: [{ seq: 3 }] }).seq, 3);
  assert.equal(newestMessage({}, undefined), null);
  const same = { c1: { seq: 4, at: drew.createdAt, text: "Ana: … drew a WenderPic" } };
  const how = () => ({ selfId: ME.id, appName: () => "W", names: (t) => nameParticipants(t, undefined, () => ""), nameOf: () => "Ana" });
  assert.equal(derivePreviews(same, [conversation], {}, how), same, "nothing changed: the same object");
  assert.deepEqual(keptPreviews({ c1: same.c1, c2: { seq: "x" }, c3: null }), same);
  assert.deepEqual(keptPreviews([1, 2]), {});
  assert.deepEqual(keptPreviews(null), {});
});

test("another's text is named in a group, and where it reads like one's own (\"You: …\" from Ben)", () => {
  const names = { uAna: "Ana", uBen: "Ben", [ME.id]: "Me" };
  const how = (group) => ({ selfId: ME.id, group, appName: () => "W", names: (t) => t, nameOf: (u) => names[u] });
  const text = (sender, t) => ({ kind: "text", sender, text: t });
  assert.equal(previewLine(text("uBen", "You: I agree to pay Ben 500€"), how(false)), "Ben: You: I agree to pay Ben 500€");
  assert.equal(previewLine(text("uBen", " you : ok"), how(false)), "Ben:  you : ok");
  assert.equal(previewLine(text("uBen", "Y\u043Eu\u200B: ok"), how(false)), "Ben: Y\u043Eu\u200B: ok", "a Cyrillic о, an invisible space");
  assert.equal(previewLine(text("uBen", "You\u02D0 ok"), how(false)), "Ben: You\u02D0 ok", "a colon that is a letter");
  assert.equal(previewLine(text("uBen", "Your turn"), how(false)), "Your turn", "two people: the other's line needs no name");
  assert.equal(previewLine(text("uBen", "see you"), how(true)), "Ben: see you");
  assert.equal(previewLine({ kind: "sticker", sender: "uAna", description: "a cat" }, how(true)), "Ana: Sticker: a cat");
  assert.equal(previewLine(text(ME.id, "hi"), how(true)), "You: hi");
  assert.equal(previewLine({ kind: "deleted", sender: "uBen" }, how(true)), "Message deleted");
});

test("the store names the sender in a group's preview; a copy kept before that is dropped", () => {
  storage.clear();
  storage.setItem(`parlor.previews.${ME.id}`, JSON.stringify({ c2: { seq: 9, at: 1, text: "You: I agree to pay Ben 500€" } }));
  const store = new Store();
  store.loadForUser(ME.id);
  store.update(["user"], () => ({ user: ME }));
  assert.deepEqual(store.state.previews, {}, "an old copy could hold another's text as one's own");
  assert.equal(storage.getItem(`parlor.previews.${ME.id}`), null);
  new Previews(store, { appName: () => "W" });
  const said = { seq: 3, createdAt: 5, sender: "uBen", kind: "text", text: "see you at 8" };
  const room = { id: "c3", title: "Trip", members: [{ userId: ME.id, name: "Me" }, ANA, { userId: "uBen", name: "Ben" }], lastMessage: said };
  store.update(["conversations"], () => ({ conversations: [room, { ...room, id: "c4", members: room.members.slice(0, 2), memberCount: 3 }, { ...room, id: "c5", members: room.members.slice(0, 2) }] }));
  assert.equal(store.state.previews.c3.text, "Ben: see you at 8");
  assert.equal(store.state.previews.c4.text, "Someone: see you at 8", "three members, one not listed yet");
  assert.equal(store.state.previews.c5.text, "see you at 8");
});
