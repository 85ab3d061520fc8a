// The store: one place state changes, views told which parts changed; what must
// survive a reload is read once for the user and written through; the ledgers
// of waits and requests it holds beside the state.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Store } from "../../Public/js/store.js";
import { installFakeStorage } from "./fake-storage.mjs";
import { signedInStore } from "./signed-in-store.mjs";

const storage = installFakeStorage();
const ME = { id: "uMe", name: "Me" };

const signedIn = () => signedInStore(storage, ME);

test("update applies a patch and names the parts that changed", () => {
  const store = new Store();
  const seen = [];
  store.addEventListener("change", (e) => seen.push([...e.detail.parts]));
  const before = store.state;
  store.update(["current"], () => ({ currentId: "c1" }));
  assert.equal(store.state.currentId, "c1");
  assert.notEqual(store.state, before, "a new state object: views compare by identity");
  assert.equal(before.currentId, null);
  store.setTranscript("c1", { ...store.transcript("c1"), lastSeq: 3 }, ["conversations"]);
  assert.deepEqual(seen, [["current"], ["transcript:c1", "conversations"]]);
});

test("read marks and the outbox: read once for the user, kept in memory, written through", () => {
  storage.clear();
  storage.setItem(`parlor.lastRead.${ME.id}`, JSON.stringify({ c1: 7 }));
  storage.setItem(`parlor.outbox.${ME.id}`, JSON.stringify([{ clientId: "k1" }]));
  const store = new Store();
  assert.deepEqual(store.outbox(), [], "nobody signed in");
  store.loadForUser(ME.id);
  store.update(["user"], () => ({ user: ME }));
  const reads = storage.reads;
  assert.deepEqual(store.outbox(), [{ clientId: "k1" }]);
  assert.equal(store.state.lastRead.c1, 7);
  const parts = [];
  store.addEventListener("change", (e) => parts.push(...e.detail.parts));
  store.saveOutbox([]);
  assert.deepEqual(store.outbox(), []);
  assert.equal(storage.m.get(`parlor.outbox.${ME.id}`), "[]");
  assert.ok(parts.includes("outbox"));
  store.markRead("c1", 9);
  store.markRead("c1", 8);
  assert.equal(JSON.parse(storage.m.get(`parlor.lastRead.${ME.id}`)).c1, 7, "the read marks' copy waits a moment");
  store.flush();
  assert.equal(JSON.parse(storage.m.get(`parlor.lastRead.${ME.id}`)).c1, 9, "never backwards");
  assert.equal(storage.reads, reads, "nothing read again");
});

test("app storage as the server has it, with a copy kept for offline reads", () => {
  const store = signedIn();
  store.saveAppData("icecream", { history: [] });
  assert.deepEqual(store.state.appData, { icecream: { history: [] } });
  assert.deepEqual(store.offlineAppData("icecream"), { history: [] });
  assert.deepEqual(store.offlineAppData("wenderpic"), {});
});

test("drafts per conversation", () => {
  const store = signedIn();
  store.saveDraft("c1", "half a thought");
  assert.equal(store.draft("c1"), "half a thought");
  store.saveDraft("c1", "");
  assert.equal(store.draft("c1"), "");
});

test("waiters settle once, by key", async () => {
  const store = new Store();
  const w = store.waiters.wait("send:k1");
  assert.equal(store.waiters.settle("send:k1", { seq: 1 }), true);
  assert.equal(store.waiters.settle("send:k1", { seq: 2 }), false);
  assert.deepEqual(await w, { seq: 1 });
  const refused = store.waiters.wait("staged:s1");
  store.waiters.settle("staged:s1", new Error("no"));
  await assert.rejects(refused, /no/);
});

test("requests: a second ask joins the first; a forgotten one's answer is not current", async () => {
  const store = new Store();
  let answer;
  let current;
  const start = (c) => {
    current = c;
    return new Promise((r) => (answer = r));
  };
  const a = store.requests.join("participants|c1|x", start);
  const b = store.requests.join("participants|c1|x", () => assert.fail("asked twice"));
  assert.equal(a, b);
  assert.deepEqual(store.requests.keysStarting("participants|c1|"), ["participants|c1|x"]);
  assert.equal(current(), true);
  store.requests.forget("participants|c1|x");
  assert.equal(current(), false);
  assert.equal(store.requests.has("participants|c1|x"), false);
  answer(1);
  assert.equal(await a, 1);
});

test("forgetting a user removes its keys, and nothing written afterwards puts them back", () => {
  const store = signedIn();
  store.saveOutbox([{ clientId: "k1", conversationId: "c1", message: { kind: "text", text: "secret 7788" }, createdAt: 1 }]);
  storage.setItem(`parlor.draft.${ME.id}.c1`, "half-typed");
  storage.setItem("parlor.outbox.uOther", "[]");
  store.forgetUser(ME.id);
  // a send failing as the token dies (sign-out) drops its item and writes the outbox through
  store.saveOutbox([]);
  const left = [...storage.m.keys()].filter((k) => k.includes(ME.id));
  assert.deepEqual(left, []);
  assert.equal(storage.getItem("parlor.outbox.uOther"), "[]", "another account's are kept");
});

test("a token refused before the page knew whose it was forgets every account's keys, and only those", () => {
  const store = signedIn();
  store.saveOutbox([{ clientId: "k1", conversationId: "c1", message: { kind: "text", text: "secret 7788" }, createdAt: 1 }]);
  storage.setItem(`parlor.previews.v2.${ME.id}`, '{"c1":"private: the key is under the mat"}');
  storage.setItem("parlor.appdata.uOther.wenderpic", "{}");
  storage.setItem("parlor.token", "t");
  storage.setItem("parlor.theme", "dark");
  store.forgetUser(null);
  store.saveOutbox([]);
  const left = [...storage.m.keys()].filter((k) => /^parlor\.(lastRead|outbox|refused|unheard|previews|draft|staged|appdata)/.test(k));
  assert.deepEqual(left, []);
  assert.equal(storage.getItem("parlor.theme"), "dark", "what is not an account's stays");
});
