// Putting names on "$<participant id>" in captions and texts. The server never
// interprets them; an app writes "$9d0c…" and each viewer's host replaces it
// with the name of the person behind that app-scoped identifier.

const TOKEN = /\$([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})/g;

/**
 * @param {string} text
 * @param {(participantId: string) => string | undefined} nameOf
 * @param {string} [unknown] what to show for an identifier nobody knows
 * @returns {string} plain text, to be rendered with textContent
 */
export function substituteParticipants(text, nameOf, unknown = "someone") {
  if (typeof text !== "string" || !text.includes("$")) return text;
  return text.replace(TOKEN, (_, id) => nameOf(id.toLowerCase()) ?? nameOf(id) ?? unknown);
}

/** The participant identifiers a text mentions (lower case). */
export function mentionedParticipants(text) {
  if (typeof text !== "string") return [];
  return [...text.matchAll(TOKEN)].map((m) => m[1].toLowerCase());
}

/** Initials for an avatar: "Ana Belén" → "AB", "ben" → "B". */
export function initials(name) {
  const words = String(name || "?").trim().split(/\s+/).filter(Boolean);
  const letters = words.slice(0, 2).map((w) => Array.from(w)[0].toUpperCase());
  return letters.join("") || "?";
}

/** A stable hue (0–359) for a user id, for avatar colours. */
export function hueFor(id) {
  let h = 0;
  for (const ch of String(id)) h = (h * 31 + ch.codePointAt(0)) % 360;
  return h;
}
