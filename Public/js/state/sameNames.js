// Names are chosen by their owners, so two members of a conversation can carry the
// same one, or two that only look alike ("Ana" and "АNA" with a Cyrillic А, "Alice"
// and "AIice" with a capital I): a reader could not tell whose message is whose, and
// one member could pass for another. Such members are shown with a short tag from
// their user id ("Ana (3f2a)"), the same in every conversation and on every device,
// so each stays told apart for as long as the clash lasts.

/** Letters drawn like others in common fonts (a small part of Unicode's confusables, TR39). */
const LOOKALIKE = new Map(Object.entries({
  "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
  "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w",
  "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
  "υ": "u", "χ": "x", "ϲ": "c", "ϳ": "j", "ѵ": "v", "ѡ": "w",
  "ɑ": "a", "ɡ": "g", "ɩ": "i", "ɪ": "i", "ʏ": "y", "ı": "i", "ȷ": "j",
  "օ": "o", "ս": "u", "ց": "g", "հ": "h", "ո": "n", "զ": "q",
  "0": "o", "1": "l", "|": "l", "ǀ": "l",
}));

/**
 * What draws nothing ("An\u200Da", a soft hyphen, a variation selector, a tag, the
 * Hangul fillers) or blank (U+2800, a Braille cell with no dots): a name with it
 * looks like the name without.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u2800]/gu;

/** What a name looks like, for comparing: width and case folded, lookalikes, invisibles and spacing made one. */
export function nameKey(name) {
  // removed before NFKC, which would keep "A\u034F\u0301" apart from "Á"
  let s = String(name ?? "").replace(INVISIBLE, "").normalize("NFKC");
  s = s.replace(/I/g, "l");  // a capital I and a small l are one stroke in most sans-serif fonts
  s = s.toLowerCase().replace(/rn/g, "m").replace(/vv/g, "w");
  let out = "";
  for (const ch of s) out += LOOKALIKE.get(ch) ?? ch;
  return out.replace(/\s+/gu, " ").trim();
}

/** The shortest start of the id (four characters at least) that no other id in `ids` shares. */
function tagOf(userId, ids) {
  const id = userId.replace(/^u/, "");
  for (let n = 4; n < id.length; n++) {
    const tag = id.slice(0, n);
    if (ids.every((other) => other === userId || !other.replace(/^u/, "").startsWith(tag))) return tag;
  }
  return id;
}

/**
 * The members that need a tag, and their label.
 * @param {{userId: string, name: string}[]} members
 * @returns {Map<string, string>} userId → "Name (tag)", only for names shared with another member
 */
export function clashingNames(members) {
  const byKey = new Map();
  for (const m of members || []) {
    const key = nameKey(m.name);
    const group = byKey.get(key);
    if (group) group.push(m);
    else byKey.set(key, [m]);
  }
  const labels = new Map();
  for (const group of byKey.values()) {
    if (group.length < 2) continue;
    const ids = group.map((m) => m.userId);
    for (const m of group) labels.set(m.userId, `${m.name} (${tagOf(m.userId, ids)})`);
  }
  return labels;
}

const cache = new WeakMap();

/**
 * A member's name as shown in a conversation: tagged when another member's looks the same.
 * Member lists are replaced, never changed in place, so the labels are kept per list.
 * @param {{userId: string, name: string}[]} members the conversation's members
 * @param {{userId: string, name: string}} member
 */
export function shownName(members, member) {
  if (!members) return member.name;
  let labels = cache.get(members);
  if (!labels) cache.set(members, (labels = clashingNames(members)));
  return labels.get(member.userId) ?? member.name;
}
