// What the composer holds besides the typed text: items an app staged with
// insert (an app message, a sticker, an attachment). The user sends them with
// Send, or removes them. Pure functions over arrays.

/**
 * @typedef {object} Staged
 * @property {string} key           local id of the staged item
 * @property {object} message       the outbound body ({kind:"app", …} etc.)
 * @property {string} [appId]       the app that staged it
 * @property {string} [ref]         the app's name for it (its SDK's staged message)
 */

/**
 * Stages an item. Like the Messages input field, an app has at most one
 * interactive message staged: a new insert from the same app replaces it.
 * @param {Staged[]} staged
 * @param {Staged} item
 * @returns {{staged: Staged[], replaced: Staged | undefined}}
 */
export function stage(staged, item) {
  if (item.message.kind === "app") {
    const old = staged.find((s) => s.message.kind === "app" && s.message.appId === item.message.appId);
    if (old) return { staged: staged.map((s) => (s === old ? item : s)), replaced: old };
  }
  return { staged: [...staged, item], replaced: undefined };
}

export function unstage(staged, key) {
  return staged.filter((s) => s.key !== key);
}

/**
 * What pressing Send sends, in order: staged items first, then the text.
 * @param {Staged[]} staged
 * @param {string} text
 * @returns {object[]} outbound message bodies
 */
export function sendPlan(staged, text) {
  const out = staged.map((s) => s.message);
  const clean = text.replace(CONTROL, "");
  if (!isBlank(clean)) out.push({ kind: "text", text: clean });
  return out;
}

// What the server refuses in a text (PROTOCOL.md): control characters but line breaks
// and tabs (pasted from a PDF, a form feed made a message that could never be sent),
// and a text that draws nothing (spaces, invisible characters, lone marks).
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const BLANK = /^[\s\p{Cc}\p{Cf}\p{Mn}\p{Me}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]*$/u;

/** Nothing a reader would see: not sent as a text. */
export function isBlank(text) {
  return BLANK.test(text);
}

/**
 * Appends text an app inserted (insertText) to what is typed.
 */
export function appendText(current, inserted) {
  if (!current) return inserted;
  return /\s$/.test(current) ? current + inserted : `${current} ${inserted}`;
}

/**
 * What of the staged items a reload keeps: each conversation's items as data
 * (the app frame that staged one is gone with the page; its `ref` stays, so the
 * pane tells the app, when next open, that its move went: didSendWhileClosed).
 * @param {Record<string, Staged[]>} staged
 * @returns {Record<string, Staged[]>}
 */
export function storableStaged(staged) {
  const out = {};
  for (const [conversationId, list] of Object.entries(staged || {})) {
    if (!Array.isArray(list) || list.length === 0) continue;
    out[conversationId] = list.map(({ key, message, appId, ref, imageKey }) => ({ key, message, appId, ref, imageKey }));
  }
  return out;
}

/**
 * The staged items a previous page kept, with anything malformed left out.
 * @param {unknown} raw
 * @returns {Record<string, Staged[]>}
 */
export function keptStaged(raw) {
  const out = {};
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return out;
  for (const [conversationId, list] of Object.entries(raw)) {
    if (!Array.isArray(list)) continue;
    const ok = list.filter((s) => s && typeof s.key === "string" && s.message && typeof s.message === "object"
      && typeof s.message.kind === "string" && (s.appId === undefined || typeof s.appId === "string")
      && (s.ref === undefined || typeof s.ref === "string") && (s.imageKey === undefined || typeof s.imageKey === "string"));
    if (ok.length) out[conversationId] = ok;
  }
  return out;
}
