// WenderPic (seed 004): one player draws a secret word with a limited supply
// of ink, the others guess. Compact: the title and New Game. Expanded: the
// artist draws (the word, an ink gauge, the paper); Done stages the drawing in
// the message box in the game's session ("Guess my WenderPic!"). A guesser
// opens the bubble and guesses; the reply says 👍 or 👎 with the guess. After
// a wrong guess the artist, opening the bubble, has more ink to add to the
// drawing. The game ends when the word is guessed.
//
// The artist is recognised by comparing conversation.localParticipantIdentifier
// with the game's `artist` (the identifier of whoever started it). The
// drawing travels as strokes in the URL (strokes.js); the bubble's image is
// rendered from them.

import {
  MessagesAppViewController, Message, Session, TemplateLayout, SessionConflictError, NewestMessages,
  queryItems, urlWithQueryItems, keepFocus,
} from "/sdk/index.js";
import {
  newGame, pickWord, addRound, addGuess, toQueryItems, fromQueryItems, fits, drawingRoom, bubbleText,
  turnOf, inkLeft, isArtist, isOver, isRight, winningGuess, guessesSinceLastRound, roundsSinceGuessOf,
  normalize, MoveError,
} from "./game.js";
import { strokesInk, strokesAfter, encodeRounds, decodeRounds } from "./strokes.js";
import { pictureCanvas } from "./render.js";
import { summaryView } from "./views/summary.js";
import { DrawingView } from "./views/draw.js";
import { guessView } from "./views/guess.js";
import { overView, waitView } from "./views/result.js";

const root = document.getElementById("root");
const DRAFTS_KEY = "drafts";
/** A move whose picture is not up after this long says so (offline, it waits for the connection). */

/** The game a message carries, or null. */
function gameOf(message) {
  return message && typeof message.url === "string" ? fromQueryItems(queryItems(message.url)) : null;
}

const copyStrokes = (strokes) => strokes.map((s) => s.map((p) => [p[0], p[1]]));

/**
 * What happened between two states of a game, said to `me`. In the drawing
 * view the artist's new ink has a line of its own (bonusText), so there the
 * news of a wrong guess does not say it again (`inkLine`).
 */
function moveNews(before, after, me, { inkLine = false } = {}) {
  if (!after) return null;
  const win = winningGuess(after);
  if (win && !(before && winningGuess(before))) return isArtist(after, me) ? `👍 “${win.text}” — they guessed it!` : `👍 “${win.text}” — guessed!`;
  if (before && after.rounds.length > before.rounds.length) return "The artist added more ink.";
  if (before && after.guesses.length > before.guesses.length) {
    const last = after.guesses[after.guesses.length - 1];
    if (isOver(after)) return `👎 “${last.text}” — out of guesses!`;
    // one's own guess, from another device, is not a friend's
    if (!isArtist(after, me)) return last.by === me ? `You guessed “${last.text}” 👎` : `A friend guessed “${last.text}” 👎`;
    return inkLine ? `👎 “${last.text}” — a wrong guess.` : `👎 “${last.text}” — you got more ink!`;
  }
  return null;
}

class WenderPic extends MessagesAppViewController {
  constructor() {
    super();
    /** "new": drawing a new game; "game": looking at `target` */
    this.mode = "new";
    /** {game, session, version, message} of the game looked at */
    this.target = null;
    /** the newest state (message) of each game seen */
    this.latest = new NewestMessages();
    /** the new game being drawn: {word, draft} */
    this.fresh = null;
    /** session id → strokes of the round the artist is drawing */
    this.drafts = new Map();
    /** session id → the guess being typed */
    this.guessDrafts = new Map();
    this.status = null;
    this.notice = null;
    /** the DrawingView on screen, updated in place when a guess arrives */
    this.view = null;
    this.sendToken = 0;
    /** where a transition under way goes: set at willTransition, cleared at didTransition (see viewStyle) */
    this.transitioningTo = null;
  }

  /**
   * The style of the view on screen. The view switches at willTransition, and
   * a tap on it may come before didTransition updates `presentationStyle` (on
   * a slow phone or a loaded machine, well before): what that tap redraws is
   * still the view the pane shows, and New Game on the compact view still
   * asks for the expanded pane.
   */
  get viewStyle() {
    return this.transitioningTo ?? this.presentationStyle;
  }

  get me() {
    return this.activeConversation.localParticipantIdentifier;
  }

  // ---- lifecycle ------------------------------------------------------------------

  async willBecomeActive(conversation) {
    this.transitioningTo = null;
    await this.loadDrafts();
    this.target = this.targetOf(conversation.selectedMessage);
    this.mode = this.target ? "game" : "new";
    this.render();
  }

  willResignActive() {
    return this.saveDrafts();
  }

  willTransition(style) {
    this.transitioningTo = style;
    this.render(style);
  }

  didTransition() {
    this.transitioningTo = null;
  }

  didSelect(message) {
    this.notice = null;
    this.target = this.targetOf(message);
    this.mode = this.target ? "game" : "new";
    if (this.viewStyle === "expanded") this.render();
  }

  didReceive(message) {
    const game = gameOf(message);
    if (!game || !message.session) return;
    const id = message.session.identifier;
    const beforeGame = gameOf(this.latest.newest(id));
    const t = this.targetOf(message);
    const me = this.me;
    const showing = this.mode === "game" && this.target && this.target.session && this.target.session.identifier === id;
    if (showing) {
      this.notice = moveNews(this.target.game, game, me, { inkLine: true });
      this.target = t;
    }
    if (this.viewStyle === "expanded") {
      // another game's move does not disturb what is on screen (a drawing in progress stays)
      if (!showing) return;
      if (this.view && turnOf(game, me) === "draw") {
        this.view.update({ game, available: inkLeft(game), notice: this.notice, bonus: this.bonusText(game) });
        return;
      }
      this.render();
      return;
    }
    if (this.status && this.status.sessionId === id && this.status.kind === "staged") {
      this.status = { kind: "stale", sessionId: id, text: "Someone moved first, so your move will not go through.", action: "See it" };
    } else {
      this.status = this.turnStatus(game, beforeGame, id) ?? this.status;
    }
    this.render();
  }

  /**
   * A move refused while the app was closed (sent offline, say): carried on
   * from the winner as after a live refusal. A guess comes back typed; the
   * artist's lines come back as the round being drawn.
   */
  didFailSending(message, error) {
    const mine = gameOf(message);
    if (!mine || !message.session || !gameOf(error.current)) return false;
    const id = message.session.identifier;
    const drew = isArtist(mine, this.me);
    if (drew && !(this.drafts.get(id) || []).length) this.drafts.set(id, copyStrokes(mine.rounds.at(-1) || []));
    const how = drew
      ? { move: "draw", base: { ...mine, rounds: mine.rounds.slice(0, -1) } }
      : { move: "guess", base: { ...mine, guesses: mine.guesses.slice(0, -1) }, guess: mine.guesses.at(-1)?.text };
    // not awaited: it may ask for the expanded pane, which waits for this hook to return
    this.conflict(error.current, how);
    return true;
  }

  didStartSending() {
    if (this.status && this.status.kind === "staged") {
      this.status = { ...this.status, text: "Sending…" };
      if (this.viewStyle !== "expanded") this.render();
    }
  }

  /**
   * A move of ours staged before the app was closed, and sent then (the host
   * hands it over on this open): what the app kept of it ends as if it had
   * watched it go. A new game's drawing is no longer the new game (the lines
   * drawn after Done stay, as in freshSent); a round of more ink is no longer
   * the round being drawn; a guess is no longer being typed: as the insert's
   * `done` in finishDrawing and submitGuess. The compact line says it went.
   */
  didSendWhileClosed(message) {
    const game = gameOf(message);
    if (!game || !message.session) return;
    const id = message.session.identifier;
    const drew = isArtist(game, this.me);
    let kept = null;
    if (!drew) {
      this.guessDrafts.delete(id);
    } else if (game.rounds.length === 1 && this.fresh && this.fresh.word === game.word) {
      kept = this.freshSent(game, id);
    } else {
      this.drafts.delete(id);
    }
    this.saveDrafts();
    this.status = { kind: "sent", sessionId: id, text: drew ? "Sent! Now wait for a guess." : "Sent!", ...kept };
    this.render();
  }

  // ---- state -------------------------------------------------------------------------

  /** {game, session, version, message} of a message, remembering it as the newest of its session. */
  targetOf(message) {
    const game = gameOf(message);
    if (!game) return null;
    const version = this.latest.note(message);
    return { game, session: message.session || null, version, message };
  }

  /** The newest state of the game looked at. */
  current() {
    const t = this.target;
    if (!t || !t.session) return t;
    const newer = this.latest.newerThan(t.session.identifier, t.version);
    return (newer && this.targetOf(newer)) || t;
  }

  /** A compact-view line when a friend's move gives this user a turn. */
  turnStatus(game, before, id) {
    const me = this.me;
    const turn = turnOf(game, me);
    const open = { sessionId: id };
    if (turn === "over") return { ...open, kind: "turn", text: moveNews(before, game, me) || "A game of WenderPic ended.", action: "See it" };
    if (turn === "guess" && (!before || game.rounds.length > before.rounds.length)) return { ...open, kind: "turn", text: "A WenderPic is waiting for your guess!", action: "Guess" };
    if (turn === "draw" && before && game.guesses.length > before.guesses.length) return { ...open, kind: "turn", text: moveNews(before, game, me), action: "Draw more" };
    return null;
  }

  /** Why the artist has new ink: the wrong guesses since their last round. */
  bonusText(game) {
    const since = guessesSinceLastRound(game).filter((g) => !isRight(game.word, g.text));
    if (since.length === 0 || game.rounds.length === 0) return null;
    return `${since.map((g) => `👎 ${g.text}`).join(", ")} — you got more ink!`;
  }

  // ---- moves ---------------------------------------------------------------------------

  newGame({ fresh = false } = {}) {
    this.mode = "new";
    this.notice = null;
    if (fresh || !this.fresh) this.fresh = { word: pickWord(), draft: [] };
    if (this.viewStyle === "expanded") this.render();
    else this.requestPresentationStyle("expanded");
  }

  changeWord() {
    if (!this.fresh || this.fresh.draft.length) return;
    this.fresh = { word: pickWord(Math.random, this.fresh.word), draft: [] };
    this.saveDrafts();
    this.render();
  }

  /** Done: the round drawn goes into the message box. */
  async finishDrawing() {
    const me = this.me;
    const t = this.mode === "game" ? this.current() : null;
    if (t && t.session && t.session.version > t.version) return this.overtaken();
    const game = t ? t.game : newGame(me, this.fresh.word);
    const draft = t ? this.drafts.get(t.session?.identifier) || [] : this.fresh.draft;
    let next;
    try {
      next = addRound(game, copyStrokes(draft), me);
    } catch (error) {
      return this.refuse(error);
    }
    if (!fits(next)) return this.refuse(new MoveError("this drawing is too big to send; undo a few lines"));
    const session = t?.session || new Session();
    const message = this.compose(next, session, "draw", pictureCanvas(next.rounds));
    // Based on the state shown, so that a move someone made meanwhile is a conflict, not an overwrite.
    if (t?.session) message.baseVersion = t.version;
    return this.stage(message, session, {
      move: "draw",
      base: t ? game : null,
      staged: "Your drawing is in the message box. Press Send to challenge your friends!",
      sent: "Sent! Now wait for a guess.",
      done: () => {
        if (!t) return this.freshSent(next, session.identifier);
        this.drafts.delete(session.identifier);
        return null;
      },
    });
  }

  /**
   * A new game went out. New Game tapped before Send reopens the drawing in
   * the message box, and the artist may have gone on with it without Done:
   * what Send sent is what the message box showed, the new-game draft ends,
   * and the lines drawn since stay, as this game's next round (same word, the
   * ink they were drawn with). A drawing of another word (every line undone,
   * Another word) is another new game, and stays the new-game draft.
   * @returns {{text: string, action: string} | null} what the compact line says instead of "Sent!"
   */
  freshSent(game, id) {
    const f = this.fresh;
    if (!f || f.word !== game.word) return null;
    this.fresh = null;
    const rest = strokesAfter(game.rounds.at(-1), f.draft);
    if (!rest.length) return null;
    this.drafts.set(id, rest);
    return { text: "Sent! The lines you drew after Done are kept: add them as more ink.", action: "Draw more" };
  }

  /** A guess goes into the message box. */
  async submitGuess(text) {
    const me = this.me;
    const t = this.current();
    if (!t) return undefined;
    if (t.session && t.session.version > t.version) return this.overtaken();
    let next;
    try {
      next = addGuess(t.game, text, me);
    } catch (error) {
      return this.refuse(error);
    }
    if (!fits(next)) return this.refuse(new MoveError("this game is full; start a new one"));
    const last = next.guesses[next.guesses.length - 1];
    const right = isRight(next.word, last.text);
    const over = isOver(next);
    // The drawing is unchanged: reuse its picture, unless the game ends (then a ribbon shows the word).
    const previous = t.message?.templateLayout?.image;
    const image = over || typeof previous !== "string"
      ? pictureCanvas(next.rounds, over ? { ribbon: { text: right ? `✓ ${next.word}` : `It was “${next.word}”`, right } } : {})
      : previous;
    const session = t.session || new Session();
    const message = this.compose(next, session, "guess", image);
    if (t.session) message.baseVersion = t.version;
    return this.stage(message, session, {
      move: "guess",
      base: t.game,
      guess: last.text,
      staged: `Your guess “${last.text}” is in the message box. Press Send!`,
      sent: right ? "👍 You got it!" : "Sent! Let's see if the artist adds more ink.",
      done: () => {
        this.guessDrafts.delete(session.identifier);
        return null;
      },
    });
  }

  compose(game, session, move, image) {
    const text = bubbleText(game, move);
    const message = new Message(session);
    message.url = urlWithQueryItems(toQueryItems(game));
    message.summaryText = text.summaryText;
    message.layout = new TemplateLayout({ image, caption: text.caption, subcaption: text.subcaption, trailingCaption: text.trailingCaption });
    return message;
  }

  /** insert(): staged in the message box; the pane goes compact so the user sees it. */
  async stage(message, session, how) {
    const conversation = this.activeConversation;
    const token = ++this.sendToken;
    this.notice = null;
    this.status = { kind: "staged", sessionId: session.identifier, text: how.staged };
    // The picture goes with the move: the host uploads it when the message is sent,
    // so offline the move is in the message box at once and waits there.
    const sending = conversation.insert(message);
    sending.catch(() => {});
    await this.requestPresentationStyle("compact");
    try {
      const sent = await sending;
      if (token !== this.sendToken) return;
      const drawingFresh = this.viewStyle === "expanded" && this.mode === "new";
      const kept = how.done();
      this.saveDrafts();
      const t = this.targetOf(sent);
      this.status = { kind: "sent", sessionId: session.identifier, text: how.sent, ...kept };
      if (this.viewStyle === "expanded") {
        // New Game tapped as Send went: the drawing on screen is this game, now sent; go on with it there.
        if (drawingFresh && !this.fresh) {
          this.target = t;
          this.mode = "game";
          this.notice = "Sent! Lines you add now go to this game as more ink.";
          this.render();
        }
        // else the user has opened something else meanwhile, which stays
        return;
      }
      this.target = t;
      this.mode = "game";
    } catch (error) {
      if (token !== this.sendToken) return;
      if (error instanceof SessionConflictError) return this.conflict(error.current, how);
      this.status = error.code === "cancelled" ? null : { kind: "error", text: `Not sent: ${error.message}` };
    }
    if (this.viewStyle !== "expanded") this.render();
  }

  /**
   * Someone else's move went first. Show theirs and carry on from it: the
   * artist keeps the lines not yet sent (with the ink the new state allows),
   * a guesser keeps the guess typed.
   */
  async conflict(current, how) {
    const before = how.base;
    const t = this.targetOf(current);
    if (!t) return;
    const me = this.me;
    const id = t.session.identifier;
    this.target = t;
    this.mode = "game";
    const game = t.game;
    let news = moveNews(before, game, me, { inkLine: true }) || "Someone moved first.";
    if (how.move === "draw") {
      const draft = this.drafts.get(id) || [];
      while (draft.length && strokesInk(draft) > inkLeft(game)) draft.pop();
      news = isOver(game) ? `${news} Your new lines were not sent.` : `${news} Your lines are still here: press Done to send them.`;
    } else if (how.guess) {
      const taken = game.guesses.some((g) => normalize(g.text) === normalize(how.guess));
      if (!taken && !isOver(game)) this.guessDrafts.set(id, how.guess);
      news = isOver(game) ? `${news}` : taken ? `${news} (Your guess was the same.)` : `${news} Your guess was not sent; try again.`;
    }
    this.notice = news;
    this.status = { kind: "stale", sessionId: id, text: "Someone else's move went first.", action: "See it" };
    if (this.viewStyle === "expanded") this.render();
    else await this.requestPresentationStyle("expanded");
  }

  /** A newer state arrived while the user was acting on an older one. */
  overtaken() {
    this.target = this.current();
    this.notice = "The game moved on while you were playing; here it is now.";
    this.render();
  }

  refuse(error) {
    this.notice = error instanceof MoveError ? `Hmm: ${error.message}.` : error.message;
    this.render();
  }

  openStatus() {
    const known = this.status?.sessionId ? this.latest.newest(this.status.sessionId) : null;
    if (known) {
      this.target = this.targetOf(known);
      this.mode = "game";
    }
    this.requestPresentationStyle("expanded");
  }

  // ---- drawings in progress survive closing the app (per-user app storage) -------------------

  async loadDrafts() {
    let saved = null;
    try {
      saved = await this.storage.get(DRAFTS_KEY);
    } catch {
      return;
    }
    this.takeDrafts(saved);
  }

  /**
   * Drafts as stored: fill in what this app does not hold (opening), or, `fromElsewhere`,
   * take them over (another device drew, sent or started anew: the laptop left open
   * wrote its old copy over the phone's lines as it closed, and offered a game the
   * phone had sent as still to send). What is being drawn on screen here stays.
   */
  takeDrafts(saved, { fromElsewhere = false, keep = null } = {}) {
    if (!saved || typeof saved !== "object") return;
    const round = (text) => {
      try {
        return typeof text === "string" && text ? decodeRounds(text)[0] || [] : [];
      } catch {
        return [];
      }
    };
    const fresh = saved.fresh && typeof saved.fresh.word === "string" && saved.fresh.word
      ? { word: saved.fresh.word.slice(0, 40), draft: round(saved.fresh.ink) } : null;
    if (fromElsewhere ? keep !== "fresh" : !this.fresh && fresh) this.fresh = fresh;
    const games = saved.games && typeof saved.games === "object" ? saved.games : {};
    if (fromElsewhere) for (const id of [...this.drafts.keys()]) if (id !== keep && !(id in games)) this.drafts.delete(id);
    for (const [id, text] of Object.entries(games)) {
      if (fromElsewhere ? id !== keep : !this.drafts.has(id)) this.drafts.set(id, round(text));
    }
  }

  storageDidChange(key, value) {
    if (key !== DRAFTS_KEY) return;
    const drawing = this.viewStyle === "expanded";
    const keep = !drawing ? null : this.mode === "new" ? "fresh" : this.target?.session?.identifier ?? null;
    this.takeDrafts(value, { fromElsewhere: true, keep });
    if (!drawing) this.render();
  }

  async saveDrafts() {
    const games = {};
    for (const [id, draft] of [...this.drafts].filter(([, d]) => d.length).slice(-6)) games[id] = encodeRounds([draft]);
    const fresh = this.fresh ? { word: this.fresh.word, ink: this.fresh.draft.length ? encodeRounds([this.fresh.draft]) : "" } : null;
    try {
      await this.storage.set(DRAFTS_KEY, { fresh, games });
    } catch {
      // storage full or refused: the drawing only lives until the app closes
    }
  }

  // ---- views ----------------------------------------------------------------------------

  /** Shows the view for `style` and the game looked at; the keyboard focus stays put (focus.js). */
  render(style = this.viewStyle) {
    if (!this.activeConversation) return;
    keepFocus(root, () => this.renderView(style));
  }

  renderView(style) {
    this.view = null;
    document.documentElement.dataset.view = style === "expanded" ? "expanded" : "compact";
    if (style !== "expanded") {
      root.replaceChildren(summaryView({ status: this.status, onNewGame: () => this.newGame(), onStatusAction: () => this.openStatus() }));
      return;
    }
    const me = this.me;
    const t = this.mode === "game" ? this.current() : null;
    if (!t) {
      if (!this.fresh) this.fresh = { word: pickWord(), draft: [] };
      const game = newGame(me, this.fresh.word);
      this.show(this.drawing(game, this.fresh.draft, true));
      return;
    }
    const game = t.game;
    const id = t.session ? t.session.identifier : "";
    const notice = this.notice;
    switch (turnOf(game, me)) {
      case "draw": {
        if (!this.drafts.has(id)) this.drafts.set(id, []);
        const draft = this.drafts.get(id);
        while (draft.length && strokesInk(draft) > inkLeft(game)) draft.pop();
        this.show(this.drawing(game, draft, false));
        return;
      }
      case "guess": {
        const since = roundsSinceGuessOf(game, me);
        root.replaceChildren(guessView({
          game, me,
          notice: notice || (since > 0 ? "The artist added more ink since your last guess." : null),
          draft: this.guessDrafts.get(id) || "",
          onDraft: (text) => this.guessDrafts.set(id, text),
          onGuess: (text) => this.submitGuess(text),
        }));
        return;
      }
      case "over":
        root.replaceChildren(overView({ game, me, notice, onNewGame: () => this.newGame({ fresh: true }) }));
        return;
      default:
        root.replaceChildren(waitView({ game, me, notice }));
    }
  }

  drawing(game, draft, isNew) {
    const view = new DrawingView({
      game, me: this.me, draft,
      available: inkLeft(game),
      fits: (strokes) => drawingRoom(game, strokes) >= 0,
      notice: this.notice,
      bonus: isNew ? null : this.bonusText(game),
      canChangeWord: isNew,
      onChangeWord: () => this.changeWord(),
      onChange: () => this.saveDrafts(),
      onDone: () => this.finishDrawing(),
    });
    this.view = view;
    return view.el;
  }

  show(el) {
    root.replaceChildren(el);
  }
}

WenderPic.start();
