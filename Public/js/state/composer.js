// What the composer holds besides the typed text: items an app staged with
// insert (an app message, a sticker, an attachment). The user sends them with
// Send, or removes them. Pure functions over arrays.

/**
 * @typedef {object} Staged
 * @property {string} key           local id of the staged item
 * @property {object} message       the outbound body ({kind:"app", …} etc.)
 * @property {string} [appId]       the app that staged it
 * @property {number} [frameToken]  which app frame staged it (to answer it)
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
  if (text.trim().length > 0) out.push({ kind: "text", text });
  return out;
}

/**
 * Appends text an app inserted (insertText) to what is typed.
 */
export function appendText(current, inserted) {
  if (!current) return inserted;
  return /\s$/.test(current) ? current + inserted : `${current} ${inserted}`;
}
