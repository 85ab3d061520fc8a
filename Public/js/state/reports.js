// Reports as the admin page shows them (no DOM): one item per reported message, and
// what the reported message said, in words.

import { voiceLine } from "./voice.js";

/**
 * Open reports (newest first) gathered by message: the newest report of each message
 * stands for it, with everyone who reported it.
 * @param {object[]} reports as admin.reports.list answers them
 * @returns {{first: object, reporters: {id: string, name?: string, reason?: string}[], count: number}[]}
 */
export function groupReports(reports) {
  const groups = new Map();
  for (const r of reports) {
    const key = `${r.conversationId} ${r.seq}`;
    let g = groups.get(key);
    if (!g) {
      g = { first: r, reporters: [], count: r.reporters ?? 1 };
      groups.set(key, g);
    }
    g.reporters.push({ id: r.reporter?.id, name: r.reporter?.name, reason: r.reason });
    g.count = Math.max(g.count, g.reporters.length);
  }
  return [...groups.values()];
}

/**
 * What the copy of a reported message says (a text's words, an app's summary, …).
 * @param {(appId: string) => string} [appName] an app's name, as the drawer shows it
 */
export function reportWords(m, appName = (appId) => appId) {
  if (!m || typeof m !== "object") return "";
  switch (m.kind) {
    case "text":
      return m.text ?? "";
    case "app": {
      const l = m.layout ?? {};
      const words = [m.summary, m.summaryText, l.caption, l.subcaption, l.trailingCaption, l.imageTitle, l.imageSubtitle].filter((s) => typeof s === "string" && s);
      return `${m.appId ? appName(m.appId) : "An app"}: ${words.join(" · ") || "an app message"}`;
    }
    case "sticker":
      return m.description ? `A sticker: ${m.description}` : "A sticker";
    case "attachment":
      return m.name ? `A picture: ${m.name}` : "A picture";
    case "audio":
      return `A ${voiceLine(m.durationMs).toLowerCase()}`;
    case "reaction":
      return `A reaction ${m.emoji ?? ""}`.trim();
    default:
      return "A message";
  }
}

const HASH = /^[0-9a-f]{64}$/;

/**
 * The files a report's copy names (a picture's hash, a recording's), only those that are
 * hashes: a copy is the server's, but nothing else goes into an address.
 * @returns {{image?: string, audio?: string}}
 */
export function reportFiles(m) {
  const out = {};
  if (typeof m?.image === "string" && HASH.test(m.image)) out.image = m.image;
  if (typeof m?.audio === "string" && HASH.test(m.audio)) out.audio = m.audio;
  return out;
}
