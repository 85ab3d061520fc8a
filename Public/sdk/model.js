// Message, Session, layouts and stickers: the value types an app works with,
// modelled on MSMessage, MSSession, MSMessageTemplateLayout,
// MSMessageLiveLayout and MSSticker.

import { LAYOUT_FIELDS, STICKER_TYPES, BridgeError, LIMITS } from "./protocol.js";

const sessions = new Map();

function randomId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/**
 * A session: later messages in it replace the earlier bubble. Create one with
 * `new Session()` for a new game or list; reuse `selectedMessage.session` to
 * continue one. `version` is the latest version this app has been shown; an
 * update based on an older one is refused as a conflict.
 */
export class Session {
  constructor(identifier = randomId(), version = 0) {
    if (typeof identifier !== "string" || identifier.length < 1 || identifier.length > LIMITS.sessionId)
      throw new TypeError("a session id is 1–64 characters");
    const known = sessions.get(identifier);
    if (known) {
      known.version = Math.max(known.version, version);
      return known;
    }
    /** @readonly */
    this.identifier = identifier;
    this.version = version;
    sessions.set(identifier, this);
  }

  /** The one Session object for an id (sessions are shared by every message). */
  static withId(identifier, version = 0) {
    return new Session(identifier, version);
  }
}

/** The standard bubble: an image with captions, like MSMessageTemplateLayout. */
export class TemplateLayout {
  constructor(fields = {}) {
    /** Blob, canvas, or the URL of an image already sent (from a received message). */
    this.image = null;
    this.imageTitle = null;
    this.imageSubtitle = null;
    this.caption = null;
    this.subcaption = null;
    this.trailingCaption = null;
    this.trailingSubcaption = null;
    // A misspelt field (subCaption) was dropped on the way, without a word (an app
    // author's review): said here, where it is written.
    for (const key of Object.keys(fields ?? {})) {
      if (key !== "image" && !LAYOUT_FIELDS.includes(key)) {
        throw new TypeError(`TemplateLayout: "${key}" is not a layout field (image, ${LAYOUT_FIELDS.join(", ")})`);
      }
    }
    Object.assign(this, fields);
  }
}

/**
 * The app draws the bubble itself (presentation style "transcript"), like
 * MSMessageLiveLayout. `alternateLayout` is what viewers without the app see.
 */
export class LiveLayout {
  constructor(alternateLayout) {
    if (!(alternateLayout instanceof TemplateLayout)) throw new TypeError("LiveLayout needs a TemplateLayout as its alternate layout");
    this.alternateLayout = alternateLayout;
  }
}

/** An interactive message, like MSMessage. */
export class Message {
  /** @param {Session} [session] */
  constructor(session = null) {
    if (session !== null && !(session instanceof Session)) throw new TypeError("Message(session): a Session or nothing");
    this.session = session;
    /** @type {string | null} an http(s) URL or a "?query"; the message's state */
    this.url = null;
    /** @type {TemplateLayout | LiveLayout | null} */
    this.layout = null;
    /** @type {string | null} the one line shown when a later message of the session replaces this one */
    this.summaryText = null;
    /** @type {string | null} set on messages that were sent */
    this.senderParticipantIdentifier = null;
    this.isPending = false;
    this.ref = null;
    /** @type {number | null} the session version this message holds (read it; it does not move) */
    this.sessionVersion = null;
    /**
     * @type {number | null} the version an update is based on; null bases it on the
     * newest version this app has seen (`session.version`). Set it from the message
     * you edited (`selectedMessage.sessionVersion`) to get a conflict, not an
     * overwrite, when someone else moved the session meanwhile.
     */
    this.baseVersion = null;
  }

  /** A message the host handed us (a selected, received or sent one). */
  static fromSnapshot(snap) {
    const m = new Message(snap.session ? Session.withId(snap.session.id, snap.session.version) : null);
    m.url = snap.url ?? null;
    const t = new TemplateLayout();
    const l = snap.layout || {};
    for (const key of LAYOUT_FIELDS) t[key] = typeof l[key] === "string" ? l[key] : null;
    t.image = typeof l.imageURL === "string" ? l.imageURL : null;
    m.layout = snap.live ? new LiveLayout(t) : t;
    m.summaryText = snap.summaryText ?? null;
    m.senderParticipantIdentifier = snap.senderParticipantIdentifier ?? null;
    m.isPending = !!snap.isPending;
    m.ref = snap.ref ?? null;
    m.sessionVersion = snap.session ? snap.session.version : null;
    return m;
  }

  /** The template layout whatever the kind of layout. */
  get templateLayout() {
    if (this.layout instanceof LiveLayout) return this.layout.alternateLayout;
    return this.layout;
  }
}

/** A sticker: PNG, APNG, GIF or JPEG under 500 KB, with a description. */
export class Sticker {
  /**
   * @param {Blob | HTMLCanvasElement | OffscreenCanvas | string} image  a Blob,
   *   a canvas, or an URL relative to the app's page (e.g. "stickers/cat.png")
   * @param {string} description read aloud by screen readers, shown in previews
   */
  constructor(image, description) {
    if (typeof description !== "string" || description.length > LIMITS.text) throw new TypeError("a sticker needs a description of at most 300 characters");
    this.image = image;
    this.description = description;
    this.hash = null;
  }
}

/** Turns an image source (Blob, canvas, URL) into a Blob. */
export async function imageBlob(source) {
  if (source instanceof Blob) return source;
  if (typeof OffscreenCanvas !== "undefined" && source instanceof OffscreenCanvas) return source.convertToBlob({ type: "image/png" });
  if (source && typeof source.toDataURL === "function") {
    // Not toBlob: Chromium encodes for toBlob in idle time and waits up to ~6 s for
    // some when the page is busy (seen in app frames: 6.7 s before a drawing could be
    // sent). toDataURL encodes now.
    let url;
    try {
      url = source.toDataURL("image/png");
    } catch {
      throw new BridgeError("invalid_image", "the canvas could not be encoded");
    }
    if (!url.startsWith("data:image/png;base64,")) throw new BridgeError("invalid_image", "the canvas could not be encoded");
    const bin = atob(url.slice(url.indexOf(",") + 1));
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Blob([bytes], { type: "image/png" });
  }
  if (typeof source === "string") {
    // another site's image cannot be fetched from the sandbox (CSP): a TypeError, said as ours
    const res = await fetch(new URL(source, document.baseURI)).catch(() => null);
    if (!res || !res.ok) throw new BridgeError("invalid_image", `could not load ${source} (an image is a canvas, a Blob or a file in the app's folder)`);
    return res.blob();
  }
  throw new BridgeError("invalid_image", "an image is a Blob, a canvas or an URL");
}

/** Checks a sticker image: type and size. */
export function stickerProblem(blob) {
  if (!STICKER_TYPES.includes(blob.type)) return "a sticker is a PNG, APNG, GIF or JPEG image";
  if (blob.size >= LIMITS.stickerBytes) return "a sticker is smaller than 500 KB";
  return null;
}
