// The sundae: its parts, the order they are added in, and how a sundae
// travels in a message URL as query items (?base=waffle&scoops=mint&…), the
// way the seed's IceCream.queryItems does it. Pure data and functions: no DOM,
// no SDK, so it runs under node --test too.

/** The steps, in the order any participant may take them. */
export const STEPS = Object.freeze(["base", "scoops", "topping"]);

/** Colours of each flavour: fill, shade (the lower edge), and what is mixed in. */
export const FLAVORS = Object.freeze({
  vanilla: { name: "vanilla", fill: "#fbefcf", shade: "#e8cf98", bits: "#c79b5d", texture: "specks" },
  chocolate: { name: "chocolate", fill: "#7c4a2d", shade: "#5a331f", bits: "#a56b45", texture: "specks" },
  strawberry: { name: "strawberry", fill: "#f7a8bc", shade: "#e27f9b", bits: "#fff0f4", texture: "seeds" },
  mint: { name: "mint chip", fill: "#a9e4c9", shade: "#7ccaa6", bits: "#3b2a22", texture: "chips" },
  pistachio: { name: "pistachio", fill: "#c3dc90", shade: "#9fbf68", bits: "#7b9b43", texture: "chips" },
  mango: { name: "mango", fill: "#ffc35e", shade: "#f2a23a", bits: "#ffe2a6", texture: "specks" },
  lemon: { name: "lemon", fill: "#fff27f", shade: "#e7d24f", bits: "#fffbd0", texture: "specks" },
  raspberry: { name: "raspberry", fill: "#ea5c8e", shade: "#c83c6d", bits: "#ffc1d5", texture: "seeds" },
  blueberry: { name: "blueberry", fill: "#a2adff", shade: "#7886ea", bits: "#5561c9", texture: "seeds" },
  cookies: { name: "cookies & cream", fill: "#f1e9de", shade: "#d6c8b3", bits: "#2f2724", texture: "chips" },
});

/** Every part a sundae can have, by step. Ids are what the URL carries. */
export const PARTS = Object.freeze({
  base: Object.freeze([
    { id: "waffle", name: "Waffle cone" },
    { id: "cake", name: "Cake cone" },
    { id: "dipped", name: "Chocolate-dipped cone" },
    { id: "cup", name: "Paper cup" },
  ]),
  // one scoop each: a sundae holds up to CONE_SCOOPS of them, and a flavour may repeat
  scoops: Object.freeze([
    { id: "vanilla", name: "Vanilla bean", flavor: "vanilla" },
    { id: "chocolate", name: "Chocolate", flavor: "chocolate" },
    { id: "mint", name: "Mint chip", flavor: "mint" },
    { id: "strawberry", name: "Strawberry", flavor: "strawberry" },
    { id: "pistachio", name: "Pistachio", flavor: "pistachio" },
    { id: "cookies", name: "Cookies & cream", flavor: "cookies" },
    { id: "mango", name: "Mango sorbet", flavor: "mango" },
    { id: "lemon", name: "Lemon sorbet", flavor: "lemon" },
    { id: "raspberry", name: "Raspberry", flavor: "raspberry" },
    { id: "blueberry", name: "Blueberry", flavor: "blueberry" },
  ]),
  topping: Object.freeze([
    { id: "cherry", name: "Cherry on top" },
    { id: "sprinkles", name: "Rainbow sprinkles" },
    { id: "fudge", name: "Hot fudge" },
    { id: "caramel", name: "Caramel drizzle" },
    { id: "whipped", name: "Whipped cream" },
    { id: "wafer", name: "Wafer sticks" },
  ]),
});

/** How many scoops the cone holds. */
export const CONE_SCOOPS = 3;

/** Scoop ids of the sundaes sent before a pick was one scoop: each was a little stack. */
const OLD_SCOOPS = Object.freeze({
  neapolitan: ["chocolate", "vanilla", "strawberry"],
  sorbet: ["mango", "raspberry", "lemon"],
  berry: ["blueberry", "raspberry"],
});

/** What the picker says for each step. */
export const STEP_TITLES = Object.freeze({
  base: "Pick a base",
  scoops: "Add a scoop",
  topping: "Top it off",
});

/** The caption of the message that completes each step (the seed's captions). */
export const STEP_CAPTIONS = Object.freeze({
  base: "Let's build an ice cream",
  scoops: "I added a scoop",
  topping: "Our finished ice cream",
});

/** A part by step and id, or undefined. */
export function part(step, id) {
  return PARTS[step]?.find((p) => p.id === id);
}

/**
 * A sundae: `scoops` is null or a non-empty list of scoop ids, bottom first,
 * and `by.scoops` who added each (null where unknown).
 */
export function emptySundae() {
  return { base: null, scoops: null, topping: null, by: { base: null, scoops: null, topping: null } };
}

/** The step to take next, or null when the sundae is complete. */
export function nextStep(sundae) {
  return STEPS.find((step) => !sundae[step]) ?? null;
}

export function isComplete(sundae) {
  return nextStep(sundae) === null;
}

export function isEmpty(sundae) {
  return !sundae.base && !sundae.scoops && !sundae.topping;
}

/** How many more scoops fit: none before the base or once the topping is on. */
export function scoopRoom(sundae) {
  if (!sundae.base || sundae.topping) return 0;
  return Math.max(0, CONE_SCOOPS - (sundae.scoops?.length ?? 0));
}

/** Whether `step` can be taken now: a scoop while one fits, the topping once there is a scoop. */
export function canTake(sundae, step) {
  if (step === "base") return !sundae.base;
  if (step === "scoops") return scoopRoom(sundae) > 0;
  if (step === "topping") return Boolean(sundae.scoops) && !sundae.topping;
  return false;
}

/** The flavours of the scoops, bottom first (what the picture draws). */
export function scoopFlavors(sundae) {
  return (sundae.scoops ?? []).map((id) => part("scoops", id).flavor);
}

/** How many steps are done (0–3). */
export function progress(sundae) {
  return STEPS.filter((step) => sundae[step]).length;
}

/**
 * The sundae with the next step taken. Throws if `step` is not the next
 * one (a step that was already taken by someone else) or the part is unknown.
 * @param {ReturnType<typeof emptySundae>} sundae
 * @param {"base"|"scoops"|"topping"} step
 * @param {string} partId
 * @param {string | null} by the participant identifier who took the step
 */
export function withPart(sundae, step, partId, by = null) {
  if (!canTake(sundae, step)) {
    const expected = nextStep(sundae);
    if (expected === null) throw new StepError("the sundae is already finished");
    if (step === "scoops" && sundae.scoops) throw new StepError(`the cone is full (${CONE_SCOOPS} scoops)`);
    throw new StepError(`the next step is ${expected}, not ${step}`);
  }
  if (!part(step, partId)) throw new StepError(`there is no ${step} called ${partId}`);
  if (step === "scoops") {
    return { ...sundae, scoops: [...(sundae.scoops ?? []), partId], by: { ...sundae.by, scoops: [...(sundae.by.scoops ?? []), by] } };
  }
  return { ...sundae, [step]: partId, by: { ...sundae.by, [step]: by } };
}

/**
 * A move that lost a race, taken again on the sundae that won: the scoop goes
 * on top while another fits, the topping goes on whatever scoops won. Null
 * when it no longer fits (the cone is full, the sundae is finished, the base
 * was picked): only then is the person asked.
 */
export function rebase(theirs, step, partId, by = null) {
  if (!theirs || !canTake(theirs, step)) return null;
  try {
    return withPart(theirs, step, partId, by);
  } catch {
    return null;
  }
}

export class StepError extends Error {
  constructor(message) {
    super(message);
    this.name = "StepError";
  }
}

const BY = { base: "baseBy", scoops: "scoopsBy", topping: "toppingBy" };
const PARTICIPANT = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The query items of a sundae: one item per part (named after its step), then
 * who added each part.
 * @returns {{name: string, value: string}[]}
 */
export function toQueryItems(sundae) {
  const items = [];
  for (const step of STEPS) {
    // a scoop repeats its item, once per scoop, bottom first
    for (const id of step === "scoops" ? sundae.scoops ?? [] : [sundae[step]]) if (id) items.push({ name: step, value: id });
  }
  for (const step of STEPS) {
    if (!sundae[step]) continue;
    const by = step === "scoops" ? sundae.by?.scoops ?? [] : [sundae.by?.[step]];
    // scoopsBy is one item, "id,id,id" in scoop order, empty where unknown
    if (by.some(Boolean)) items.push({ name: BY[step], value: by.map((p) => p ?? "").join(",") });
  }
  return items;
}

/**
 * A sundae from query items, or null if they do not describe one: unknown
 * parts, or a later step without an earlier one.
 * @param {{name: string, value: string | null}[]} items
 */
export function fromQueryItems(items) {
  if (!Array.isArray(items)) return null;
  const sundae = emptySundae();
  const values = (name) => items.filter((i) => i && i.name === name && typeof i.value === "string").map((i) => i.value);
  const value = (name) => values(name)[0] ?? null;
  const who = (by) => (by && PARTICIPANT.test(by) ? by : null);
  for (const step of ["base", "topping"]) {
    const id = value(step);
    if (id === null) continue;
    if (!part(step, id)) return null;
    sundae[step] = id;
    sundae.by[step] = who(value(BY[step]));
  }
  const scoops = values("scoops").flatMap((id) => (part("scoops", id) ? [id] : OLD_SCOOPS[id] ?? [null]));
  if (scoops.includes(null) || scoops.length > CONE_SCOOPS) return null;
  if (scoops.length) {
    sundae.scoops = scoops;
    const by = (value(BY.scoops) ?? "").split(",");
    // an old sundae's one adder made its whole stack
    sundae.by.scoops = scoops.map((_, i) => who(by.length === 1 ? by[0] : by[i]));
  }
  // parts are added in order: no scoops without a base, no topping without scoops
  let gap = false;
  for (const step of STEPS) {
    if (!sundae[step]) gap = true;
    else if (gap) return null;
  }
  return isEmpty(sundae) ? null : sundae;
}

/** "Waffle cone, mint chip, rainbow sprinkles": for stickers and screen readers. */
export function describe(sundae) {
  const names = STEPS.filter((s) => sundae[s]).map((s, i) => {
    const name = s === "scoops" ? scoopWords(sundae.scoops) : part(s, sundae[s]).name;
    return i === 0 ? name : name.toLowerCase();
  });
  return names.length ? names.join(", ") : "An empty bowl";
}

/** "2 mint chip & strawberry scoops", or "a mint chip scoop". */
export function scoopWords(ids) {
  const counts = new Map();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const words = [...counts].map(([id, n]) => `${n > 1 ? `${n} ` : ""}${part("scoops", id).name.toLowerCase()}`);
  const list = words.length === 1 ? words[0] : `${words.slice(0, -1).join(", ")} & ${words.at(-1)}`;
  return ids.length === 1 ? `a ${list} scoop` : `${list} scoops`;
}

/**
 * The one line that stays in the transcript when a later step replaces this
 * message. `$<id>` is a participant the host names.
 */
export function summaryOf(sundae, step) {
  if (step === "scoops") {
    const by = sundae.by?.scoops?.at(-1);
    return `${by ? `$${by}` : "Someone"} added ${scoopWords(sundae.scoops.slice(-1))}`;
  }
  const who = sundae.by?.[step] ? `$${sundae.by[step]}` : "Someone";
  const name = part(step, sundae[step])?.name.toLowerCase() ?? step;
  if (step === "base") return `${who} started a sundae with a ${name}`;
  return `${who} finished the sundae with ${name}`;
}

/** Everyone who added a part, first part first, once each. */
export function makers(sundae) {
  const by = [sundae.by?.base, ...(sundae.by?.scoops ?? []), sundae.by?.topping];
  return [...new Set(by.filter(Boolean))];
}

/** The bubble's captions for a sundae that just had `step` taken. */
export function layoutText(sundae, step) {
  const done = progress(sundae);
  const names = makers(sundae).map((p) => `$${p}`);
  const credit = names.length === 0 ? "" : names.length === 1 ? `by ${names[0]}` : `by ${names.slice(0, -1).join(", ")} & ${names.at(-1)}`;
  const next = nextStep(sundae);
  return {
    caption: STEP_CAPTIONS[step],
    subcaption: credit,
    trailingCaption: next ? `${done} of 3` : "Done!",
    trailingSubcaption: !next ? "" : next === "topping" && scoopRoom(sundae) > 0 ? "Next: a scoop or the topping" : `Next: ${next}`,
  };
}

/** What the compact view says once a step waits in the message box ("Your scoops are…"). */
export function stagedText(sundae, step) {
  if (isComplete(sundae)) return "Your finished sundae is in the message box. Press Send!";
  const what = step === "scoops" ? "Your scoop is" : `Your ${step} is`;
  return `${what} in the message box. Press Send to pass the sundae on.`;
}

// ---- the sticker history (per-user app storage) --------------------------------------

export const HISTORY_KEY = "history";
export const HISTORY_MAX = 60;

/**
 * Adds a finished sundae to the front of the history; the same session
 * (or, without one, the same parts) is kept once. Returns the same array
 * when the sundae is already there, so a caller knows not to save.
 * @param {object[]} history newest first
 * @param {ReturnType<typeof emptySundae>} sundae
 * @param {string | null} id the session id, or null
 * @param {number} at time in ms
 */
export function addToHistory(history, sundae, id, at) {
  if (!isComplete(sundae)) return history;
  const key = id || `${sundae.base}/${sundae.scoops.join("+")}/${sundae.topping}`;
  const held = Array.isArray(history) ? history : [];
  const known = held.find((h) => h && h.id === key);
  if (known && STEPS.every((step) => String(known[step]) === String(sundae[step]))) return held; // already kept
  const list = held.filter((h) => h && h.id !== key);
  const entry = { id: key, base: sundae.base, scoops: [...sundae.scoops], topping: sundae.topping, at };
  return [entry, ...list].slice(0, HISTORY_MAX);
}

/** The sundaes a stored history holds (entries that no longer parse are dropped). */
export function historySundaes(history) {
  if (!Array.isArray(history)) return [];
  const out = [];
  for (const h of history) {
    if (!h || typeof h !== "object") continue;
    const scoops = Array.isArray(h.scoops) ? h.scoops : [h.scoops];
    const s = fromQueryItems([{ name: "base", value: h.base }, ...scoops.map((value) => ({ name: "scoops", value })), { name: "topping", value: h.topping }]);
    if (s && isComplete(s)) out.push({ entry: h, sundae: s });
  }
  return out;
}
