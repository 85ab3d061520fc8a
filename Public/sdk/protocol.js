// The postMessage bridge between an app frame and the host page, version 1.
// Shared by both sides: the SDK builds these messages, the host checks every
// one of them with `checkCall` before acting (an app need not use the SDK;
// whatever reaches the host is judged here).
//
// app → host   {parlor:1, type:"call", id, method, args}
//              {parlor:1, type:"ack", re, value?}      a hook has returned
//              {parlor:1, type:"notice", name}          no reply: "focused" (the app's
//                window got the focus; posted with includeUserActivation, so the
//                host reads from the browser, not the app, whether a gesture in
//                the frame did it) or "escape" (Escape pressed and not handled)
// host → app   {parlor:1, type:"reply", re, ok:true, value}
//              {parlor:1, type:"reply", re, ok:false, error:{code, message, current?}}
//              {parlor:1, type:"event", id, name, data}

export const BRIDGE_VERSION = 1;

export const STYLES = Object.freeze({ compact: "compact", expanded: "expanded", transcript: "transcript" });

export const HOOKS = Object.freeze([
  "willBecomeActive",
  "didBecomeActive",
  "willResignActive",
  "didResignActive",
  "willTransition",
  "didTransition",
  "didReceive",
  "didSelect",
  "didStartSending",
  "didCancelSending",
  "didFailSending",
  "didSendWhileClosed",
  "contentSizeThatFits",
  "conversationDidChange",
  "storageDidChange",
]);

export const NOTICES = Object.freeze(["focused", "escape"]);

export const LIMITS = Object.freeze({
  url: 5000,
  text: 300,
  insertText: 10000,
  sessionId: 64,
  ref: 64,
  storageKey: 128,
  storageValue: 16 * 1024,
  storageTotal: 256 * 1024,
  uploadBytes: 5 * 1024 * 1024,
  stickerBytes: 500 * 1024,
});

export const LAYOUT_FIELDS = Object.freeze([
  "imageTitle",
  "imageSubtitle",
  "caption",
  "subcaption",
  "trailingCaption",
  "trailingSubcaption",
]);

const HASH = /^[0-9a-f]{64}$/;
const REF = /^[A-Za-z0-9_-]{1,64}$/;
export const UPLOAD_TYPES = Object.freeze(["image/png", "image/apng", "image/jpeg", "image/gif", "image/webp"]);
export const STICKER_TYPES = Object.freeze(["image/png", "image/apng", "image/gif", "image/jpeg"]);

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const isBlob = (v) => typeof Blob !== "undefined" && v instanceof Blob;

export class BridgeError extends Error {
  constructor(code, message, extra = {}) {
    super(message);
    this.name = "BridgeError";
    this.code = code;
    Object.assign(this, extra);
  }
}

/** A refusal: `invalid_call`, or over a size limit the code the server gives for it. */
function bad(problem) {
  return typeof problem === "string"
    ? { ok: false, error: { code: "invalid_call", message: problem } }
    : { ok: false, error: { code: problem.code, message: problem.message } };
}

/** Over a limit on length (as the server says it: docs/APPS.md promises its codes). */
const tooLong = (message) => ({ code: "too_long", message });

/** Why a text field is refused: not text (invalid_call), or too long (too_long). */
function textProblem(v, name, max = LIMITS.text) {
  const message = `${name} must be text of at most ${max} characters`;
  return typeof v === "string" ? tooLong(message) : message;
}

function textOk(v, max) {
  return v === undefined || v === null || (typeof v === "string" && v.length <= max);
}

/** Checks a message draft an app wants to insert or send; returns a reason or null. */
export function draftProblem(d) {
  if (!isObject(d)) return "message must be an object";
  if (typeof d.url !== "string") return "message.url must be a string";
  if (d.url.length > LIMITS.url) return tooLong(`message.url is longer than ${LIMITS.url} characters`);
  if (!(d.url.startsWith("?") || /^https?:\/\/[^\s]+$/i.test(d.url))) return "message.url must be an http(s) URL or a ?query";
  if (d.layout !== undefined && d.layout !== null) {
    if (!isObject(d.layout)) return "message.layout must be an object";
    for (const key of Object.keys(d.layout)) {
      if (key !== "image" && !LAYOUT_FIELDS.includes(key)) return `message.layout.${key} is not a layout field`;
    }
    if (d.layout.image !== undefined && d.layout.image !== null && !(typeof d.layout.image === "string" && HASH.test(d.layout.image)))
      return "message.layout.image must be an uploaded image hash";
    for (const key of LAYOUT_FIELDS) if (!textOk(d.layout[key], LIMITS.text)) return textProblem(d.layout[key], `message.layout.${key}`);
  }
  if (!textOk(d.summaryText, LIMITS.text)) return textProblem(d.summaryText, "message.summaryText");
  if (d.live !== undefined && typeof d.live !== "boolean") return "message.live must be a boolean";
  if (d.session !== undefined && d.session !== null) {
    const s = d.session;
    if (!isObject(s)) return "message.session must be an object";
    if (typeof s.id !== "string" || s.id.length < 1 || s.id.length > LIMITS.sessionId) return "message.session.id must be 1–64 characters";
    if (!Number.isSafeInteger(s.baseVersion) || s.baseVersion < 0) return "message.session.baseVersion must be a whole number ≥ 0";
  }
  return null;
}

function imageBlobProblem(b) {
  if (!isBlob(b)) return "an image must be a Blob";
  if (b.size > LIMITS.uploadBytes) return { code: "too_large", message: "the image is larger than 5 MiB" };
  if (b.size === 0) return "the image is empty";
  return null;
}

function storageKeyProblem(k) {
  if (typeof k !== "string" || k.length < 1) return "key must be 1–128 characters";
  return k.length > LIMITS.storageKey ? tooLong("key must be 1–128 characters") : null;
}

/**
 * Checks one message that arrived from an app frame.
 * @param {unknown} data  event.data
 * @returns {{ok: true, kind: "call", id: number, method: string, args: object}
 *         | {ok: true, kind: "ack", re: number, value: unknown}
 *         | {ok: false, error: {code: string, message: string}, id?: number}}
 */
export function checkAppMessage(data) {
  if (!isObject(data) || data.parlor !== BRIDGE_VERSION) return bad("not a Parlor bridge message");
  if (data.type === "ack") {
    if (!Number.isSafeInteger(data.re)) return bad("ack without re");
    return { ok: true, kind: "ack", re: data.re, value: data.value };
  }
  if (data.type === "notice") {
    if (!NOTICES.includes(data.name)) return bad("unknown notice");
    return { ok: true, kind: "notice", name: data.name };
  }
  if (data.type !== "call") return bad("unknown message type");
  if (!Number.isSafeInteger(data.id) || data.id < 0) return bad("call without id");
  const id = data.id;
  const args = data.args === undefined ? {} : data.args;
  if (!isObject(args)) return { ...bad("args must be an object"), id };
  const r = checkArgs(data.method, args);
  if (r) return { ...bad(r), id };
  return { ok: true, kind: "call", id, method: data.method, args };
}

function checkArgs(method, a) {
  switch (method) {
    case "ready":
    case "dismiss":
    case "storage.keys":
      return null;
    case "insert":
    case "send": {
      if (typeof a.ref !== "string" || !REF.test(a.ref)) return "ref must be 1–64 letters, digits, - or _";
      // `image`: the layout's image, not uploaded yet; the host uploads it when the message is sent
      if (a.image !== undefined) {
        const problem = imageBlobProblem(a.image);
        if (problem) return problem;
        if (isObject(a.message) && isObject(a.message.layout) && a.message.layout.image != null) return "give the image as message.layout.image or as image, not both";
      }
      return draftProblem(a.message);
    }
    case "insertText":
      if (typeof a.text !== "string" || a.text.length < 1) return "text must be 1–10,000 characters";
      if (a.text.length > LIMITS.insertText) return tooLong("text must be 1–10,000 characters");
      return null;
    case "insertSticker":
      if (typeof a.image !== "string" || !HASH.test(a.image)) return "image must be an uploaded image hash";
      if (!textOk(a.description, LIMITS.text)) return textProblem(a.description, "description");
      return null;
    case "insertAttachment":
      if (typeof a.image !== "string" || !HASH.test(a.image)) return "image must be an uploaded image hash";
      if (!textOk(a.name, LIMITS.text)) return textProblem(a.name, "name");
      return null;
    case "upload":
      return imageBlobProblem(a.blob);
    case "requestPresentationStyle":
      return a.style === "compact" || a.style === "expanded" ? null : "style must be compact or expanded";
    case "storage.get":
    case "storage.remove":
      return storageKeyProblem(a.key);
    case "storage.set": {
      const keyProblem = storageKeyProblem(a.key);
      if (keyProblem) return keyProblem;
      let json;
      try {
        json = JSON.stringify(a.value);
      } catch {
        return "value must be JSON";
      }
      if (json === undefined) return "value must be JSON";
      if (json.length > LIMITS.storageValue) return tooLong("value is larger than 16 KiB");
      return null;
    }
    case "contentSize":
      if (typeof a.height !== "number" || !Number.isFinite(a.height) || a.height < 0) return "height must be a number";
      return null;
    default:
      return "unknown method";
  }
}

/** Checks a message from the host, on the app side. */
export function checkHostMessage(data) {
  if (!isObject(data) || data.parlor !== BRIDGE_VERSION) return null;
  if (data.type === "reply" && Number.isSafeInteger(data.re) && typeof data.ok === "boolean") return data;
  if (data.type === "event" && Number.isSafeInteger(data.id) && HOOKS.includes(data.name) && isObject(data.data)) return data;
  return null;
}
