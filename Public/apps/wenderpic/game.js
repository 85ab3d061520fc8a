// The WenderPic game (seed 004): the word, the artist, the drawing (rounds of
// strokes) and the guesses, the rules of ink and turns, and its query items.
// Pure data and functions (node --test runs them).
//
// Rules
// - The artist (a participant identifier) draws with a supply of ink:
//   INITIAL_INK, plus BONUS_INK for every wrong guess, at most MAX_INK.
// - Anyone else guesses. A right guess ends the game; so does the
//   MAX_WRONG-th wrong guess (the word is then revealed).
// - Each "Done" of the artist adds a round of strokes; a round cannot use
//   more ink than is left.

import { encodeRounds, decodeRounds, roundsInk, strokesInk, encodedLength, DOT_INK } from "./strokes.js";
import { shorten } from "../../sdk/index.js";

export const INITIAL_INK = 3000;
export const BONUS_INK = 1200;
export const MAX_INK = 7200;
export const MAX_WRONG = 12;
export const MAX_GUESS_LENGTH = 24;
/** The server's limit on a message URL. */
export const URL_LIMIT = 5000;

export const CAPTION_DRAWING = "Guess my WenderPic!";

export const WORDS = Object.freeze([
  "cat", "dog", "house", "tree", "sun", "moon", "star", "fish", "bird", "boat", "car", "bicycle", "rocket",
  "flower", "apple", "banana", "pizza", "cupcake", "ice cream", "snowman", "umbrella", "guitar", "robot",
  "ghost", "castle", "kite", "mushroom", "octopus", "lighthouse", "snail", "turtle", "rainbow", "cloud",
  "volcano", "island", "train", "airplane", "balloon", "crown", "glasses", "key", "clock", "lamp",
  "penguin", "spider", "whale", "dragon", "cactus", "tent", "bridge", "ladder", "anchor", "candle",
  "teapot", "hat", "shoe", "heart", "rabbit", "snake", "owl", "bee", "butterfly", "carrot", "cherry",
]);

export class MoveError extends Error {
  constructor(message) {
    super(message);
    this.name = "MoveError";
  }
}

/** A word to draw, different from the one given (to change it). */
export function pickWord(random = Math.random, not = null) {
  const pool = WORDS.filter((w) => w !== not);
  return pool[Math.floor(random() * pool.length) % pool.length];
}

/** A new game for `artist`, nothing drawn yet. */
export function newGame(artist, word) {
  return { word, artist, rounds: [], guesses: [] };
}

// ---- guesses ------------------------------------------------------------------------------

/** A guess as typed, tidied: trimmed, single spaces, at most MAX_GUESS_LENGTH characters (an emoji kept whole). */
export function cleanGuess(text) {
  return shorten(String(text ?? "").replace(/[\u0000-\u001f\u007f]/g, "").replace(/\s+/g, " ").trim(), MAX_GUESS_LENGTH, "");
}

/** The form two words are compared in: lower case, no accents, no punctuation, no article. */
export function normalize(text) {
  return String(text ?? "")
    .normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N} ]+/gu, " ")
    .replace(/\s+/g, " ").trim()
    .replace(/^(a|an|the|some) /, "");
}

/** Is the guess the word? Case, accents, spaces, an article and a plural do not matter. */
export function isRight(word, guess) {
  const w = normalize(word);
  const g = normalize(guess);
  if (!w || !g) return false;
  const squash = (s) => s.replace(/ /g, "");
  const forms = [g, g.replace(/es$/, ""), g.replace(/s$/, "")];
  return forms.some((f) => f === w || squash(f) === squash(w));
}

// ---- state -------------------------------------------------------------------------------

export function wrongGuesses(game) {
  return game.guesses.filter((g) => !isRight(game.word, g.text)).length;
}

/** The guess that found the word, or null. */
export function winningGuess(game) {
  return game.guesses.find((g) => isRight(game.word, g.text)) ?? null;
}

export function isSolved(game) {
  return winningGuess(game) !== null;
}

/** The game is over: guessed, or too many wrong guesses. */
export function isOver(game) {
  return isSolved(game) || wrongGuesses(game) >= MAX_WRONG;
}

/** All the ink the artist has been given so far. */
export function inkGranted(game) {
  return Math.min(MAX_INK, INITIAL_INK + BONUS_INK * wrongGuesses(game));
}

export function inkUsed(game) {
  return roundsInk(game.rounds);
}

export function inkLeft(game) {
  return Math.max(0, inkGranted(game) - inkUsed(game));
}

const same = (a, b) => typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();

export function isArtist(game, participant) {
  return same(game.artist, participant);
}

/**
 * What `participant` can do now: "draw" (the artist, with ink left), "wait"
 * (the artist, out of ink), "guess", or "over".
 */
export function turnOf(game, participant) {
  if (isOver(game)) return "over";
  if (isArtist(game, participant)) return inkLeft(game) >= DOT_INK || game.rounds.length === 0 ? "draw" : "wait";
  return game.rounds.length === 0 ? "wait" : "guess";
}

// ---- moves -------------------------------------------------------------------------------

/**
 * The artist's Done: the game with a new round of strokes.
 * @param {object} game
 * @param {number[][][]} strokes
 * @param {string} by who is drawing
 */
export function addRound(game, strokes, by) {
  if (!isArtist(game, by)) throw new MoveError("only the artist draws");
  if (isOver(game)) throw new MoveError("the game is over");
  if (!Array.isArray(strokes) || strokes.length === 0) throw new MoveError("draw something first");
  if (strokesInk(strokes) > inkLeft(game) + 1e-6) throw new MoveError("not enough ink for that");
  return { ...game, rounds: [...game.rounds, strokes] };
}

/**
 * A guess: the game with it added.
 * @param {object} game
 * @param {string} text
 * @param {string} by who guesses
 */
export function addGuess(game, text, by) {
  const guess = cleanGuess(text);
  if (isArtist(game, by)) throw new MoveError("the artist knows the word");
  if (isOver(game)) throw new MoveError("the game is over");
  if (game.rounds.length === 0) throw new MoveError("nothing has been drawn yet");
  if (!normalize(guess)) throw new MoveError("type a guess");
  if (game.guesses.some((g) => normalize(g.text) === normalize(guess))) throw new MoveError(`“${guess}” was already guessed`);
  return { ...game, guesses: [...game.guesses, { by, text: guess, round: game.rounds.length }] };
}

// ---- query items ---------------------------------------------------------------------------

const PARTICIPANT = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The query items of a game: word, artist, the drawing, then each guesser
 * once (`player`) and each guess as "<player index>:<rounds seen>:<text>"
 * (how many rounds of drawing the guesser had seen).
 */
export function toQueryItems(game) {
  const players = [];
  for (const g of game.guesses) if (!players.includes(g.by)) players.push(g.by);
  const items = [
    { name: "word", value: game.word },
    { name: "artist", value: game.artist },
    { name: "ink", value: encodeRounds(game.rounds) },
  ];
  for (const p of players) items.push({ name: "player", value: p });
  for (const g of game.guesses) items.push({ name: "guess", value: `${players.indexOf(g.by)}:${g.round}:${g.text}` });
  return items;
}

/** A game from query items, or null if they do not hold one. */
export function fromQueryItems(items) {
  if (!Array.isArray(items)) return null;
  const first = (name) => items.find((i) => i && i.name === name && typeof i.value === "string")?.value ?? null;
  const all = (name) => items.filter((i) => i && i.name === name && typeof i.value === "string").map((i) => i.value);
  const word = first("word");
  const artist = first("artist");
  if (!word || !normalize(word) || !artist || !PARTICIPANT.test(artist)) return null;
  let rounds;
  try {
    rounds = decodeRounds(first("ink") ?? "");
  } catch {
    return null;
  }
  const players = all("player");
  if (!players.every((p) => PARTICIPANT.test(p))) return null;
  const guesses = [];
  let seen = 0;
  for (const value of all("guess")) {
    const m = /^(\d{1,3}):(\d{1,4}):(.*)$/s.exec(value);
    if (!m) return null;
    const who = players[Number(m[1])];
    const round = Number(m[2]);
    const text = cleanGuess(m[3]);
    // a guess saw at least one round, no more than there are, and never fewer than the guess before it
    if (!who || !text || round < 1 || round > rounds.length || round < seen) return null;
    seen = round;
    guesses.push({ by: who, text, round });
  }
  return { word, artist, rounds, guesses };
}

/** The length of "?a=b&…" for these items, encoded the way the SDK encodes them. */
export function queryLength(items) {
  if (items.length === 0) return 0;
  return items.reduce((n, i) => n + encodeURIComponent(i.name).length + 1 + encodeURIComponent(i.value).length, 0) + items.length;
}

/** Does the game fit in a message URL? */
export function fits(game) {
  return queryLength(toQueryItems(game)) <= URL_LIMIT;
}

/**
 * How many more characters of drawing fit in the URL with this game and a
 * round in progress (the drawing view stops the pen before the URL overflows).
 */
export function drawingRoom(game, strokes) {
  const base = queryLength(toQueryItems(game));
  const extra = encodedLength(strokes) + (strokes.length && game.rounds.length ? 1 : 0);
  return URL_LIMIT - base - extra;
}

// ---- what the bubble says -----------------------------------------------------------------

/**
 * The layout text and summary for a game after a move.
 * @param {object} game the game after the move
 * @param {"draw"|"guess"} move
 * @returns {{caption: string, subcaption: string, trailingCaption: string, summaryText: string}}
 */
export function bubbleText(game, move) {
  const artist = `$${game.artist}`;
  const guesses = game.guesses.length;
  const count = guesses === 0 ? "" : guesses === 1 ? "1 guess" : `${guesses} guesses`;
  if (move === "draw") {
    const first = game.rounds.length === 1;
    return {
      caption: CAPTION_DRAWING,
      subcaption: first ? `by ${artist}` : `${artist} added more ink`,
      trailingCaption: count,
      summaryText: first ? `${artist} drew a WenderPic` : `${artist} added to the WenderPic`,
    };
  }
  const last = game.guesses[game.guesses.length - 1];
  const who = `$${last.by}`;
  const right = isRight(game.word, last.text);
  if (right) {
    return {
      caption: `👍 ${last.text}`,
      subcaption: `${who} guessed ${artist}'s WenderPic!`,
      trailingCaption: count,
      summaryText: `${who} guessed it: ${last.text} 👍`,
    };
  }
  const over = isOver(game);
  return {
    caption: `👎 ${last.text}`,
    subcaption: over ? `Out of guesses! It was “${game.word}”` : `${who} guessed`,
    trailingCaption: count,
    summaryText: `${who} guessed “${last.text}” 👎`,
  };
}

/** The guesses made since the artist's last round (what earned the new ink). */
export function guessesSinceLastRound(game) {
  return game.guesses.filter((g) => g.round === game.rounds.length);
}

/** Rounds the artist added after the latest guess of `participant` (0 if they never guessed). */
export function roundsSinceGuessOf(game, participant) {
  const mine = game.guesses.filter((g) => same(g.by, participant));
  if (mine.length === 0) return 0;
  return game.rounds.length - mine[mine.length - 1].round;
}
