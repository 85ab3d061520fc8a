// WenderPic without a browser: the stroke encoding, ink, guesses, turns and
// the game's query items within the server's 5,000-character URL limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  GRID, MAX_DELTA, MIN_STEP, DOT_INK, gridPoint, strokeInk, strokesInk, roundsInk, startStroke, extendStroke,
  encodeRounds, decodeRounds, encodedLength, strokesAfter, StrokeError,
} from "../../Public/apps/wenderpic/strokes.js";
import {
  INITIAL_INK, BONUS_INK, MAX_INK, MAX_WRONG, URL_LIMIT, CAPTION_DRAWING, WORDS,
  newGame, pickWord, addRound, addGuess, isRight, normalize, cleanGuess, wrongGuesses, isSolved, isOver, inkGranted,
  inkLeft, inkUsed, turnOf, toQueryItems, fromQueryItems, queryLength, fits, drawingRoom, bubbleText, MoveError,
  guessesSinceLastRound, roundsSinceGuessOf, winningGuess,
} from "../../Public/apps/wenderpic/game.js";
import { queryItems, urlWithQueryItems } from "../../Public/sdk/query.js";

const ANA = "9d0c2f5e-1111-4000-8000-0000000000aa";
const BEN = "9d0c2f5e-2222-4000-8000-0000000000bb";
const CY = "9d0c2f5e-3333-4000-8000-0000000000cc";

/** A stroke drawn by "moving the pointer" along points, within `ink`. */
function draw(points, ink = Infinity) {
  const stroke = startStroke(points[0][0], points[0][1], ink);
  let left = ink - DOT_INK;
  for (const [x, y] of points.slice(1)) left -= extendStroke(stroke, x, y, left).used;
  return stroke;
}

const circle = (cx, cy, r, n = 40) => Array.from({ length: n + 1 }, (_, i) => [cx + r * Math.cos((i / n) * 2 * Math.PI), cy + r * Math.sin((i / n) * 2 * Math.PI)]);

// ---- strokes --------------------------------------------------------------------------------

test("points are integers on the grid, clamped to the paper", () => {
  assert.deepEqual(gridPoint(10.4, 10.6), [10, 11]);
  assert.deepEqual(gridPoint(-5, 5000), [0, GRID - 1]);
  assert.deepEqual(gridPoint(NaN, Infinity), [0, 0]);
});

test("extending a stroke skips tiny moves and splits long ones into steps the encoding can hold", () => {
  const s = startStroke(100, 100, 1000);
  assert.deepEqual(extendStroke(s, 103, 102, 1000), { used: 0, out: false });
  assert.equal(s.length, 1);
  const r = extendStroke(s, 400, 180, 10000);
  assert.equal(r.out, false);
  assert.deepEqual(s.at(-1), [400, 180]);
  for (let i = 1; i < s.length; i++) {
    assert.ok(Math.abs(s[i][0] - s[i - 1][0]) <= MAX_DELTA);
    assert.ok(Math.abs(s[i][1] - s[i - 1][1]) <= MAX_DELTA);
  }
  assert.ok(Math.abs(r.used - Math.hypot(300, 80)) < 2);
  assert.ok(Math.abs(strokeInk(s) - (DOT_INK + r.used)) < 1e-9);
});

test("the pen stops where the ink runs out, never past it", () => {
  const s = startStroke(0, 500, 500);
  const r = extendStroke(s, 1000, 500, 200);
  assert.equal(r.out, true);
  assert.ok(r.used <= 200);
  assert.ok(r.used > 200 - MAX_DELTA * 1.5, `used ${r.used}`);
  assert.ok(s.at(-1)[0] <= 200);
  assert.equal(startStroke(5, 5, DOT_INK - 1), null, "no ink, no dot");
  // a drawn circle costs about its circumference
  const c = draw(circle(512, 512, 200));
  assert.ok(Math.abs(strokeInk(c) - DOT_INK - 2 * Math.PI * 200) < 40, `circle ink ${strokeInk(c)}`);
});

test("strokes round-trip through the text form, which is URL-safe and two characters a point", () => {
  const rounds = [
    [draw(circle(512, 400, 180)), draw([[300, 700], [700, 700]]), [[5, 5]]],
    [draw([[0, 0], [1023, 1023]]), [[1023, 0]]],
  ];
  const text = encodeRounds(rounds);
  assert.match(text, /^[A-Za-z0-9_~.-]+$/);
  assert.equal(encodeURIComponent(text), text);
  assert.deepEqual(decodeRounds(text), rounds);
  assert.equal(text.length, encodedLength(rounds[0]) + 1 + encodedLength(rounds[1]));
  const points = rounds.flat().reduce((n, s) => n + s.length, 0);
  const strokes = rounds.flat().length;
  assert.equal(text.length, 2 * points + 2 * strokes + (strokes - 1));
  assert.deepEqual(decodeRounds(""), []);
  assert.equal(encodeRounds([]), "");
});

test("strokesAfter: the lines drawn on top of a round sent, none when the drawing is the round", () => {
  const a = draw([[100, 100], [300, 100]]);
  const b = draw([[100, 200], [300, 200]]);
  const c = draw([[100, 300], [300, 300]]);
  const copy = (strokes) => strokes.map((s) => s.map((p) => [...p]));
  // the round is a copy (what went into the message); the draft went on
  assert.deepEqual(strokesAfter(copy([a, b]), [a, b, c]), [c]);
  assert.deepEqual(strokesAfter(copy([a, b]), [a, b]), []);
  assert.deepEqual(strokesAfter([a, b], []), []);
  // a line undone and another drawn: what differs from the round on is new
  assert.deepEqual(strokesAfter(copy([a, b]), [a, c]), [c]);
  // a stroke that differs in one point differs
  const moved = copy([b]);
  moved[0][1][0] += 1;
  assert.deepEqual(strokesAfter(copy([a, b]), [a, ...moved, c]), [...moved, c]);
});

test("bad drawings are refused", () => {
  for (const bad of ["A", "AAA", "AAAAA", "AAAA.", ".AAAA", "AAAA~", "AA!A", "AAAAAA", "QAAA", "AAQA", "AAAAfA"]) {
    assert.throws(() => decodeRounds(bad), StrokeError, bad);
  }
  // a step that walks off the paper
  assert.throws(() => decodeRounds("AAAAB" + "g"), StrokeError);
  assert.throws(() => encodeRounds([[]]), StrokeError);
  assert.throws(() => encodeRounds([[[[0, 0], [100, 0]]]]), StrokeError, "steps over 31 cannot be encoded");
  assert.throws(() => decodeRounds(null), StrokeError);
});

// ---- guesses ----------------------------------------------------------------------------------

test("a guess is right whatever its case, accents, spacing, article or plural", () => {
  assert.ok(isRight("cat", "cat"));
  assert.ok(isRight("cat", "  CAT "));
  assert.ok(isRight("cat", "a cat"));
  assert.ok(isRight("cat", "Cats!"));
  assert.ok(isRight("ice cream", "icecream"));
  assert.ok(isRight("ice cream", "Ice-cream"));
  assert.ok(isRight("cafe", "café"));
  assert.ok(isRight("glasses", "glasses"));
  assert.ok(isRight("bus", "buses"));
  assert.ok(!isRight("cat", "dog"));
  assert.ok(!isRight("cat", "catapult"));
  assert.ok(!isRight("cat", ""));
  assert.equal(normalize("The  Dragon?"), "dragon");
  assert.equal(cleanGuess("  a\u0000b   c  "), "ab c");
  assert.equal(cleanGuess("x".repeat(100)).length, 24);
  assert.equal(cleanGuess(`${"x".repeat(23)}🐈 cat`), "x".repeat(23), "not half an emoji: the guess goes out in a message");
});

// ---- the game ------------------------------------------------------------------------------------

function played() {
  let g = newGame(ANA, "cat");
  g = addRound(g, [draw(circle(512, 512, 150))], ANA);
  return g;
}

test("a new game: the artist has INITIAL_INK and the turn; nobody can guess before a drawing", () => {
  const g = newGame(ANA, "cat");
  assert.equal(inkGranted(g), INITIAL_INK);
  assert.equal(inkLeft(g), INITIAL_INK);
  assert.equal(turnOf(g, ANA), "draw");
  assert.equal(turnOf(g, BEN), "wait");
  assert.throws(() => addGuess(g, "cat", BEN), /nothing has been drawn/);
  assert.throws(() => addRound(g, [], ANA), /draw something/);
});

test("only the artist draws, within the ink; only others guess; identifiers compare without case", () => {
  const g = played();
  assert.throws(() => addRound(g, [[[1, 1]]], BEN), /only the artist/);
  assert.throws(() => addGuess(g, "cat", ANA), /artist knows/);
  assert.throws(() => addGuess(g, "cat", ANA.toUpperCase()), /artist knows/);
  assert.equal(turnOf(g, ANA.toUpperCase()), "draw");
  const long = [draw([[0, 0], [1023, 0], [1023, 1023], [0, 1023], [0, 0], [1023, 1023]])];
  assert.ok(strokesInk(long) > inkLeft(g));
  assert.throws(() => addRound(g, long, ANA), /not enough ink/);
});

test("a wrong guess gives the artist BONUS_INK more; the artist's next round may use it", () => {
  let g = played();
  const usedBefore = inkUsed(g);
  assert.equal(turnOf(g, BEN), "guess");
  g = addGuess(g, "dog", BEN);
  assert.equal(wrongGuesses(g), 1);
  assert.equal(inkGranted(g), INITIAL_INK + BONUS_INK);
  assert.equal(inkLeft(g), INITIAL_INK + BONUS_INK - usedBefore);
  assert.equal(turnOf(g, ANA), "draw");
  assert.deepEqual(guessesSinceLastRound(g).map((x) => x.text), ["dog"]);
  assert.equal(roundsSinceGuessOf(g, BEN), 0);
  g = addRound(g, [draw([[300, 300], [360, 250], [420, 300]])], ANA);
  assert.deepEqual(guessesSinceLastRound(g), []);
  assert.equal(roundsSinceGuessOf(g, BEN), 1, "Ben sees the artist added ink since his guess");
  assert.throws(() => addGuess(g, "Dog", BEN), /already guessed/);
  assert.throws(() => addGuess(g, "DOG", CY), /already guessed/);
  assert.throws(() => addGuess(g, "   ", CY), /type a guess/);
});

test("the artist who used all the ink waits; ink never exceeds MAX_INK", () => {
  let g = newGame(ANA, "whale");
  const big = [];
  let left = inkLeft(g);
  for (let y = 20; left > DOT_INK && y < 1000; y += 40) {
    const s = startStroke(10, y, left);
    left -= DOT_INK;
    left -= extendStroke(s, 1010, y, left).used;
    big.push(s);
  }
  g = addRound(g, big, ANA);
  assert.ok(inkLeft(g) < DOT_INK);
  assert.equal(turnOf(g, ANA), "wait");
  for (const w of ["a", "b", "c", "d", "e", "f", "g"]) g = addGuess(g, w, BEN);
  assert.equal(inkGranted(g), MAX_INK);
});

test("a right guess ends the game; so does the last wrong one, revealing the word", () => {
  let g = addGuess(played(), "dog", BEN);
  g = addGuess(g, "A cat", CY);
  assert.ok(isSolved(g));
  assert.equal(winningGuess(g).by, CY);
  assert.equal(turnOf(g, ANA), "over");
  assert.equal(turnOf(g, BEN), "over");
  assert.throws(() => addGuess(g, "cow", BEN), /over/);
  assert.throws(() => addRound(g, [[[1, 1]]], ANA), /over/);
  let h = played();
  for (let i = 0; i < MAX_WRONG; i++) h = addGuess(h, `wrong ${i}`, BEN);
  assert.ok(isOver(h) && !isSolved(h));
  assert.match(bubbleText(h, "guess").subcaption, /It was “cat”/);
});

test("query items round-trip: word, artist, drawing, guessers once, guesses with the rounds they saw", () => {
  let g = played();
  g = addGuess(g, "dog", BEN);
  g = addRound(g, [draw([[100, 100], [200, 200]])], ANA);
  g = addGuess(g, "cow", CY);
  g = addGuess(g, "kitty cat: no", BEN);
  const items = toQueryItems(g);
  assert.deepEqual(items.map((i) => i.name), ["word", "artist", "ink", "player", "player", "guess", "guess", "guess"]);
  assert.deepEqual(items.filter((i) => i.name === "guess").map((i) => i.value), ["0:1:dog", "1:2:cow", "0:2:kitty cat: no"]);
  const url = urlWithQueryItems(items);
  assert.equal(url.length, queryLength(items), "queryLength matches the SDK's encoding");
  assert.deepEqual(fromQueryItems(queryItems(url)), g);
  assert.ok(fits(g));
});

test("URLs that are not a game give null", () => {
  const ok = urlWithQueryItems(toQueryItems(addGuess(played(), "dog", BEN)));
  assert.ok(fromQueryItems(queryItems(ok)));
  const bad = [
    "?base=waffle",
    "?word=cat",
    `?artist=${ANA}&ink=`,
    `?word=cat&artist=bad%20id&ink=`,
    `?word=%20&artist=${ANA}&ink=`,
    `?word=cat&artist=${ANA}&ink=%21%21`,
    `?word=cat&artist=${ANA}&ink=AAAA&guess=0%3A1%3Adog`, // no such player
    `?word=cat&artist=${ANA}&ink=AAAA&player=${BEN}&guess=0%3A5%3Adog`, // saw a round that does not exist
    `?word=cat&artist=${ANA}&ink=AAAA&player=${BEN}&guess=0%3A0%3Adog`, // guessed before any drawing
    `?word=cat&artist=${ANA}&ink=AAAA&player=${BEN}&guess=dog`,
  ];
  for (const url of bad) assert.equal(fromQueryItems(queryItems(url)), null, url);
  assert.equal(fromQueryItems(null), null);
});

test("a game with all the ink used and every guess spent still fits in 5,000 characters", () => {
  let g = newGame(ANA, "lighthouse");
  // Worst case for the URL: many short strokes of minimum steps, using every drop of MAX_INK.
  const drawRound = () => {
    const strokes = [];
    let left = inkLeft(g);
    let y = 8 + (g.rounds.length * 97) % 900;
    while (left > DOT_INK + MIN_STEP) {
      const s = startStroke(8, y, left);
      left -= DOT_INK;
      for (let x = 8 + MIN_STEP; x < 1000 && left > MIN_STEP; x += MIN_STEP) left -= extendStroke(s, x, y + ((x / MIN_STEP) % 2), left).used;
      strokes.push(s);
      y = (y + 13) % 1000;
    }
    if (strokes.length) g = addRound(g, strokes, ANA);
  };
  drawRound();
  const players = Array.from({ length: 6 }, (_, i) => `9d0c2f5e-${i}${i}${i}${i}-4000-8000-0000000000${i}${i}`);
  for (let i = 0; i < MAX_WRONG; i++) {
    g = addGuess(g, `é${"ü".repeat(10)}${i}`.slice(0, 24), players[i % players.length]);
    if (!isOver(g)) drawRound();
  }
  assert.ok(isOver(g));
  assert.ok(inkUsed(g) <= MAX_INK + 1e-6);
  const length = urlWithQueryItems(toQueryItems(g)).length;
  assert.ok(length <= URL_LIMIT, `URL is ${length} characters`);
  assert.ok(fits(g));
});

test("drawingRoom counts what a round in progress adds to the URL", () => {
  const g = played();
  const base = queryLength(toQueryItems(g));
  const stroke = draw([[100, 100], [300, 100]]);
  assert.equal(drawingRoom(g, []), URL_LIMIT - base);
  const with1 = addRound(g, [stroke], ANA);
  assert.equal(drawingRoom(g, [stroke]), URL_LIMIT - queryLength(toQueryItems(with1)));
});

test("bubble text: the seed's caption for drawings, 👍 or 👎 with the guess for replies", () => {
  let g = played();
  let t = bubbleText(g, "draw");
  assert.equal(t.caption, CAPTION_DRAWING);
  assert.equal(CAPTION_DRAWING, "Guess my WenderPic!");
  assert.equal(t.subcaption, `by $${ANA}`);
  assert.equal(t.summaryText, `$${ANA} drew a WenderPic`);
  g = addGuess(g, "dog", BEN);
  t = bubbleText(g, "guess");
  assert.equal(t.caption, "👎 dog");
  assert.equal(t.subcaption, `$${BEN} guessed`);
  assert.equal(t.trailingCaption, "1 guess");
  assert.equal(t.summaryText, `$${BEN} guessed “dog” 👎`);
  g = addRound(g, [[[40, 40]]], ANA);
  assert.equal(bubbleText(g, "draw").subcaption, `$${ANA} added more ink`);
  g = addGuess(g, "Cat", BEN);
  t = bubbleText(g, "guess");
  assert.equal(t.caption, "👍 Cat");
  assert.equal(t.subcaption, `$${BEN} guessed $${ANA}'s WenderPic!`);
  assert.equal(t.trailingCaption, "2 guesses");
  for (const v of Object.values(t)) assert.ok(v.length <= 300);
});

test("words: drawable, unique, and a new pick differs from the old one", () => {
  assert.equal(new Set(WORDS).size, WORDS.length);
  for (const w of WORDS) assert.match(w, /^[a-z]+( [a-z]+)?$/);
  let r = 0;
  const seq = () => (r = (r + 0.37) % 1);
  for (let i = 0; i < 50; i++) {
    const a = pickWord(seq);
    assert.ok(WORDS.includes(a));
    assert.notEqual(pickWord(seq, a), a);
  }
  assert.ok(MoveError);
  assert.ok(roundsInk([]) === 0);
});
