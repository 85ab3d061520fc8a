// Times and short labels for the transcript and the conversation list.

import { shorten } from "../../sdk/text.js";
import { voiceLine } from "./voice.js";

const pad = (n) => String(n).padStart(2, "0");

/** "14:05" */
export function clockTime(ms) {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** "14:05" today, "Mon" this week, "3 Nov" before. */
export function shortWhen(ms, now = Date.now()) {
  const d = new Date(ms);
  const n = new Date(now);
  if (d.toDateString() === n.toDateString()) return clockTime(ms);
  const days = (n - d) / 86400000;
  if (days < 6.5 && days >= 0) return d.toLocaleDateString(undefined, { weekday: "short" });
  return d.toLocaleDateString(undefined, { day: "numeric", month: "short" });
}

/**
 * When a message was sent, said fully where it stands alone (a search's results):
 * "Today 14:05", "Yesterday 14:05", "3 Nov 14:05", "3 Nov 2024 14:05".
 */
export function dayAndTime(ms, now = Date.now()) {
  const d = new Date(ms);
  const n = new Date(now);
  const yesterday = new Date(n.getFullYear(), n.getMonth(), n.getDate() - 1);
  const day = d.toDateString() === n.toDateString() ? "Today"
    : d.toDateString() === yesterday.toDateString() ? "Yesterday"
    : d.toLocaleDateString(undefined, { day: "numeric", month: "short", year: d.getFullYear() === n.getFullYear() ? undefined : "numeric" });
  return `${day} ${clockTime(ms)}`;
}

/** "1 member", "3 members": a count and its noun, singular for one. */
export function counted(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * "Ben, Cy, Dee", or past `most` names "Ben, Cy, Dee and 37 more" (of `total`): a big
 * room's header listed every name, 600 characters a screen reader read again at each
 * presence change, and a phone showed three of them.
 */
export function someNames(names, total = names.length, most = 3) {
  const shown = names.slice(0, most).join(", ");
  return total > Math.min(most, names.length) ? `${shown} and ${total - Math.min(most, names.length)} more` : shown;
}

/** Unread badge text: "" for none, "99+" past 99. */
export function unreadLabel(n) {
  if (!n || n < 1) return "";
  return n > 99 ? "99+" : String(n);
}

/**
 * An app's line (a summary, a preview) as it is shown: the app writes it and may name
 * anyone in it ("$<Ben's id> resigned", sent by Ana), so unless it starts with its
 * sender's own name, as a word ("A" sending "Ana: I'm leaving" is not Ana), it says
 * who sent it.
 * @param {string} line with names already put in
 * @param {string} senderName
 * @param {string} [as] how the sender is called instead ("You")
 */
export function attributed(line, senderName, as = senderName) {
  const own = line.startsWith(senderName) && /^(?:$|[\s\p{P}])/u.test(line.slice(senderName.length));
  return own ? line : `${as}: ${line}`;
}

/** A one-line preview of a message for the conversation list. */
export function previewOf(message, appName = (id) => id) {
  if (!message) return "";
  switch (message.kind) {
    case "text":
      return shorten(message.text.replace(/\s+/g, " "), 120, "");
    case "app":
      return message.summaryText || message.layout?.caption || appName(message.appId);
    case "sticker":
      return message.description ? `Sticker: ${message.description}` : "Sticker";
    case "attachment":
      return message.name ? `Image: ${message.name}` : "Image";
    case "audio":
      return voiceLine(message.durationMs);
    case "deleted":
      return "Message deleted";
    default:
      return "";
  }
}
