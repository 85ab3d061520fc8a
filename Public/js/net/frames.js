// The protocol codec: every inbound frame is parsed and checked here before
// anything else sees it (docs/PROTOCOL.md, version 1). A frame that does not
// match the contract is dropped with a reason; nothing downstream has to
// defend against a malformed message again.

import { TAPBACKS } from "../state/reactions.js";
import { canCarryReply } from "../state/replies.js";
import { blockedProblem } from "../state/direct.js";

export const SUBPROTOCOL = "parlor.v1";
/** A member's notification level in a conversation (conversations.setNotify). */
const NOTIFY = ["all", "mentions", "none"];

// "deleted": a tombstone where a message stood; "deletion": the record that says so;
// "reaction": a tapback on message `to` (state/reactions.js)
const KINDS = new Set(["text", "app", "sticker", "attachment", "audio", "reaction", "deleted", "deletion", "edit"]);
/** A voice message's length: 1 ms to 2 minutes (the server's bounds). */
const isVoiceLength = (ms) => Number.isSafeInteger(ms) && ms >= 1 && ms <= 120_000;
const LAYOUT_TEXT = ["imageTitle", "imageSubtitle", "caption", "subcaption", "trailingCaption", "trailingSubcaption"];
const HASH = /^[0-9a-f]{64}$/;
const TAPBACK_EMOJI = new Set(TAPBACKS.map((t) => t.emoji));
const MEMBER_CHANGES = new Set(["joined", "renamed", "left", "removed"]);

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const isString = (v) => typeof v === "string";
const isId = (v) => typeof v === "string" && v.length > 0 && v.length <= 200;
const isSeq = (v) => Number.isSafeInteger(v) && v >= 1;
const isTime = (v) => typeof v === "number" && Number.isFinite(v);
/** An image's side as the server gives it with the message (width, height: both or neither). */
const optSides = (w, h) => (w === undefined && h === undefined)
  || [w, h].every((v) => Number.isSafeInteger(v) && v >= 1 && v <= 100_000);
const optString = (v, max) => v === undefined || v === null || (typeof v === "string" && v.length <= max);

function fail(reason) {
  return { ok: false, reason };
}

/** Checks a layout object; returns a reason or null. */
export function layoutProblem(layout) {
  if (!isObject(layout)) return "layout is not an object";
  if (layout.image !== undefined && layout.image !== null && !(isString(layout.image) && HASH.test(layout.image)))
    return "layout.image is not a blob hash";
  for (const key of LAYOUT_TEXT) if (!optString(layout[key], 300)) return `layout.${key}`;
  if (!optSides(layout.imageWidth, layout.imageHeight)) return "layout.imageWidth";
  return null;
}

/** Checks a Message object; returns a reason or null. */
export function messageProblem(m) {
  if (!isObject(m)) return "message is not an object";
  if (!isSeq(m.seq)) return "message.seq";
  if (!isString(m.clientId)) return "message.clientId";
  if (!isId(m.sender)) return "message.sender";
  if (!isTime(m.createdAt)) return "message.createdAt";
  if (!KINDS.has(m.kind)) return "message.kind";
  if (m.supersededBy !== undefined && !isSeq(m.supersededBy)) return "message.supersededBy";
  if (m.summary !== undefined && !isString(m.summary)) return "message.summary";
  // an inline reply's original (text, sticker, attachment; state/replies.js)
  if (m.replyTo !== undefined && !isSeq(m.replyTo)) return "message.replyTo";
  // whom a text (or an edit's new text) names (state/mentions.js)
  if (m.mentions !== undefined && !(Array.isArray(m.mentions) && m.mentions.length <= 20 && m.mentions.every(isId))) return "message.mentions";
  switch (m.kind) {
    case "text":
      if (!isString(m.text)) return "message.text";
      if (m.editedAt !== undefined && !isTime(m.editedAt)) return "message.editedAt";
      if (m.editCount !== undefined && !isSeq(m.editCount)) return "message.editCount";
      break;
    case "app": {
      if (!isId(m.appId)) return "message.appId";
      if (!isString(m.url)) return "message.url";
      if (m.layout !== undefined && m.layout !== null) {
        const p = layoutProblem(m.layout);
        if (p) return p;
      }
      if (!optString(m.summaryText, 300)) return "message.summaryText";
      if (m.live !== undefined && typeof m.live !== "boolean") return "message.live";
      if (m.senderParticipantId !== undefined && !isString(m.senderParticipantId)) return "message.senderParticipantId";
      if (m.session !== undefined && m.session !== null) {
        if (!isObject(m.session) || !isId(m.session.id) || !Number.isSafeInteger(m.session.version))
          return "message.session";
      }
      break;
    }
    case "sticker":
      if (!isString(m.image) || !HASH.test(m.image)) return "message.image";
      if (!optString(m.description, 300)) return "message.description";
      if (m.stuckTo !== undefined && m.stuckTo !== null) {
        const s = m.stuckTo;
        if (!isObject(s) || !isSeq(s.seq) || !(s.x >= 0 && s.x <= 1) || !(s.y >= 0 && s.y <= 1))
          return "message.stuckTo";
      }
      break;
    case "attachment":
      if (!isString(m.image) || !HASH.test(m.image)) return "message.image";
      if (!optString(m.name, 300)) return "message.name";
      if (!optSides(m.width, m.height)) return "message.width";
      break;
    case "audio":
      if (!isString(m.audio) || !HASH.test(m.audio)) return "message.audio";
      if (!isVoiceLength(m.durationMs)) return "message.durationMs";
      break;
    case "reaction":
      if (!isSeq(m.to)) return "message.to";
      if (!isString(m.emoji)) return "message.emoji";
      break;
    case "edit":
      // the record of an edit (state/edits.js): its text only while it is the newest one
      if (!isSeq(m.edits)) return "message.edits";
      if (m.text !== undefined && !isString(m.text)) return "message.text";
      if (m.editCount !== undefined && !isSeq(m.editCount)) return "message.editCount";
      break;
    case "deletion":
      if (!isSeq(m.deletes)) return "message.deletes";
      if (m.by !== undefined && !isId(m.by)) return "message.by";
      break;
  }
  return null;
}

/** Checks a Conversation object; returns a reason or null. */
export function conversationProblem(c) {
  if (!isObject(c)) return "conversation is not an object";
  if (!isId(c.id)) return "conversation.id";
  if (!isString(c.title)) return "conversation.title";
  if (!Number.isSafeInteger(c.lastSeq) || c.lastSeq < 0) return "conversation.lastSeq";
  if (c.lastReadSeq !== undefined && !(Number.isSafeInteger(c.lastReadSeq) && c.lastReadSeq >= 0)) return "conversation.lastReadSeq";
  if (!Array.isArray(c.members)) return "conversation.members";
  if (c.memberCount !== undefined && (!Number.isSafeInteger(c.memberCount) || c.memberCount < c.members.length)) return "conversation.memberCount";
  for (const m of c.members) if (!isObject(m) || !isId(m.userId) || !isString(m.name)) return "conversation.members";
  if (c.notify !== undefined && !NOTIFY.includes(c.notify)) return "conversation.notify";
  if (c.directUserIds !== undefined && !(Array.isArray(c.directUserIds) && c.directUserIds.every(isId))) return "conversation.directUserIds";
  if (c.directNames !== undefined && !(Array.isArray(c.directNames) && c.directNames.length === c.directUserIds?.length
    && c.directNames.every(isString))) return "conversation.directNames";
  return null;
}

function eventProblem(f) {
  switch (f.type) {
    case "message": {
      if (!isId(f.conversationId)) return "conversationId";
      const p = messageProblem(f.message);
      if (p) return p;
      if (f.supersedes !== undefined && f.supersedes !== null) {
        if (!isObject(f.supersedes) || !isSeq(f.supersedes.seq) || !isString(f.supersedes.summary)) return "supersedes";
      }
      return null;
    }
    case "member":
      if (!isId(f.conversationId)) return "conversationId";
      if (!isObject(f.member) || !isId(f.member.userId) || !isString(f.member.name)) return "member";
      if (f.change !== undefined && !MEMBER_CHANGES.has(f.change)) return "change";
      if (f.memberCount !== undefined && !(Number.isSafeInteger(f.memberCount) && f.memberCount >= 0)) return "memberCount";
      return null;
    case "conversation":
      return conversationProblem(f.conversation);
    case "presence":
      if (!isId(f.conversationId)) return "conversationId";
      if (Array.isArray(f.online)) return f.online.every(isId) ? null : "online";
      if (isId(f.userId) && typeof f.online === "boolean") return null;
      return "presence";
    case "playing":
      if (!isId(f.conversationId)) return "conversationId";
      if (f.sessions !== undefined) {
        if (!isObject(f.sessions)) return "sessions";
        return Object.values(f.sessions).every((l) => Array.isArray(l) && l.every(isId)) ? null : "sessions";
      }
      return isId(f.sessionId) && isId(f.userId) && typeof f.playing === "boolean" ? null : "playing";
    case "appdata":
      if (!isId(f.appId)) return "appId";
      if (!isString(f.key) || f.key.length === 0) return "key";
      return "value" in f ? null : "value";
    case "apps":
      return Array.isArray(f.installedApps) && f.installedApps.every(isString) ? null : "installedApps";
    case "recovery":
      return f.deviceId === undefined || f.deviceId === null || isId(f.deviceId) ? null : "deviceId";
    case "user":
      return isObject(f.user) && isId(f.user.id) && isString(f.user.name) ? null : "user";
    case "typing":
      if (!isId(f.conversationId)) return "conversationId";
      return isId(f.userId) && typeof f.typing === "boolean" ? null : "typing";
    case "notify":
      if (!isId(f.conversationId)) return "conversationId";
      return NOTIFY.includes(f.notify) ? null : "notify";
    case "read":
      if (!isId(f.conversationId)) return "conversationId";
      return Number.isSafeInteger(f.seq) && f.seq >= 0 ? null : "seq";
    case "reports":
      return Number.isSafeInteger(f.open) && f.open >= 0 ? null : "open";
    case "blocked":
      return blockedProblem(f.users);
    default:
      return "unknown event type";
  }
}

/**
 * Parses one inbound text frame.
 * @param {unknown} data
 * @returns {{ok: true, frame: object} | {ok: false, reason: string}}
 */
export function parseFrame(data) {
  if (typeof data !== "string") return fail("not a text frame");
  let f;
  try {
    f = JSON.parse(data);
  } catch {
    return fail("not JSON");
  }
  if (!isObject(f) || !isString(f.type)) return fail("no type");
  if (f.type === "result") {
    if (!isString(f.re)) return fail("result without re");
    if (!isObject(f.result)) return fail("result is not an object");
    return { ok: true, frame: f };
  }
  if (f.type === "error") {
    if (f.re !== undefined && f.re !== null && !isString(f.re)) return fail("error.re");
    if (!isString(f.code)) return fail("error.code");
    if (f.message !== undefined && !isString(f.message)) return fail("error.message");
    if (f.retryAfterMs !== undefined && !(typeof f.retryAfterMs === "number" && f.retryAfterMs >= 0)) return fail("error.retryAfterMs");
    if (f.current !== undefined && f.current !== null) {
      const p = messageProblem(f.current);
      if (p) return fail(`error.current: ${p}`);
    }
    return { ok: true, frame: f };
  }
  const p = eventProblem(f);
  return p ? fail(`${f.type}: ${p}`) : { ok: true, frame: f };
}

/**
 * Checks a request's result against what that request promises.
 * @param {string} requestType
 * @param {object} r
 * @returns {string | null} a reason, or null when it is fine
 */
export function resultProblem(requestType, r) {
  switch (requestType) {
    case "register":
    case "device.link":
    case "recover":
      if (!isString(r.token) || r.token.length === 0) return "token";
      if (r.recoveryKey !== undefined && !isString(r.recoveryKey)) return "recoveryKey";
      if (r.conversation !== undefined && conversationProblem(r.conversation)) return "conversation";
    // falls through
    case "auth":
      if (!isObject(r.user) || !isId(r.user.id) || !isString(r.user.name)) return "user";
      if (!Array.isArray(r.installedApps) || !r.installedApps.every(isString)) return "installedApps";
      if (r.blocked !== undefined && blockedProblem(r.blocked)) return "blocked";
      return null;
    case "rename":
      return isObject(r.user) && isId(r.user.id) && isString(r.user.name) ? null : "user";
    case "conversations.list":
      if (!Array.isArray(r.conversations)) return "conversations";
      for (const c of r.conversations) {
        const p = conversationProblem(c);
        if (p) return p;
      }
      return null;
    case "conversations.create":
      if (!isString(r.invite)) return "invite";
      return conversationProblem(r.conversation);
    case "conversations.join":
    case "conversations.direct":
      return conversationProblem(r.conversation);
    case "invites.create":
    case "admin.registrationLinks.create":
      return isString(r.invite) && r.invite.length > 0 ? null : "invite";
    case "devices.list":
      return Array.isArray(r.devices) && r.devices.every((d) => isObject(d) && isId(d.id) && isString(d.name)) ? null : "devices";
    case "devices.createLink":
      return isString(r.token) && isString(r.code) && isTime(r.expiresAt) ? null : "link";
    case "invites.list":
    case "admin.invites.list":
      return Array.isArray(r.invites) && r.invites.every((i) => isObject(i) && isId(i.id) && isTime(i.expiresAt)) ? null : "invites";
    case "admin.users.list":
      return Array.isArray(r.users) && r.users.every((u) => isObject(u) && isId(u.id) && isString(u.name)) ? null : "users";
    case "invites.peek": {
      // what an invite leads to, before joining: shown in the question to the person
      const c = r.conversation;
      if (!isObject(c) || !isId(c.id)) return "conversation.id";
      if (!isString(c.title)) return "conversation.title";
      return Number.isSafeInteger(c.memberCount) && c.memberCount >= 0 ? null : "conversation.memberCount";
    }
    case "subscribe":
      if (!Number.isSafeInteger(r.lastSeq) || r.lastSeq < 0) return "lastSeq";
      if (typeof r.resync !== "boolean") return "resync";
      return conversationProblem(r.conversation);
    case "send":
      if (r.supersedes !== undefined && (!isObject(r.supersedes) || !isSeq(r.supersedes.seq) || !isString(r.supersedes.summary))) {
        return "supersedes";
      }
      return messageProblem(r.message);
    case "history":
      if (!Array.isArray(r.messages)) return "messages";
      for (const m of r.messages) {
        const p = messageProblem(m);
        if (p) return p;
      }
      return typeof r.hasMore === "boolean" ? null : "hasMore";
    case "messages.search":
      if (!Array.isArray(r.messages)) return "messages";
      for (const m of r.messages) {
        const p = messageProblem(m);
        if (p) return p;
      }
      if (typeof r.hasMore !== "boolean") return "hasMore";
      return !r.hasMore || isSeq(r.nextBeforeSeq) ? null : "nextBeforeSeq";
    case "apps.install":
    case "apps.uninstall":
      return Array.isArray(r.installedApps) && r.installedApps.every(isString) ? null : "installedApps";
    case "participants":
      if (!isString(r.local)) return "local";
      if (!Array.isArray(r.participants)) return "participants";
      for (const p of r.participants) if (!isObject(p) || !isId(p.userId) || !isString(p.participantId)) return "participants";
      return null;
    case "members":
      if (!Array.isArray(r.members)) return "members";
      for (const m of r.members) if (!isObject(m) || !isId(m.userId) || !isString(m.name)) return "members";
      return null;
    case "appdata.get":
      return isObject(r.data) ? null : "data";
    default:
      return null;
  }
}

let lastMs = 0;
let counter = 0;

/**
 * A client id for `send` (and a local key): a UUID of version 7 (RFC 9562), whose
 * first 48 bits are the time in milliseconds and the next 12 a counter within that
 * millisecond, so ids sort in the order they were made. The server keeps an index of
 * everyone's ids, id first (to store a resent message once), where ids made at about
 * the same time land together at its end; random ids landed each on a random page of
 * it and wrote five times the bytes (docs/BENCHMARKS.md, sessions 15 and 16).
 * @param {number} [now] the time, ms (tests)
 */
export function newClientId(now = Date.now()) {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  if (now > lastMs) {
    lastMs = now;
    counter = bytes[6] & 0x03; // a random start, with room to count up
  } else if (++counter > 0xfff) {
    lastMs += 1; // 4,096 in one millisecond: borrow the next one
    counter = 0;
  }
  let t = lastMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = t % 256;
    t = Math.floor(t / 256);
  }
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The outbound message body of the kinds a client sends, checked against the
 * limits of the protocol before it leaves (so the user hears it at once).
 * @returns {string | null} a reason, or null when it is fine
 */
export function outboundProblem(msg) {
  if (!isObject(msg)) return "message";
  if (msg.replyTo !== undefined && (!isSeq(msg.replyTo) || !canCarryReply(msg))) return "replyTo";
  switch (msg.kind) {
    case "text":
      if (!isString(msg.text) || msg.text.trim().length === 0) return "text";
      if (msg.text.length > 10000) return "text is longer than 10,000 characters";
      return null;
    case "app":
      if (!isId(msg.appId)) return "appId";
      if (!isString(msg.url) || msg.url.length > 5000) return "url";
      if (!(msg.url.startsWith("?") || /^https?:\/\//i.test(msg.url))) return "url";
      if (msg.layout !== undefined && layoutProblem(msg.layout)) return "layout";
      if (!optString(msg.summaryText, 300)) return "summaryText";
      return null;
    case "sticker":
      return isString(msg.image) && HASH.test(msg.image) ? null : "image";
    case "attachment":
      // no `image` yet while a photo waits to be uploaded (sync/outbox.js)
      if (msg.image !== undefined && !(isString(msg.image) && HASH.test(msg.image))) return "image";
      return optString(msg.name, 300) ? null : "name";
    case "audio":
      // no `audio` yet while its recording waits to be uploaded (sync/outbox.js)
      if (msg.audio !== undefined && !(isString(msg.audio) && HASH.test(msg.audio))) return "audio";
      return isVoiceLength(msg.durationMs) ? null : "durationMs";
    case "reaction":
      if (!isSeq(msg.to)) return "to";
      return msg.emoji === "" || TAPBACK_EMOJI.has(msg.emoji) ? null : "emoji";
    default:
      return "kind";
  }
}
