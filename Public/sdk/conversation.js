// The conversation an app is active in, like MSConversation. It knows only
// app-scoped participant identifiers and this app's own messages.

import { BridgeError, LIMITS } from "./protocol.js";
import { Message, LiveLayout, TemplateLayout, Sticker, imageBlob, stickerProblem } from "./model.js";
import { shorten, wellFormed } from "./text.js";

const BLOB_URL = /\/blobs\/([0-9a-f]{64})(?:[?#].*)?$/;
const HASH = /^[0-9a-f]{64}$/;

/** Raised when a session update was based on an old state. `current` is the session's current message. */
export class SessionConflictError extends BridgeError {
  constructor(message, current) {
    super("session_conflict", message, { current });
    this.name = "SessionConflictError";
  }
}

/** The hash of an image already on the server (a hash, or a /blobs/ URL), or null. */
function uploadedHash(source) {
  if (typeof source !== "string") return null;
  const m = BLOB_URL.exec(source);
  if (m) return m[1];
  return HASH.test(source) ? source : null;
}

function newRef() {
  return `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

export class Conversation {
  /**
   * @param {import("./bridge.js").AppBridge} bridge
   * @param {object} snapshot what the host told us about the conversation
   */
  constructor(bridge, snapshot) {
    this._bridge = bridge;
    /** @type {Map<string, Message>} messages this app inserted, by ref, until they are sent or removed */
    this._staged = new Map();
    this._update(snapshot);
  }

  _update(snapshot) {
    if (!snapshot) return;
    /** @readonly this user's identifier, for this app only */
    this.localParticipantIdentifier = snapshot.localParticipantIdentifier;
    /** @readonly the other members' identifiers, for this app only */
    this.remoteParticipantIdentifiers = Object.freeze([...(snapshot.remoteParticipantIdentifiers || [])]);
    if ("selectedMessage" in snapshot) {
      /** @type {Message | null} one of this app's messages, the one the user tapped */
      this.selectedMessage = snapshot.selectedMessage ? Message.fromSnapshot(snapshot.selectedMessage) : null;
    }
  }

  /** Uploads an image (Blob or canvas) through the host; returns its hash. */
  async _upload(source) {
    const known = uploadedHash(source);
    if (known) return known;
    const blob = await imageBlob(source);
    const { hash } = await this._bridge.call("upload", { blob });
    return hash;
  }

  async _draft(message) {
    if (!(message instanceof Message)) throw new TypeError("insert/send take a Message");
    if (typeof message.url !== "string" || message.url === "") throw new TypeError("a Message needs a url (the app's state, e.g. \"?word=cat\")");
    const live = message.layout instanceof LiveLayout;
    const template = live ? message.layout.alternateLayout : message.layout;
    if (!(template instanceof TemplateLayout)) throw new TypeError("a Message needs a TemplateLayout (or a LiveLayout with one)");
    const layout = {};
    for (const key of ["imageTitle", "imageSubtitle", "caption", "subcaption", "trailingCaption", "trailingSubcaption"]) {
      if (typeof template[key] === "string" && template[key] !== "") layout[key] = wellFormed(template[key]);
    }
    // An image not uploaded yet goes with the message: the host uploads it when the
    // message is sent, so a move made offline is in the composer or the outbox at
    // once and survives the app being closed.
    let image;
    if (template.image) {
      const hash = uploadedHash(template.image);
      if (hash) layout.image = hash;
      else image = await imageBlob(template.image);
    }
    // Half an emoji (a text cut with slice) is no text: the server stores it as U+FFFD, so send that.
    const draft = { url: wellFormed(message.url), layout, live };
    if (typeof message.summaryText === "string" && message.summaryText !== "") draft.summaryText = wellFormed(message.summaryText);
    if (message.session) draft.session = { id: message.session.identifier, baseVersion: message.baseVersion ?? message.session.version };
    return { draft, image };
  }

  async _deliver(method, message) {
    const { draft, image } = await this._draft(message);
    const ref = newRef();
    message.ref = ref;
    if (method === "insert") {
      message.isPending = true;
      this._staged.set(ref, message);
    }
    try {
      const sent = await this._bridge.call(method, image ? { ref, message: draft, image } : { ref, message: draft });
      this._sent(message, sent);
      return message;
    } catch (error) {
      if (error.code === "session_conflict" && error.current) {
        throw new SessionConflictError(error.message, Message.fromSnapshot(error.current));
      }
      throw error;
    } finally {
      this._staged.delete(ref);
    }
  }

  _sent(message, snapshot) {
    message.isPending = false;
    if (snapshot && snapshot.senderParticipantIdentifier) message.senderParticipantIdentifier = snapshot.senderParticipantIdentifier;
    if (snapshot && snapshot.session && message.session && message.session.identifier === snapshot.session.id) {
      message.session.version = Math.max(message.session.version, snapshot.session.version);
      message.sessionVersion = snapshot.session.version;
      message.baseVersion = null;
    }
  }

  /**
   * Stages a message in the composer; the user adds text and presses Send, or
   * removes it. Resolves with the message once it has been sent and stored;
   * rejects with code "cancelled" if the user removed it, or with a
   * SessionConflictError (its `current` is the session's current message) if
   * someone else updated the session first.
   * @param {Message} message
   * @returns {Promise<Message>}
   */
  insert(message) {
    return this._deliver("insert", message);
  }

  /**
   * Sends a message at once, skipping the composer. Only right after the user
   * interacted with the app (a tap or a key press in it): the host refuses a
   * send nobody asked for, and asks the user first when it cannot prove the
   * gesture (rejects with code "cancelled" if they say no). Settles like insert.
   * @param {Message} message
   * @returns {Promise<Message>}
   */
  send(message) {
    const activation = globalThis.navigator?.userActivation;
    if (activation && !activation.isActive) {
      return Promise.reject(new BridgeError("no_user_interaction", "send() needs the user to have just interacted with the app; use insert() otherwise"));
    }
    return this._deliver("send", message);
  }

  /**
   * Uploads an image (a Blob, a canvas or a path in the app's folder) now and
   * resolves with its hash, which a layout's `image` may hold: insert() then
   * stages the message at once. Offline the upload waits for the connection,
   * so an app can say so while it does.
   * @param {Blob | HTMLCanvasElement | OffscreenCanvas | string} image
   * @returns {Promise<string>}
   */
  uploadImage(image) {
    return this._upload(image);
  }

  /** Adds text to the composer's input. */
  async insertText(text) {
    if (typeof text !== "string" || text.length === 0) throw new BridgeError("invalid_call", "insertText takes 1–10,000 characters");
    if (text.length > LIMITS.insertText) throw new BridgeError("too_long", "insertText takes 1–10,000 characters");
    await this._bridge.call("insertText", { text: wellFormed(text) });
  }

  /**
   * Stages a sticker in the composer.
   * @param {Sticker} sticker
   */
  async insertSticker(sticker) {
    if (!(sticker instanceof Sticker)) throw new TypeError("insertSticker takes a Sticker");
    if (!sticker.hash) {
      const blob = await imageBlob(sticker.image);
      const problem = stickerProblem(blob);
      if (problem) throw new BridgeError("invalid_sticker", problem);
      sticker.hash = (await this._bridge.call("upload", { blob })).hash;
    }
    await this._bridge.call("insertSticker", { image: sticker.hash, description: wellFormed(sticker.description) });
  }

  /**
   * Stages an image attachment in the composer.
   * @param {Blob | HTMLCanvasElement} image
   * @param {string} [name]
   */
  async insertAttachment(image, name = "image") {
    const hash = await this._upload(image);
    await this._bridge.call("insertAttachment", { image: hash, name: shorten(wellFormed(String(name)), LIMITS.text, "") });
  }
}
