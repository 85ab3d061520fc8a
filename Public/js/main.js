// Parlor's host page: wires the network client, the store, the views and the
// app pane together. Each piece lives in its own module; this file only
// connects events to actions.

import { ParlorClient } from "./net/client.js";
import { Store } from "./store.js";
import { Sync } from "./sync.js";
import { Outgoing } from "./outgoing.js";
import { Editing } from "./editing.js";
import { AppCatalog } from "./apps/registry.js";
import { AppPane } from "./apps/pane.js";
import { LiveBubbles } from "./apps/live.js";
import { parseRoute, conversationHash, inviteLink, deviceLink, registrationLink } from "./state/route.js";
import { errorText, signedOutText } from "./state/errors.js";
import { deviceName } from "./state/device.js";
import { canModerate } from "./state/conversations.js";
import { unreadCount, hasConflict, readThrough, firstUnreadSeq, newestUnread, messageBySeq } from "./state/transcript.js";
import { participantsKey } from "./state/participants.js";
import { nameParticipants, previewLine } from "./state/previews.js";
import { mentionedParticipants } from "./state/text.js";
import { titleWith, titleCount, dueNotices, noticeText } from "./state/attention.js";
import { typingNow } from "./state/typing.js";
import { Previews } from "./sync/previews.js";
import { SidebarView } from "./views/sidebar.js";
import { ChatView } from "./views/chat.js";
import { WelcomeView } from "./views/welcome.js";
import { AppStoreDialog } from "./views/appStore.js";
import { StatusView } from "./views/status.js";
import { textDialog, inviteDialog, joinDialog, confirmDialog } from "./views/dialogs.js";
import { RecoveryKeyDialog, RecoveryReminder } from "./views/recovery.js";
import { AccountDialog } from "./views/account.js";
import { MembersDialog } from "./views/members.js";
import { AdminDialog } from "./views/admin.js";
import { ReportDialog, ReportsSection, showOpenReports } from "./views/reports.js";
import { PhotoViewer } from "./views/photoViewer.js";
import { OpenReports } from "./sync/reports.js";
import { renderPlayers } from "./views/players.js";
import { replyQuote, messageWords, photoOf } from "./views/bubble.js";
import { say } from "./views/spoken.js";
import { SearchView } from "./views/search.js";
import { newSearch, withAnswer, withoutDeleted } from "./state/search.js";
import { Notices, noticeState, chooseNotices } from "./views/notices.js";
import { MentionPicker } from "./views/mentionPicker.js";
import { photoToSend } from "./views/photo.js";
import { wantsNotice, unreadMention, unreadMentions } from "./state/mentions.js";
import { People } from "./sync/direct.js";
import { BlockedList } from "./views/blocked.js";
import { blockedIds, blockedOther } from "./state/direct.js";

const $ = (id) => document.getElementById(id);
const wsURL = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;

const store = new Store();
// What every sign-in starts with goes with it, a round trip sooner: the list, what an
// invite link opened leads to (joinThrough asks it first), and on a reconnect the shown
// conversation's subscription (sync/resume.js)
const client = new ParlorClient({
  url: wsURL,
  withSignIn: () => [["conversations.list", {}], ...invitePeekInRoute(), ...sync.resume.withSignIn()],
});
const sync = new Sync(client, store);
const catalog = new AppCatalog();
const outgoing = new Outgoing(store, sync);
// `chat` is made below: the composer is looked up when an edit starts
const editing = new Editing({ store, sync, composer: () => chat.composer, announce: (text) => announce(text) });
const previews = new Previews(store, { appName: (appId) => catalog.name(appId) });
const status = new StatusView($("toast"));
status.mount(document.body);
const announce = (text) => status.announce(text);
let everOnline = false;

// ---- views -----------------------------------------------------------------------

const thisDevice = deviceName(navigator.userAgent);

/** invites.peek of the invite link the page is at, as joinThrough asks it; none elsewhere. */
function invitePeekInRoute() {
  const r = parseRoute(location.hash, location.search);
  return r.name === "join" ? [["invites.peek", { invite: r.code }]] : [];
}

/** The invite or registration link that brought a person here, if any: sign-up carries it. */
function inviteInRoute() {
  const r = parseRoute(location.hash, location.search);
  return r.name === "join" || r.name === "register" ? r.code : undefined;
}

const welcome = new WelcomeView($("welcome"), {
  behind: [$("shell"), document.querySelector(".skip-link")],
  // First without the invite, so that where anyone may sign up the person is still
  // asked before joining (invites.peek); an invite-only server needs the invite to
  // make the account, and joins it at once (see authfailed).
  onRegister: (name) => client.start({ register: name, deviceName: thisDevice }),
  onRecover: (key, revokeOthers) => client.start({ recover: key, revokeOthers, deviceName: thisDevice }),
  onLink: (code) => client.start({ link: code, deviceName: thisDevice }),
});

function showWelcome(o = {}) {
  for (const d of document.querySelectorAll("dialog[open]")) d.close();
  const invited = inviteInRoute() !== undefined && parseRoute(location.hash, location.search).name;
  welcome.show({ invited: invited && (invited === "register" ? "server" : "conversation"), ...o });
}

const sidebar = new SidebarView($("sidebar"), {
  onNew: () => newConversation.show(),
  onRename: () => renameDialog.show(store.state.user?.name || ""),
  onAccount: () => account.show(),
  onAdmin: () => admin.show(),
});

const chat = new ChatView($("chat"), {
  onBack: () => {
    // back on the list (a phone), the focus is on the conversation just left
    const id = store.state.currentId;
    location.hash = "#/";
    setTimeout(() => sidebar.focus(id), 0);
  },
  onInvite: () => invite(store.state.currentId),
  // "You blocked Ben." in place of the composer: its Unblock
  onUnblock: ({ userId, name }) => members.api.unblock(userId, name).catch((e) => announce(errorText(e))),
  onMembers: () => {
    const c = store.conversation(store.state.currentId);
    if (c) members.show(c, store.state.user);
  },
  onStore: () => appStore.show(catalog, store.state.installedApps),
  onSearch: () => (search.open ? closeSearch() : openSearch()),
  onLoadOlder: () => sync.loadOlder(store.state.currentId).catch(() => announce("Could not load earlier messages.")),
  onLoadNewer: () => sync.loadNewer(store.state.currentId).catch(() => announce("Could not load newer messages.")),
  onNewest: () => sync.jumpToNewest(store.state.currentId),
  onSend: (text) => {
    const id = store.state.currentId;
    if (!id || store.conversation(id)?.left || !outgoing.send(id, text)) return false;
    store.saveDraft(id, "");
    sync.typing.sent(id);
    chat.transcript.toNewest();
    return true;
  },
  onRemove: (key) => outgoing.remove(store.state.currentId, key),
  onVoice: (blob, durationMs) => sendVoice(store.state.currentId, blob, durationMs),
  onPhoto: async (file) => {
    const id = store.state.currentId;
    if (!id || store.conversation(id)?.left) return;
    const { blob, name } = await photoToSend(file);
    // waits in the composer like an app's picture; Send uploads it (offline: once back)
    // at most 300 UTF-16 units (PROTOCOL.md), not cut through a character's two
    const named = name.slice(0, 300).replace(/[\uD800-\uDBFF]$/, "");
    outgoing.stage(id, { message: { kind: "attachment", name: named }, image: blob });
  },
  onSaveEdit: (seq, text) => editing.save(store.state.currentId, seq, text),
  onEditing: (seq) => editing.editing(chat.transcriptEl, seq),
  onCancelReply: () => {
    outgoing.setReply(store.state.currentId, null);
    chat.composer.input.focus();
  },
  onStick: (key, seq, x, y) => outgoing.stick(store.state.currentId, key, { seq, x, y }),
  announce,
  onDraft: (text) => {
    store.saveDraft(store.state.currentId, text);
    sync.typing.drafted(store.state.currentId, text);
  },
  onToggleDrawer: () => setDrawer(!chat.drawer.open),
  onOpen: (appId) => {
    setDrawer(false);
    pane.open(appId).catch((e) => announce(e.message));
  },
});

// the open conversation's older messages stay while the reader is up among them
sync.readingBack = (id) => id === store.state.currentId && !chat.transcript.atBottom;
sync.readerSeq = () => chat.transcript.readerSeq;
// after a reload, the conversation in the address is caught up before the others
sync.showingFirst = () => {
  const r = parseRoute(location.hash, location.search);
  return r.name === "conversation" ? r.id : store.state.currentId;
};

const pane = new AppPane({ element: chat.paneEl, store, sync, catalog, outgoing, announce });
pane.addEventListener("layout", () => {
  if (chat.transcript.atBottom) chat.transcript.scrollToBottom();
});
pane.addEventListener("closed", () => chat.composer.input.focus());
new MentionPicker(chat.composer.input, {
  members: () => store.conversation(store.state.currentId)?.members ?? [],
  selfId: () => store.state.user?.id,
});
// Once the move shows in the message box and the composer can take the focus (an
// expanded pane keeps it inert until the app goes compact), if the focus is still in
// the app; given up after a while (an app that stays expanded keeps it).
pane.addEventListener("sendisnext", (e) => {
  const send = chat.composer.sendButton;
  const until = performance.now() + 3000;
  const tryFocus = () => {
    if (document.activeElement !== e.detail.iframe || performance.now() > until) return;
    if (send.disabled || send.closest("[inert]") || !send.checkVisibility()) return requestAnimationFrame(tryFocus);
    send.focus();
  };
  requestAnimationFrame(tryFocus);
});

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
    invitePopup.show(inviteLink(location.origin, r.invite), r.conversation.id);
  },
});

const deleteAccountDialog = textDialog({
  id: "delete-account", title: "Delete your account?", label: "Type your name to confirm", submit: "Delete account", maxLength: 64, danger: true,
  text: "You leave every conversation, and this account can never be used again, on any device. What you sent stays, shown as from “Deleted account”: delete first any message you want gone.",
  onSubmit: async (name) => {
    signingOut = "Your account was deleted.";
    try {
      await client.request("account.delete", { confirm: name });
    } catch (e) {
      signingOut = false;
      throw new Error(e.code === "invalid_field" ? "That is not your name as it is on this account." : e.code === "forbidden" ? "You are this server's only admin: make someone else an admin first." : errorText(e));
    }
  },
});

const renameDialog = textDialog({
  id: "rename", title: "Your name", label: "Name", submit: "Save", maxLength: 64,
  onSubmit: (name) => sync.rename(name),
});

const invites = {
  list: async (conversationId) => (await client.request("invites.list", { conversationId })).invites,
  revoke: (inviteId) => client.request("invites.revoke", { inviteId }),
};
const invitePopup = inviteDialog(invites);
const joinQuestion = joinDialog();
const confirm = confirmDialog();

async function invite(conversationId) {
  try {
    const { invite: code } = await client.request("invites.create", { conversationId });
    invitePopup.show(inviteLink(location.origin, code), conversationId);
  } catch (e) {
    announce(errorText(e));
  }
}

// ---- account, people, admin ---------------------------------------------------------

const recovery = new RecoveryKeyDialog({ onSaved: () => store.saveRecoveryKey(null) });
const reminder = new RecoveryReminder({ parent: $("sidebar"), before: $("sidebar").querySelector(".me"), onShow: () => recovery.show(store.state.unsavedRecoveryKey) });
/** what the welcome screen says after a sign-out this page asked for (false: it did not ask) */
let signingOut = false;

const account = new AccountDialog({
  devices: async () => (await client.request("devices.list")).devices,
  renameDevice: (deviceId, name) => client.request("devices.rename", { deviceId, name }),
  revokeDevice: (deviceId) => client.request("devices.revoke", { deviceId }),
  revokeOthers: async () => (await client.request("devices.revokeAll", { keepThis: true })).revoked,
  createLink: async () => {
    const r = await client.request("devices.createLink");
    return { link: deviceLink(location.origin, r.token), code: r.code, expiresAt: r.expiresAt };
  },
  newRecoveryKey: async () => {
    const { recoveryKey } = await client.request("recovery.create");
    store.saveRecoveryKey(recoveryKey);
    recovery.show(recoveryKey);
  },
  signOut: async () => {
    // revoking this device ends its token on the server too; the 4003 that follows signs the page out
    signingOut = "You signed out of this browser.";
    try {
      await client.request("devices.revoke", { deviceId: store.state.device?.id });
    } catch {
      signedOut();
    }
  },
  deleteAccount: () => deleteAccountDialog.show(),
  notices: () => noticeState(store.state.user?.id),
  chooseNotices: async (on) => {
    const state = await chooseNotices(store.state.user?.id, on);
    if (state !== "on") await notices.closeAll();
    return state;
  },
});

const members = new MembersDialog({
  rename: (title) => sync.renameConversation(store.state.currentId, title),
  remove: async (userId, name) => {
    const c = store.conversation(store.state.currentId);
    // A removed member cannot rejoin with an invite made before, but a new account made
    // with one of them can: offered (and meant) for a harasser, not forced on a tidy-up.
    const shared = await invites.list(c.id).catch(() => []);
    const n = shared.length;
    const option = n ? { checked: true, label: `Also stop ${n === 1 ? "the invite link" : `the ${n} invite links`} shared so far, so that ${name} cannot come back with a new account (you can make a new one)` } : null;
    if (!(await confirm({ title: `Remove ${name}?`, text: `${name} will no longer see “${c.title}” or be able to send to it.`, yes: "Remove", option }))) return;
    await sync.removeMember(c.id, userId);
    if (option?.checked) {
      const revoked = await Promise.allSettled(shared.map((i) => invites.revoke(i.id)));
      const kept = revoked.filter((r) => r.status === "rejected").length;
      announce(kept ? `${name} was removed. ${kept} invite link${kept === 1 ? "" : "s"} could not be stopped: try again from Invite.` : `${name} was removed, and the invite links shared so far no longer work.`);
      return;
    }
    announce(`${name} was removed.`);
  },
  leave: async () => {
    const c = store.conversation(store.state.currentId);
    if (!(await confirm({ title: `Leave “${c.title}”?`, text: "You will need a new invite to come back.", yes: "Leave" }))) return false;
    await sync.leave(c.id);
    announce(`You left ${c.title}.`);
    return true;
  },
  setNotify: async (conversationId, notify) => {
    await sync.notifyLevels.set(conversationId, notify);
    if (notify !== "all") notices.close(conversationId);
  },
  message: async (userId) => {
    try {
      location.hash = conversationHash(await people.open(userId));
    } catch (e) {
      // the same words whatever the reason (a block is not revealed), not a moderator's
      throw e.code === "forbidden" ? new Error("You cannot message this person.") : e;
    }
  },
  blocked: (userId) => blockedIds(store.state.blocked).has(userId),
  block: async (userId, name) => {
    const text = `${name} will not be able to message you directly, and their messages in conversations you share will be folded away for you. They are not told.`;
    if (!(await confirm({ title: `Block ${name}?`, text, yes: "Block" }))) return false;
    await people.block(userId, name);
    announce(`${name} is blocked.`);
  },
  unblock: async (userId, name) => {
    await people.unblock(userId);
    announce(`${name} is unblocked.`);
  },
});

// ---- direct conversations and blocks (sync/direct.js) ----------------------------------

const people = new People(client, store, sync);
const blockedList = new BlockedList({ unblock: (userId, name) => members.api.unblock(userId, name) });
account.dialog.querySelector(".dialog-actions").before(blockedList.el);

// ---- reports to the admins (views/reports.js) ----------------------------------------

new OpenReports(client, store);
// the conversation's photos, one after another, among the messages held (not a blocked
// person's, which the transcript folds away)
const photoViewer = new PhotoViewer({
  beside: ({ conversationId, seq }, step) => {
    if (!conversationId || !seq) return null;
    const blocked = blockedIds(store.state.blocked);
    const photos = store.transcript(conversationId).messages.filter((m) => m.kind === "attachment" && !blocked.has(m.sender));
    const i = photos.findIndex((m) => m.seq === seq);
    const m = i < 0 ? null : photos[i + step];
    return m ? { ...photoOf(m, bubbleContext(conversationId)), conversationId } : null;
  },
  deleted: (conversationId, seq) => store.transcript(conversationId).messages.some((m) => m.seq === seq && m.kind === "deleted"),
});
const reportDialog = new ReportDialog({
  report: (conversationId, seq, reason) => client.request("messages.report", { conversationId, seq, ...(reason ? { reason } : {}) }),
  errorText,
  announce: (text) => announce(text),
});
/** Deletes a picture and every message showing it; how many messages went. */
const deleteImageEverywhere = async (hash) => (await client.request("admin.images.delete", { hash })).deletedMessages;
const reportsSection = new ReportsSection({
  list: () => client.request("admin.reports.list", { limit: 100 }),
  resolve: (reportId) => client.request("admin.reports.resolve", { reportId }),
  deleteMessage: (conversationId, seq) => client.request("admin.messages.delete", { conversationId, seq }),
  deactivate: (userId) => client.request("admin.users.deactivate", { userId }),
  deleteImage: deleteImageEverywhere,
  confirm: (o) => confirm(o),
  isMember: (conversationId) => {
    const c = store.conversation(conversationId);
    return !!c && !c.left;
  },
  open: (conversationId, seq) => {
    admin.dialog.close();
    location.hash = conversationHash(conversationId);
    openConversation(conversationId);
    showOriginal(conversationId, seq);
  },
  run: (fn, ...args) => admin.run(fn, ...args),
  status: (text) => { admin.status.textContent = text; },
  appName: (appId) => catalog.name(appId),
});

const admin = new AdminDialog({
  reports: reportsSection,
  users: async () => (await client.request("admin.users.list", { limit: 500 })).users,
  setAdmin: (userId, isAdmin) => client.request("admin.users.setAdmin", { userId, admin: isAdmin }),
  deactivate: (userId) => client.request("admin.users.deactivate", { userId }),
  reactivate: (userId) => client.request("admin.users.reactivate", { userId }),
  deleteUser: (userId) => client.request("admin.users.delete", { userId }),
  // for one person, as the admin page says (the shell's registration-link takes --max-uses)
  createRegistrationLink: async () => registrationLink(location.origin, (await client.request("admin.registrationLinks.create", { maxUses: 1 })).invite),
  invites: async () => (await client.request("admin.invites.list", {})).invites,
  revokeInvite: (inviteId) => client.request("admin.invites.revoke", { inviteId }),
  deleteMessage: (conversationId, seq) => client.request("admin.messages.delete", { conversationId, seq }),
  deleteImage: deleteImageEverywhere,
  selfId: () => store.state.user?.id,
  confirm: (o) => confirm(o),
});

async function deleteMessage(conversationId, m) {
  const yes = await confirm({ title: "Delete this message?", text: "It is deleted for everyone in the conversation.", yes: "Delete" });
  if (!yes) return;
  try {
    await sync.deleteMessage(conversationId, m.seq);
  } catch (e) {
    announce(errorText(e));
  }
}

// ---- attention: the tab's title and notifications ------------------------------------

const notices = new Notices({ onOpen: (id) => { location.hash = conversationHash(id); }, onElsewhere: () => attend() });
/** per conversation, the newest seq the person was told of or could see (state/attention.js) */
const told = new Map();
/** conversationId → how many times the message told of had been edited when told */
const toldEdits = new Map();

/**
 * The title counts the unread messages; while the person is away, a conversation's
 * new message is told of, when they chose it, and closed once read.
 */
function attend() {
  const s = store.state;
  const selfId = s.user?.id;
  if (!selfId) return;
  const here = looking();
  notices.attended(here);
  const away = !here && !notices.attendedElsewhere;
  let total = 0;
  const newest = new Map();
  const blocked = blockedIds(s.blocked);
  const seen = s.conversations.map((c) => {
    const t = store.transcript(c.id);
    let m = newestUnread(t, s.lastRead[c.id] || 0, selfId, blocked);
    // a reader far up in a long conversation has its newest messages held back, not in
    // the transcript (sync.js: HOLD): the list's last message stands for them
    const last = c.lastMessage;
    if (heldNew(t) && last && last.sender !== selfId && last.kind !== "deleted" && last.seq > (m?.seq ?? 0)) m = last;
    // one left (here or elsewhere) tells nothing more, and what it told goes
    // nor is someone blocked heard of in a notification (their message waits folded)
    if (m && !c.left && !blocked.has(m.sender)) newest.set(c.id, m);
    else notices.close(c.id);
    // a muted conversation (or one of mentions only) counts only what mentions the person
    const n = unread(c.id);
    if (!c.left) total += titleCount(c.notify, n, () => unreadMentions(t.messages, s.lastRead[c.id] || 0, selfId, blocked) + heldMentions(t));
    // after a reload the kept preview says what this browser already saw
    return { id: c.id, newestSeq: Math.max(t.messages.at(-1)?.seq ?? 0, s.previews[c.id]?.seq ?? 0), unreadSeq: m?.seq ?? 0 };
  });
  const open = s.currentId && store.conversation(s.currentId);
  document.title = titleWith(open ? `${open.title} · Parlor` : "Parlor", total);
  const due = dueNotices(told, seen, away).filter((id) => newest.has(id));
  // the message told of was deleted: its text goes, the one before it is told instead
  const stale = [...notices.told].filter(([id, seq]) => newest.get(id)?.seq < seq).map(([id]) => id);
  // the message told of was edited: told again, quietly, in its new words (state/edits.js)
  for (const [id, seq] of notices.told) if (newest.get(id)?.seq === seq && (newest.get(id).editCount ?? 0) !== (toldEdits.get(id) ?? 0)) stale.push(id);
  if ((!due.length && !stale.length) || noticeState(selfId) !== "on") return;
  // the member's level there, on every device of theirs (sync/notifyLevels.js)
  for (const id of [...due, ...stale].filter((c) => wantsNotice(store.conversation(c)?.notify, newest.get(c), selfId))) {
    const c = store.conversation(id);
    const m = newest.get(id);
    const n = unreadCount(store.transcript(id), s.lastRead[id] || 0, selfId, blocked) + heldNew(store.transcript(id));
    notices.show(id, m.seq, noticeText(n > 1 ? `${c.title}: ${n} new messages` : c.title), noticeBody(id, m), { quiet: !due.includes(id) });
    toldEdits.set(id, m.editCount ?? 0);
  }
}

/** Others' messages held back from a transcript (a reader far up), not in its messages. */
const heldNew = (t) => (t.hasMoreAfter ? t.heldBackNew ?? 0 : 0);
/** Those of them that mention the reader. */
const heldMentions = (t) => (t.hasMoreAfter ? t.heldBackMentions ?? 0 : 0);

/**
 * A recorded voice message: into the outbox at once, its recording uploaded just before
 * it is sent (sync/outbox.js), so one recorded offline waits as a drawing does. It
 * carries the reply being written, as a picture sent alone would.
 */
function sendVoice(id, blob, durationMs) {
  if (!id || store.conversation(id)?.left) return;
  const replyTo = outgoing.replying(id)?.seq;
  outgoing.setReply(id, null);
  sync.send(id, { kind: "audio", durationMs, ...(replyTo ? { replyTo } : {}) }, { image: blob })
    .catch((error) => failed({ conversationId: id, item: null, error }));
  chat.transcript.toNewest();
}

/** What a notification says of a message: as the list would, with its sender named. */
function noticeBody(conversationId, m) {
  // an app's text names people by ids whose names may not be here yet: "…" stood for them
  if (m.kind === "app" && mentionedParticipants(m.summaryText || m.layout?.caption || "").length
      && !store.state.participants[participantsKey(conversationId, m.appId)]) {
    return noticeText(`${store.memberName(conversationId, m.sender)}: ${catalog.name(m.appId)}`);
  }
  return noticeText(previewLine(m, { ...previews.how(conversationId), group: true }));
}

/** This device's token is dead (revoked here or elsewhere, or the account deactivated or deleted). */
async function signedOut(reason) {
  await notices.closeAll();
  store.token = null;
  store.saveRecoveryKey(null);
  // a token refused at sign-in: whose it was is not known, and it was this browser's only account
  store.forgetUser(store.state.user?.id ?? null);
  await sync.images.prune(new Set()).catch(() => {});
  const mine = signingOut;
  signingOut = false;
  history.replaceState(null, "", `${location.pathname}#/`);
  // said on the welcome screen of the reloaded page
  sessionStorage.setItem("parlor.signedOut", mine || signedOutText(reason));
  // the conversations' images stay in the browser's cache: the server's answer clears it
  await fetch("/signed-out", { cache: "no-store" }).catch(() => {});
  // the page holds that account's state: start from a clean one
  location.reload();
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

// At most one render a frame: each frame the server sends is a task of its own, and a
// render after each one (a busy room, the replay of hundreds of messages after a
// reload) drew the page more often than a phone could, until it stopped answering.
// The timeout draws a hidden tab, where frames do not come.
store.addEventListener("change", (e) => {
  for (const p of e.detail.parts) changed.add(p);
  if (!scheduled) {
    scheduled = true;
    requestAnimationFrame(renderIfScheduled);
    setTimeout(renderIfScheduled, 100);
  }
});

function renderIfScheduled() {
  if (scheduled) render();
}
catalog.addEventListener("change", () => {
  changed.add("apps");
  previews.refresh();
  render();
});

/**
 * The person is looking at this page: shown, and its window the one in front. On Linux
 * a window covered by others stays "visible": messages counted read there were never
 * seen, and never rang. (An app's frame holding the focus still counts: hasFocus.)
 */
function looking() {
  return document.visibilityState === "visible" && document.hasFocus();
}

/** What the list counts unread there: what the transcript holds, and what it holds back (a reader far up). */
function unread(conversationId) {
  if (conversationId === store.state.currentId && looking()) return 0;
  const s = store.state;
  const t = store.transcript(conversationId);
  return unreadCount(t, s.lastRead[conversationId] || 0, s.user?.id, blockedIds(s.blocked)) + heldNew(t);
}

function bubbleContext(conversationId) {
  const s = store.state;
  return {
    selfId: s.user?.id,
    selfName: s.user?.name,
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
    pendingImage: (key) => sync.images.url(key),
    canDelete: (m) => !store.conversation(conversationId)?.left && (m.sender === s.user?.id || s.user?.admin === true),
    onDelete: (m) => deleteMessage(conversationId, m),
    canReport: (m) => !store.conversation(conversationId)?.left && m.sender !== s.user?.id,
    isBlocked: (userId) => s.blocked.some((b) => b.userId === userId),
    onViewPhoto: (photo) => photoViewer.show({ ...photo, conversationId }),
    onReport: (m) => reportDialog.show(conversationId, m, store.memberName(conversationId, m.sender), messageWords(m, bubbleContext(conversationId))),
    canReact: () => !store.conversation(conversationId)?.left,
    // through the outbox as any message (shown at once, kept and sent again offline); a refused one is dropped
    onReact: (m, emoji) => sync.send(conversationId, { kind: "reaction", to: m.seq, emoji }).catch((e) => announce(`Reaction not sent: ${errorText(e)}`)),
    canReply: () => !store.conversation(conversationId)?.left,
    onReply: (m) => replyTo(conversationId, m),
    onShowOriginal: (seq) => showOriginal(conversationId, seq),
    editableUntil: (m) => editing.until(conversationId, m),
    onEdit: (m) => editing.start(conversationId, m),
    onDiscard: (clientId) => sync.discard(conversationId, clientId),
    liveView: (m, standIn) => live.view(conversationId, m, `${catalog.name(m.appId)}: ${m.layout?.caption || m.summaryText || "live message"}`, standIn),
    keepInPlace: (wanted, container) => live.keepInPlace(wanted, container),
  };
}

/** Reply: the strip above the box says to what, and the caret is in the box. */
function replyTo(conversationId, m) {
  const { who, line, picture } = replyQuote(m, bubbleContext(conversationId));
  outgoing.setReply(conversationId, { seq: m.seq, who, line, picture });
  chat.composer.input.focus();
}

/** Further back than this from what is held, a message is shown in a page around it instead. */
const FAR_BACK = 500;

/**
 * A reply's quote, or a search's match: to the message, scrolled to and highlighted;
 * older than what is held, history is paged back to it first, as "Load earlier
 * messages" does, or, far back (or newer than what is held), a page around it is
 * held instead (sync/resume.js: loadAround).
 */
async function showOriginal(conversationId, seq) {
  const held = () => messageBySeq(store.transcript(conversationId), seq);
  try {
    const t = store.transcript(conversationId);
    const oldest = t.messages[0]?.seq;
    const newest = t.messages.at(-1)?.seq ?? 0;
    if (!held() && (oldest === undefined || oldest - seq > FAR_BACK || (t.hasMoreAfter && seq > newest))) {
      await sync.loadAround(conversationId, seq);
    }
    for (let pages = 0; !held() && store.transcript(conversationId).hasMoreBefore && pages < 50; pages++) {
      await sync.loadOlder(conversationId);
    }
  } catch {
    announce("Could not load earlier messages.");
    return;
  }
  if (store.state.currentId !== conversationId) return;
  if (scheduled) render(); // a page just loaded is drawn before it is looked for
  if (!chat.transcript.reveal(seq)) announce("That message is not in this conversation any more.");
}

// ---- search in the open conversation ------------------------------------------------

const search = new SearchView({
  onSearch: (query, beforeSeq) => runSearch(query, beforeSeq),
  onChoose: (seq) => chooseMatch(seq),
  onClose: () => closeSearch(),
  who: (m) => (m.sender === store.state.user?.id ? "You" : store.memberName(store.state.currentId, m.sender)),
});
chat.headerEl.after(search.el);
/** what had the focus when search was opened: it gets it back */
let searchReturn = null;
/** the search whose answer is awaited: an older one's answer is dropped */
let searchTurn = 0;

function openSearch() {
  if (!store.state.currentId) return;
  if (!search.open) searchReturn = document.activeElement;
  chat.header.searchButton.setAttribute("aria-expanded", "true");
  search.show();
}

/** `refocus`: the focus goes back where it was (Escape, Close); a chosen match takes it instead. */
function closeSearch({ refocus = true } = {}) {
  if (!search.open) return;
  const back = searchReturn;
  searchReturn = null;
  search.hide();
  chat.header.searchButton.setAttribute("aria-expanded", "false");
  if (!refocus) return;
  if (back instanceof HTMLElement && back.isConnected && back !== document.body && !back.closest("[hidden], [inert]")) back.focus();
  else focusWhereYouWere();
}

/** Answers with nothing found that a search or "Search earlier messages" goes on past by itself. */
const SEARCH_ROUNDS = 3;

/**
 * One search request (the server reads up to 2,000 messages a request); an answer with
 * nothing found goes on by itself, up to SEARCH_ROUNDS requests in all, so a person is
 * not asked to press "Search earlier messages" over every stretch without a match.
 */
async function runSearch(query, beforeSeq, rounds = SEARCH_ROUNDS) {
  const id = store.state.currentId;
  if (!id) return;
  const turn = ++searchTurn;
  const s = beforeSeq && search.state ? { ...search.state, loading: true, error: undefined } : newSearch(query);
  const how = searchContext(id);
  search.render(s, how);
  try {
    const r = await client.request("messages.search", { conversationId: id, query, ...(beforeSeq ? { beforeSeq } : {}) });
    if (turn !== searchTurn || store.state.currentId !== id) return;
    // senders beyond the member list (who left, a big room's) are named as history's are
    for (const m of r.messages) sync.names.learn(id, m.sender);
    const next = withAnswer(s, r);
    const goOn = !r.messages.length && r.hasMore && rounds > 1;
    // still searching, not "No messages found" said and taken back a moment later
    search.render(goOn ? { ...next, loading: true } : next, how);
    if (goOn) await runSearch(query, r.nextBeforeSeq, rounds - 1);
  } catch (e) {
    if (turn !== searchTurn) return;
    search.render({ ...s, loading: false, error: e.code || "internal" }, how);
  }
}

function searchContext(conversationId) {
  const ctx = bubbleContext(conversationId);
  return { names: (text, m) => (m.kind === "app" ? ctx.names(text, m.appId) : text) };
}

// a match deleted while it is listed leaves the list
sync.addEventListener("message", (e) => {
  const { conversationId, message: m } = e.detail;
  if (m.kind !== "deletion" || conversationId !== store.state.currentId || !search.state) return;
  const s = withoutDeleted(search.state, m.deletes);
  if (s !== search.state) search.render(s, searchContext(conversationId));
});

/** A match chosen: search closes, the message is shown and takes the focus. */
function chooseMatch(seq) {
  const id = store.state.currentId;
  closeSearch({ refocus: false });
  showOriginal(id, seq);
}

// Ctrl+F (⌘F) in the conversation (its messages or the message box) searches it; anywhere
// else it is the browser's own find.
chat.el.addEventListener("keydown", (e) => {
  if (e.key.toLowerCase() !== "f" || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.isComposing) return;
  const t = /** @type {Element} */ (e.target);
  if (!store.state.currentId || !(chat.transcriptEl.contains(t) || chat.composerEl.contains(t))) return;
  e.preventDefault();
  openSearch();
});

function contextVersion(conversationId) {
  const s = store.state;
  const c = store.conversation(conversationId);
  const prefix = participantsKey(conversationId, "");
  const maps = Object.keys(s.participants).filter((k) => k.startsWith(prefix)).map((k) => s.participants[k]);
  const sig = JSON.stringify([c?.members, c?.former, s.installedApps, catalog.apps.size, s.user?.name, s.user?.admin, c?.left, s.blocked]);
  // a map asked for again (a member joined) is a new object under the same key
  if (sig !== ctxSignature || maps.length !== ctxMaps.length || maps.some((m, i) => m !== ctxMaps[i])) {
    ctxSignature = sig;
    ctxMaps = maps;
    ctxVersion++;
  }
  return ctxVersion;
}

/**
 * Where the "New messages" line stands in the open conversation: above the first message
 * unread when it was opened, fixed once its messages are loaded (what arrives while the
 * person reads it is not "new" to them), gone when another is opened.
 */
let newLine = { id: null, mark: 0, seq: undefined, fixed: false };

function newLineSeq(id, t) {
  if (newLine.id !== id) return undefined;
  if (!newLine.fixed && t.loaded) {
    newLine.seq = firstUnreadSeq(t, newLine.mark, store.state.user?.id, blockedIds(store.state.blocked));
    newLine.fixed = true;
  }
  return newLine.seq;
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
  // a block or an unblock changes what counts as unread there
  if (["conversations", "previews", "user", "presence", "current", "apps", "typing", "blocked"].some((p) => parts.has(p))) {
    const blocked = blockedIds(s.blocked);
    sidebar.render(s, unread, (conversationId, userId) => store.memberName(conversationId, userId),
      (conversationId) => {
        const t = store.transcript(conversationId);
        return heldMentions(t) > 0 || unreadMention(t.messages, s.lastRead[conversationId] || 0, s.user?.id, blocked);
      });
  }
  if (parts.has("reports") || parts.has("user")) {
    showOpenReports(sidebar.adminButton, s.user?.admin === true ? s.openReports ?? 0 : 0);
    if (parts.has("reports") && admin.dialog.open) reportsSection.refresh();
  }
  if (photoViewer.closeIfDeleted()) announce("The photo was deleted.");
  const conv = id ? store.conversation(id) : null;
  if (conv && (parts.has("conversations") || parts.has("presence") || parts.has("current") || parts.has("user") || parts.has("blocked"))) {
    chat.header.render(conv, s.user?.id, s.presence[id]);
    chat.setLeft(conv.left ? (conv.left === "removed" ? "You were removed from this conversation: you can read it, but no longer send to it." : "You left this conversation: you can read it, but no longer send to it.") : null);
    // a direct conversation with someone blocked (here or on another device): said, with Unblock
    const blocked = blockedOther(conv, s.user?.id, s.blocked);
    const newlyBlocked = blocked && !chat.blocked;
    chat.setBlocked(blocked);
    // left on another device (or removed), or blocked, with an app open here: nothing of it can be sent any more
    if (conv.left || newlyBlocked) {
      if (pane.activeAppId) pane.close();
      if (chat.drawer.open) setDrawer(false);
    }
    if (conv.left) {
      for (const item of outgoing.staged(id)) outgoing.remove(id, item.key);
      outgoing.setReply(id, null);
    }
  }
  if (parts.has("blocked")) blockedList.render(s.blocked);
  if ((parts.has("conversations") || parts.has("blocked")) && members.open) {
    const c = store.conversation(members.conversationId);
    if (c) members.render(c, s.user);
  }
  if (parts.has("recovery") || parts.has("user")) reminder.render(s.user ? s.unsavedRecoveryKey : null);
  if (conv && (parts.has(`transcript:${id}`) || parts.has("current") || parts.has("apps") || parts.has("conversations") || parts.has("blocked"))) {
    const t = store.transcript(id);
    chat.transcript.newFrom = newLineSeq(id, t);
    chat.transcript.render(id, t, bubbleContext(id), contextVersion(id));
    editing.sweep(chat.transcriptEl);
    if (conflictNotice && (conflictNotice.conversationId !== id || !hasConflict(t, conflictNotice.appId))) {
      conflictNotice = null;
      chat.composer.showNotice(null);
    }
    live.sweep();
    if (looking() && chat.transcript.atBottom) store.markRead(id, readThrough(t));
  }
  if (conv && (parts.has(`transcript:${id}`) || parts.has("current") || parts.has("apps") || parts.has("conversations") || parts.has("playing"))) {
    renderPlayers(chat.transcriptEl, s.playing[id], s.user?.id, (userId) => store.memberName(id, userId), (appId) => catalog.name(appId));
  }
  if (conv && (parts.has("typing") || parts.has("current") || parts.has("conversations"))) {
    chat.setTyping(typingNow(s.typing[id], Date.now(), s.user?.id, (userId) => store.memberName(id, userId)));
  }
  if (conv && (parts.has("staged") || parts.has("current"))) {
    chat.composer.renderStaged(outgoing.staged(id), bubbleContext(id));
  }
  if (parts.has("apps")) {
    chat.drawer.render(s.installedApps, catalog);
    if (appStore.dialog.open) appStore.render(catalog, s.installedApps);
  }
  if ([...parts].some((p) => p.startsWith("transcript:") || p === "conversations" || p === "current" || p === "user" || p === "attention" || p === "blocked")) attend();
}

/** What the open conversation shows down to its foot is read, while the person looks. */
function readWhatShows() {
  const id = store.state.currentId;
  if (id && looking() && chat.transcript.atBottom) store.markRead(id, readThrough(store.transcript(id)));
}

// a new message scrolls a hidden page to it too: that is not reading it
chat.transcriptEl.addEventListener("scroll", readWhatShows);
// the copies that wait a moment (store.writeSoon) are written before the page may be gone
addEventListener("pagehide", () => store.flush());
// away or back: the title counts the open conversation too while the page is hidden
for (const [target, type] of [[window, "focus"], [window, "blur"], [document, "visibilitychange"]]) {
  target.addEventListener(type, () => {
    readWhatShows();
    changed.add("attention");
    render();
  });
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") store.flush();
});

// ---- events -----------------------------------------------------------------------------

client.addEventListener("authfailed", (e) => {
  const { how } = e.detail;
  if (how === "token") {
    // as a 4003 would have, had the page been open: nothing of the account stays in this browser
    signedOut("token refused");
  } else if (how === "link") {
    if (parseRoute(location.hash).name === "link") history.replaceState(null, "", `${location.pathname}#/`);
    showWelcome({ mode: "code", error: errorText(e.detail) });
  } else if (how === "register" && e.detail.code === "registration_closed" && !client.credentials.invite && inviteInRoute()) {
    client.start({ ...client.credentials, invite: inviteInRoute() });
  } else {
    showWelcome({ mode: how === "recover" ? "recover" : "name", error: errorText(e.detail) });
  }
});

client.addEventListener("signedout", (e) => signedOut(e.detail.reason));

let justRegistered = null;
client.addEventListener("ready", (e) => {
  if (e.detail.registered) justRegistered = e.detail;
});

sync.addEventListener("ready", () => {
  welcome.hide();
  const r = parseRoute(location.hash, location.search);
  if (r.name === "link") history.replaceState(null, "", `${location.pathname}#/`);
  const fresh = justRegistered;
  justRegistered = null;
  if (fresh?.conversation) {
    // the invite made the account and joined it in one step: nothing more to ask
    history.replaceState(null, "", `${location.pathname}${conversationHash(fresh.conversation.id)}`);
    announce(`You joined ${fresh.conversation.title}.`);
  } else if (fresh && r.name === "register") {
    history.replaceState(null, "", `${location.pathname}#/`);
  }
  const key = store.state.unsavedRecoveryKey ?? store.recoveryKey;
  if (key && !store.state.unsavedRecoveryKey) store.update(["recovery"], () => ({ unsavedRecoveryKey: key }));
  // after the route's own question (join this conversation?), not on top of it
  const routed = route();
  Promise.resolve(routed).finally(() => (fresh && key ? recovery.show(key) : settleFocus()));
});

/** What someone can say in a conversation (not a deletion, a reaction, a member's coming or going). */
const NEWS_KINDS = new Set(["text", "attachment", "audio", "sticker", "app"]);
sync.addEventListener("message", (e) => {
  const { conversationId, message: m } = e.detail;
  pane.deliver(conversationId, m);
  if (m.kind === "edit") editing.heard(conversationId, m);
  // the open app shows its own moves; anything else from someone is news over it
  const news = NEWS_KINDS.has(m.kind) && !(m.kind === "app" && m.appId === pane.activeAppId);
  if (news && m.sender !== store.state.user?.id) pane.noteNews(conversationId, store.memberName(conversationId, m.sender));
});
sync.addEventListener("member", (e) => pane.membersChanged(e.detail.conversationId));
// this user's app storage changed (on another device): the open app of it is told
sync.addEventListener("appdata", (e) => pane.storageChanged(e.detail));
// a new recovery key was made on another device: the old one it may show is dead
sync.addEventListener("recoverykeyreplaced", () => {
  if (recovery.dialog.open) recovery.dialog.close();
});
sync.addEventListener("sendfailed", (e) => failed(e.detail));
sync.addEventListener("ratelimited", (e) =>
  announce(`${errorText({ code: e.detail.code, retryAfterMs: e.detail.retryInMs })} Your message will be sent then.`));
outgoing.addEventListener("failed", (e) => failed(e.detail));
outgoing.addEventListener("reply", (e) => {
  const { conversationId, reply } = e.detail;
  if (conversationId !== store.state.currentId) return;
  chat.composer.showReply(reply);
  // told, not shown: a toast covered the strip on a phone
  if (reply) say(`Replying to ${reply.who === "You" ? "yourself" : reply.who}: ${reply.line}`);
});
outgoing.addEventListener("inserttext", (e) => {
  if (e.detail.conversationId === store.state.currentId) chat.composer.insertText(e.detail.text);
});

// The notice about a refused move lasts as long as its grey copy does: the copy
// leaves once the app has merged and staged the move again, or this user moved the session
// on (the store's rule), which may be before the refusal reaches this page.
let conflictNotice = null;

function failed({ conversationId = undefined, item, error }) {
  if (error.code === "session_conflict") {
    const id = conversationId ?? item?.conversationId;
    const appId = item?.message?.appId || item?.appId || "";
    if (id !== store.state.currentId || !hasConflict(store.transcript(id), appId)) return;
    conflictNotice = { conversationId: id, appId };
    // the move that went first may be one's own, from another tab or device
    const first = error.current?.sender && error.current.sender === store.state.user?.id ? "you moved first on another device or tab" : "someone else played first";
    chat.composer.showNotice(`${catalog.name(appId)}: ${first}, so your move was not sent. Open it to try again.`);
  } else if (error.code !== "cancelled") {
    // a send is refused as forbidden only in a direct conversation with a block: the server's words say which side
    announce(`Not sent: ${error.code === "forbidden" && error.message ? `${error.message[0].toUpperCase()}${error.message.slice(1)}.` : errorText(error)}`);
  }
}

// Moving on to another app leaves that refused move behind: its notice goes too.
pane.addEventListener("change", () => {
  if (conflictNotice && pane.activeAppId && pane.activeAppId !== conflictNotice.appId) {
    conflictNotice = null;
    chat.composer.showNotice(null);
  }
});

window.addEventListener("hashchange", route);
window.addEventListener("online", () => client.reconnectNow());
window.addEventListener("offline", () => client.drop());

// ---- routing ----------------------------------------------------------------------------

let joining = null;

async function route() {
  if (!store.state.user) return;
  const r = parseRoute(location.hash, location.search);
  if (r.name === "join") return joinThrough(r.code);
  if (r.name === "register" || r.name === "link") {
    // a sign-up or sign-in link opened by someone already signed in here
    announce(r.name === "link" ? "This browser is already signed in." : "You already have an account here.");
    return leaveInvite(store.state.currentId);
  }
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
  if (store.state.currentId && !chat.composerEl.hidden) chat.composer.input.focus();
  else sidebar.focus();
}

/**
 * Focus that fell to <body>, or stays on something going away (a closed dialog's
 * button, a hidden form), goes where you were.
 */
function settleFocus() {
  const a = document.activeElement;
  const lost = !a || a === document.body || !a.isConnected || a.closest("dialog:not([open]), [hidden]");
  if (!lost) return;
  if (document.querySelector("dialog[open]") || !$("welcome").hidden) return;
  focusWhereYouWere();
}

// Chromium gives a closed dialog's focus back to a text field without its caret: the
// page's selection stays where the last click in the dialog put it, and what the person
// types next goes nowhere (the message box after the recovery key's Done). The caret is
// put back as the focus arrives, inside close(): the close event and any timer come
// later, after the first keys on a busy phone (input runs ahead of timers).
document.addEventListener("focusin", (e) => {
  const to = /** @type {any} */ (e.target);
  const from = e.relatedTarget;
  if (!(from instanceof Element) || !from.closest("dialog:not([open])")) return;
  if (typeof to.setSelectionRange === "function" && to.selectionStart !== null) to.setSelectionRange(to.selectionStart, to.selectionEnd, to.selectionDirection);
});

// A dialog gives the focus back to what opened it; when that is gone (the form
// that made a conversation, the welcome's name form), focus where you were.
// After the dialog's own close handlers: the app pane's send question gives the
// focus back to the app frame, and moving it to the composer first would make
// the frame's focus guard see a jump out of a text field (a theft) and take it back.
document.addEventListener("close", (e) => {
  if (e.target instanceof HTMLDialogElement) setTimeout(settleFocus, 0);
}, true);

// The skip link: straight to the message box (a link to #composer-input would
// change the route).
document.querySelector(".skip-link")?.addEventListener("click", (e) => {
  e.preventDefault();
  focusWhereYouWere();
});

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
    const { conversation: peek } = await (client.signInAnswer("invites.peek", { invite: code }) ?? client.request("invites.peek", { invite: code }));
    if (!stillAt(code)) return;
    // one left (or removed from) is joined again through a new invite: it only opened,
    // read-only, and the Leave dialog's "you will need a new invite" led nowhere
    const held = store.conversation(peek.id);
    if (!held || held.left) {
      const yes = await joinQuestion.ask({ title: peek.title, memberCount: peek.memberCount, name: store.state.user.name });
      if (!stillAt(code)) return;
      if (!yes) {
        leaveInvite(store.state.currentId);
        focusWhereYouWere();
        return;
      }
      const conv = await sync.join(code, peek.id);
      announce(`You joined ${conv.title}.`);
    }
    leaveInvite(peek.id);
  } catch (e) {
    if (e.code === "offline" || !stillAt(code)) return; // asked again on the next ready
    leaveInvite(store.state.currentId);
    // unknown or revoked, or mangled on the way (too long, control characters)
    if (e.code === "invalid_invite" || e.code === "invalid_field") await joinQuestion.invalid();
    else announce(errorText(e));
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
  if (s.currentId) sync.letGoOlder(s.currentId);
  closeSearch({ refocus: false });
  search.reset();
  searchTurn++;
  setDrawer(false);
  conflictNotice = null;
  chat.composer.showNotice(null);
  chat.composer.voice.dispatch("cancel"); // a recording is for the conversation it began in
  newLine = { id, mark: (id && s.lastRead[id]) || 0, seq: undefined, fixed: false };
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
  chat.composer.showReply(outgoing.replying(id)); // a reply begun there is kept with its draft
  const t = store.transcript(id);
  if (!t.loaded || t.messages.length < 30) sync.loadOlder(id).catch(() => {});
  chat.composer.input.focus();
}

// ---- start ------------------------------------------------------------------------------

catalog.load();
const token = store.token;
const opened = parseRoute(location.hash, location.search);
const goodbye = sessionStorage.getItem("parlor.signedOut");
sessionStorage.removeItem("parlor.signedOut");
if (token) client.start({ token });
else if (opened.name === "link") {
  // "Add a device" on another browser: the link signs this one in, nothing to type
  welcome.busy("Signing this browser in to your account…");
  client.start({ link: opened.token, deviceName: thisDevice });
} else showWelcome({ error: goodbye || "" });
