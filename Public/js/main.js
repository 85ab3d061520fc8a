// Parlor's host page: wires the network client, the store, the views and the
// app pane together. Each piece lives in its own module; this file only
// connects events to actions.

import { ParlorClient } from "./net/client.js";
import { Store } from "./store.js";
import { Sync } from "./sync.js";
import { Outgoing } from "./outgoing.js";
import { AppCatalog } from "./apps/registry.js";
import { AppPane } from "./apps/pane.js";
import { LiveBubbles } from "./apps/live.js";
import { parseRoute, conversationHash, inviteLink } from "./state/route.js";
import { unreadCount, hasConflict } from "./state/transcript.js";
import { participantsKey } from "./state/participants.js";
import { nameParticipants } from "./state/previews.js";
import { Previews } from "./sync/previews.js";
import { SidebarView } from "./views/sidebar.js";
import { ChatView } from "./views/chat.js";
import { WelcomeView } from "./views/welcome.js";
import { AppStoreDialog } from "./views/appStore.js";
import { StatusView } from "./views/status.js";
import { textDialog, inviteDialog, joinDialog } from "./views/dialogs.js";

const $ = (id) => document.getElementById(id);
const wsURL = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;

const store = new Store();
const client = new ParlorClient({ url: wsURL });
const sync = new Sync(client, store);
const catalog = new AppCatalog();
const outgoing = new Outgoing(store, sync);
const previews = new Previews(store, { appName: (appId) => catalog.name(appId) });
const status = new StatusView($("toast"));
status.mount(document.body);
const announce = (text) => status.announce(text);
let everOnline = false;

// ---- views -----------------------------------------------------------------------

const welcome = new WelcomeView($("welcome"), {
  onSubmit: (name) => client.start({ register: name }),
});

const sidebar = new SidebarView($("sidebar"), {
  onNew: () => newConversation.show(),
  onRename: () => renameDialog.show(store.state.user?.name || ""),
});

const chat = new ChatView($("chat"), {
  onBack: () => {
    location.hash = "#/";
  },
  onInvite: () => invite(store.state.currentId),
  onStore: () => appStore.show(catalog, store.state.installedApps),
  onLoadOlder: () => sync.loadOlder(store.state.currentId).catch(() => announce("Could not load earlier messages.")),
  onSend: (text) => {
    const id = store.state.currentId;
    if (!id || !outgoing.send(id, text)) return false;
    store.saveDraft(id, "");
    chat.transcript.scrollToBottom();
    return true;
  },
  onRemove: (key) => outgoing.remove(store.state.currentId, key),
  onStick: (key, seq, x, y) => outgoing.stick(store.state.currentId, key, { seq, x, y }),
  announce,
  onDraft: (text) => store.saveDraft(store.state.currentId, text),
  onToggleDrawer: () => setDrawer(!chat.drawer.open),
  onOpen: (appId) => {
    setDrawer(false);
    pane.open(appId).catch((e) => announce(e.message));
  },
});

const pane = new AppPane({ element: chat.paneEl, store, sync, catalog, outgoing, announce });
pane.addEventListener("layout", () => {
  if (chat.transcript.atBottom) chat.transcript.scrollToBottom();
});
pane.addEventListener("closed", () => chat.composer.input.focus());

const live = new LiveBubbles({
  store, sync, catalog,
  open: (m) => {
    setDrawer(false);
    pane.open(m.appId, m).catch((e) => announce(e.message));
  },
});

const appStore = new AppStoreDialog({
  onInstall: async (appId, install) => {
    try {
      await sync.setInstalled(appId, install);
      if (!install && pane.activeAppId === appId) pane.close();
      announce(`${catalog.name(appId)} ${install ? "installed" : "removed"}.`);
    } catch (e) {
      announce(e.message);
    }
  },
});

const newConversation = textDialog({
  id: "new-conversation", title: "New conversation", label: "Title", submit: "Create", maxLength: 100,
  onSubmit: async (title) => {
    const r = await sync.createConversation(title);
    location.hash = conversationHash(r.conversation.id);
    invitePopup.show(inviteLink(location.origin, r.invite));
  },
});

const renameDialog = textDialog({
  id: "rename", title: "Your name", label: "Name", submit: "Save", maxLength: 64,
  onSubmit: (name) => sync.rename(name),
});

const invitePopup = inviteDialog();
const joinQuestion = joinDialog();

async function invite(conversationId) {
  try {
    const { invite: code } = await client.request("invites.create", { conversationId });
    invitePopup.show(inviteLink(location.origin, code));
  } catch (e) {
    announce(e.code === "offline" ? "You're offline; try again when you're back." : e.message);
  }
}

function setDrawer(open) {
  chat.drawer.open = open;
  chat.composer.setDrawerOpen(open);
  if (open) chat.drawer.render(store.state.installedApps, catalog);
  if (chat.transcript.atBottom) chat.transcript.scrollToBottom();
}

// ---- rendering ------------------------------------------------------------------------

const changed = new Set();
let scheduled = false;
let ctxSignature = "";
let ctxMaps = [];
let ctxVersion = 0;

store.addEventListener("change", (e) => {
  for (const p of e.detail.parts) changed.add(p);
  if (!scheduled) {
    scheduled = true;
    queueMicrotask(render);
  }
});
catalog.addEventListener("change", () => {
  changed.add("apps");
  previews.refresh();
  render();
});

function unread(conversationId) {
  if (conversationId === store.state.currentId && document.visibilityState === "visible") return 0;
  return unreadCount(store.transcript(conversationId), store.state.lastRead[conversationId] || 0, store.state.user?.id);
}

function bubbleContext(conversationId) {
  const s = store.state;
  return {
    selfId: s.user?.id,
    nameOf: (userId) => store.memberName(conversationId, userId),
    // the map is asked for when the state needs it (sync/participants.js), not here
    names: (text, appId) => nameParticipants(text, s.participants[participantsKey(conversationId, appId)], (userId) => store.memberName(conversationId, userId)),
    app: (appId) => catalog.get(appId),
    installed: (appId) => s.installedApps.includes(appId),
    onOpenApp: (m) => {
      setDrawer(false);
      pane.open(m.appId, m).catch((e) => announce(e.message));
    },
    onGetApp: async (m) => {
      try {
        await sync.setInstalled(m.appId, true);
        announce(`${catalog.name(m.appId)} installed.`);
        await pane.open(m.appId, m);
      } catch (e) {
        announce(e.message);
      }
    },
    onRetry: (clientId) => sync.retry(conversationId, clientId),
    onDiscard: (clientId) => sync.discard(conversationId, clientId),
    liveView: (m) => live.view(conversationId, m, `${catalog.name(m.appId)}: ${m.layout?.caption || m.summaryText || "live message"}`),
  };
}

function contextVersion(conversationId) {
  const s = store.state;
  const c = store.conversation(conversationId);
  const prefix = participantsKey(conversationId, "");
  const maps = Object.keys(s.participants).filter((k) => k.startsWith(prefix)).map((k) => s.participants[k]);
  const sig = JSON.stringify([c?.members, s.installedApps, catalog.apps.size, s.user?.name]);
  // a map asked for again (a member joined) is a new object under the same key
  if (sig !== ctxSignature || maps.length !== ctxMaps.length || maps.some((m, i) => m !== ctxMaps[i])) {
    ctxSignature = sig;
    ctxMaps = maps;
    ctxVersion++;
  }
  return ctxVersion;
}

function render() {
  scheduled = false;
  const parts = new Set(changed);
  changed.clear();
  const s = store.state;
  const id = s.currentId;
  if (parts.has("status")) {
    if (s.status === "online") everOnline = true;
    status.render(s.status, everOnline, s.restarting);
  }
  if (["conversations", "previews", "user", "presence", "current", "apps"].some((p) => parts.has(p))) {
    sidebar.render(s, unread);
  }
  const conv = id ? store.conversation(id) : null;
  if (conv && (parts.has("conversations") || parts.has("presence") || parts.has("current") || parts.has("user"))) {
    chat.header.render(conv, s.user?.id, s.presence[id]);
  }
  if (conv && (parts.has(`transcript:${id}`) || parts.has("current") || parts.has("apps") || parts.has("conversations"))) {
    const t = store.transcript(id);
    chat.transcript.render(id, t, bubbleContext(id), contextVersion(id));
    if (conflictNotice && (conflictNotice.conversationId !== id || !hasConflict(t, conflictNotice.appId))) {
      conflictNotice = null;
      chat.composer.showNotice(null);
    }
    live.sweep();
    if (document.visibilityState === "visible" && chat.transcript.atBottom) store.markRead(id, t.lastSeq);
  }
  if (conv && (parts.has("staged") || parts.has("current"))) {
    chat.composer.renderStaged(outgoing.staged(id), bubbleContext(id));
  }
  if (parts.has("apps")) {
    chat.drawer.render(s.installedApps, catalog);
    if (appStore.dialog.open) appStore.render(catalog, s.installedApps);
  }
}

chat.transcriptEl.addEventListener("scroll", () => {
  const id = store.state.currentId;
  if (id && chat.transcript.atBottom) store.markRead(id, store.transcript(id).lastSeq);
});
document.addEventListener("visibilitychange", () => {
  const id = store.state.currentId;
  if (id && document.visibilityState === "visible" && chat.transcript.atBottom) store.markRead(id, store.transcript(id).lastSeq);
});

// ---- events -----------------------------------------------------------------------------

client.addEventListener("authfailed", () => {
  store.token = null;
  welcome.show({ invited: parseRoute(location.hash, location.search).name === "join", error: "This browser's account is no longer known here. Pick a name to start again." });
});

sync.addEventListener("ready", () => {
  welcome.hide();
  route();
});

sync.addEventListener("message", (e) => pane.deliver(e.detail.conversationId, e.detail.message));
sync.addEventListener("member", (e) => pane.membersChanged(e.detail.conversationId));
sync.addEventListener("sendfailed", (e) => failed(e.detail));
outgoing.addEventListener("failed", (e) => failed(e.detail));
outgoing.addEventListener("inserttext", (e) => {
  if (e.detail.conversationId === store.state.currentId) chat.composer.insertText(e.detail.text);
});

// The notice about a refused move lasts as long as its grey copy does: the copy
// leaves once the app has merged and staged the move again, or the session moved
// on (the store's rule), which may be before the refusal reaches this page.
let conflictNotice = null;

function failed({ conversationId = undefined, item, error }) {
  if (error.code === "session_conflict") {
    const id = conversationId ?? item?.conversationId;
    const appId = item?.message?.appId || item?.appId || "";
    if (id !== store.state.currentId || !hasConflict(store.transcript(id), appId)) return;
    conflictNotice = { conversationId: id, appId };
    chat.composer.showNotice(`${catalog.name(appId)}: someone else played first, so your move was not sent. Open it to try again.`);
  } else if (error.code !== "cancelled") {
    announce(`Not sent: ${error.message}`);
  }
}

window.addEventListener("hashchange", route);
window.addEventListener("online", () => client.reconnectNow());
window.addEventListener("offline", () => client.drop());

// ---- routing ----------------------------------------------------------------------------

let joining = null;

async function route() {
  if (!store.state.user) return;
  const r = parseRoute(location.hash, location.search);
  if (r.name === "join") return joinThrough(r.code);
  joinQuestion.dismiss(); // went somewhere else while asked: that is a no
  return openConversation(r.name === "conversation" ? r.id : null);
}

/** Still at the invite link `code` (not moved on while asking)? */
function stillAt(code) {
  const r = parseRoute(location.hash, location.search);
  return r.name === "join" && r.code === code;
}

/** The invite leaves the address; the page shows `id` (or the list). */
function leaveInvite(id) {
  history.replaceState(null, "", `${location.pathname}${id ? conversationHash(id) : "#/"}`);
  return openConversation(id);
}

function focusWhereYouWere() {
  if (store.state.currentId) chat.composer.input.focus();
  else sidebar.focus();
}

/**
 * An invite link opened: joining shows your name and presence to the members, so
 * first ask what it leads to (invites.peek tells nobody) and join only on Join.
 * A conversation you are already in just opens.
 */
async function joinThrough(code) {
  if (joining === code) return;
  joinQuestion.dismiss(); // another link opened while asked about one: that one is a no
  joining = code;
  try {
    const { conversation: peek } = await client.request("invites.peek", { invite: code });
    if (!stillAt(code)) return;
    if (!store.conversation(peek.id)) {
      const yes = await joinQuestion.ask({ title: peek.title, memberCount: peek.memberCount, name: store.state.user.name });
      if (!stillAt(code)) return;
      if (!yes) {
        leaveInvite(store.state.currentId);
        focusWhereYouWere();
        return;
      }
      const conv = await sync.join(code);
      announce(`You joined ${conv.title}.`);
    }
    leaveInvite(peek.id);
  } catch (e) {
    if (e.code === "offline" || !stillAt(code)) return; // asked again on the next ready
    leaveInvite(store.state.currentId);
    // unknown or revoked, or mangled on the way (too long, control characters)
    if (e.code === "invalid_invite" || e.code === "invalid_field") await joinQuestion.invalid();
    else announce(e.message);
    focusWhereYouWere();
  } finally {
    if (joining === code) joining = null;
  }
}

function openConversation(id) {
  const s = store.state;
  if (id && !store.conversation(id)) {
    // not a member (or no such conversation): go home
    announce("That conversation is not one of yours.");
    history.replaceState(null, "", `${location.pathname}#/`);
    id = null;
  }
  if (id === s.currentId) {
    $("shell").dataset.view = id ? "chat" : "list";
    return;
  }
  if (pane.activeAppId) pane.close();
  setDrawer(false);
  conflictNotice = null;
  chat.composer.showNotice(null);
  store.update(["current", "conversations"], () => ({ currentId: id }));
  $("shell").dataset.view = id ? "chat" : "list";
  chat.showConversation(!!id);
  if (!id) {
    chat.transcript.reset();
    live.sweep();
  }
  document.title = id ? `${store.conversation(id).title} · Parlor` : "Parlor";
  if (!id) return;
  chat.composer.setDraft(store.draft(id));
  const t = store.transcript(id);
  if (!t.loaded || t.messages.length < 30) sync.loadOlder(id).catch(() => {});
  chat.composer.input.focus();
}

// ---- start ------------------------------------------------------------------------------

catalog.load();
const token = store.token;
if (token) client.start({ token });
else welcome.show({ invited: parseRoute(location.hash, location.search).name === "join" });
