// The newest message of each session an app has been shown. A game or a list
// is one session; its messages reach the app out of order (a tapped old bubble,
// a friend's move in didReceive, the answer to our own send), and an app that
// acts on an old state loses a move to a conflict. Keeping the newest per
// session lets it show, or carry on from, the state that is really current.

/**
 * The session version a message holds: its own `sessionVersion`; for a message
 * that does not carry one, its session's version (for a message just handed to
 * the app that is its own); 0 without a session.
 * @param {import("./model.js").Message} message
 */
function versionOf(message) {
  if (!message.session) return 0;
  return Number.isInteger(message.sessionVersion) ? message.sessionVersion : message.session.version;
}

export class NewestMessages {
  constructor() {
    /** @type {Map<string, {message: import("./model.js").Message, version: number}>} by session id */
    this._newest = new Map();
  }

  /**
   * Takes note of a message the app was shown; it becomes the newest of its
   * session unless a newer one was seen already.
   * @returns {number} the session version the message holds (0 without a session)
   */
  note(message) {
    const version = versionOf(message);
    if (message.session) {
      const id = message.session.identifier;
      const known = this._newest.get(id);
      if (!known || known.version <= version) this._newest.set(id, { message, version });
    }
    return version;
  }

  /** The newest message seen of a session, or null. */
  newest(sessionId) {
    return this._newest.get(sessionId)?.message ?? null;
  }

  /** The newest message seen of a session if it is newer than `version`, else null. */
  newerThan(sessionId, version) {
    const known = this._newest.get(sessionId);
    return known && known.version > version ? known.message : null;
  }
}
