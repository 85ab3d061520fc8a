// Tapbacks: iMessage's six quick reactions on a bubble. A reaction is a message of
// its own (kind "reaction", `to` the seq it reacts to, `emoji` one of TAPBACKS or ""
// to take it back), stored and synced as every message is; here they are folded onto
// their targets: a person's reaction to a message is their newest reaction message
// to it (docs/PROTOCOL.md, "Reactions").

/** The six, in the order the popup and the chips show them. */
export const TAPBACKS = Object.freeze([
  { emoji: "\u2764\uFE0F", name: "Love" },
  { emoji: "\u{1F44D}", name: "Like" },
  { emoji: "\u{1F44E}", name: "Dislike" },
  { emoji: "\u{1F602}", name: "Laugh" },
  { emoji: "\u203C\uFE0F", name: "Emphasize" },
  { emoji: "\u2753", name: "Question" },
]);

const NAMES = new Map(TAPBACKS.map((t) => [t.emoji, t.name]));

/** "Love" for ❤️; undefined for anything that is not one of the six. */
export const tapbackName = (emoji) => NAMES.get(emoji);

/**
 * @typedef {object} Chip   one kind of reaction on a message
 * @property {string} emoji
 * @property {string} name      "Love", …
 * @property {string[]} senders who reacted so, the first to react first
 * @property {boolean} pending  one of them is this page's, not yet stored
 */

/**
 * The reactions on each message, from the confirmed messages (ascending by seq) and
 * this page's own reactions still on their way (newer than anything stored, so they
 * win: a reaction shows the moment it is given).
 * @param {object[]} messages
 * @param {object[]} [pending] local echoes (state/transcript.js)
 * @returns {Map<number, Chip[]>} by the target's seq; only targets with a reaction
 */
export function foldReactions(messages, pending = []) {
  /** @type {Map<number, Map<string, {emoji: string, pending: boolean}>>} */
  const byTarget = new Map();
  const give = (to, sender, emoji, isPending) => {
    let people = byTarget.get(to);
    if (!people) byTarget.set(to, (people = new Map()));
    people.delete(sender); // the newest of theirs counts, and stands last
    if (emoji !== "") people.set(sender, { emoji, pending: isPending });
  };
  for (const m of messages) if (m.kind === "reaction") give(m.to, m.sender, m.emoji, false);
  for (const p of pending) if (p.message?.kind === "reaction" && p.status !== "failed") give(p.message.to, p.sender, p.message.emoji, true);
  const out = new Map();
  for (const [to, people] of byTarget) {
    const chips = [];
    for (const { emoji, name } of TAPBACKS) {
      const senders = [];
      let isPending = false;
      for (const [sender, r] of people) {
        if (r.emoji !== emoji) continue;
        senders.push(sender);
        isPending ||= r.pending;
      }
      if (senders.length) chips.push({ emoji, name, senders, pending: isPending });
    }
    if (chips.length) out.set(to, chips);
  }
  return out;
}

/** A person's reaction among a message's chips ("" for none). */
export function reactionOf(chips, userId) {
  return chips.find((c) => c.senders.includes(userId))?.emoji ?? "";
}

/** A string that changes whenever the chips do (what a drawn row depends on). */
export function chipsKey(chips) {
  return chips.map((c) => `${c.emoji}${c.pending ? "*" : ""}:${c.senders.join(",")}`).join("|");
}

/**
 * Who reacted, as a chip's accessible name says it: "Love: Ana, Ben", "Love: you and Ben",
 * "Love: you, Ana and Ben".
 * @param {Chip} chip
 * @param {string} selfId
 * @param {(userId: string) => string} nameOf
 */
export function chipLabel(chip, selfId, nameOf) {
  const others = chip.senders.filter((s) => s !== selfId).map(nameOf);
  if (!chip.senders.includes(selfId)) return `${chip.name}: ${others.join(", ")}`;
  const all = ["you", ...others];
  return `${chip.name}: ${all.length > 1 ? `${all.slice(0, -1).join(", ")} and ${all.at(-1)}` : "you"}`;
}
