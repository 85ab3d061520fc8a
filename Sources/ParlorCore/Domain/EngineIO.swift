/// A WebSocket connection, as the service thread numbers them.
public typealias ConnectionID = UInt64
/// A pending HTTP upload, as the service thread numbers them.
public typealias UploadID = UInt64

/// What the service thread hands the engine.
public enum EngineInput: Sendable, Equatable {
    /// One complete text frame from a connection.
    case frame(ConnectionID, [UInt8])
    /// The connection is gone; forget its state.
    case closed(ConnectionID)
    /// A connection opened from this client address (per-address limits).
    case opened(ConnectionID, address: String)
    /// Whether an upload's bearer token is valid and its `bytes` within the user's
    /// limits, asked when its headers arrive (before any of the body is read).
    case checkUploadToken(UploadID, token: String, bytes: Int)
    /// An upload was checked and stored: record it (the user's stored bytes, the image's
    /// age for collection), then answer with `reply`.
    case blobStored(UploadID, userId: String, hash: String, size: Int, reply: [UInt8])
    /// The health check: a write to the database, answered once committed.
    case health(UploadID)
    /// Once a second: queued `parlor admin` requests, and the periodic work.
    case sweep
    /// Continue a resume replay where the last piece ended (see `replayContinues`).
    case replay(ConnectionID, conversationId: String, afterSeq: Int, generation: Int)
    /// Cluster mode: another node committed messages in this conversation.
    case conversationNews(conversationId: String)
    /// Cluster mode: another node revoked this device, or every device of this user.
    case signedOutElsewhere(device: String?, user: String?)
}

/// What the engine asks the service thread to do, in order, after its batch committed.
public enum EngineAction: Sendable {
    case send(ConnectionID, Payload)
    case broadcast(conversationId: String, Payload)
    /// Like broadcast, but skipped in rooms of more than `Limits.presenceRoomSize`
    /// subscribers (member news there would cost n frames per join: n² to fill a room).
    case broadcastInSmallRoom(conversationId: String, Payload)
    /// To every connection of one user (their other tabs and devices).
    case toUser(userId: String, Payload)
    /// To every connection of one user but `except` (the one that told the server):
    /// on other nodes, to all of the user's connections there.
    case toUserExcept(userId: String, except: ConnectionID, Payload)
    /// Cluster mode: the user left or was removed from the conversation; the nodes
    /// their other connections are on stop delivering it to them (this node's
    /// `.unsubscribe`s did it here).
    case left(userId: String, conversationId: String)
    /// Start live delivery of the conversation to the connection (and announce presence).
    case subscribe(ConnectionID, conversationId: String, userId: String)
    case unsubscribe(ConnectionID, conversationId: String)
    case authenticated(ConnectionID, userId: String)
    case close(ConnectionID, code: UInt16, reason: String)
    case uploadDone(UploadID, status: Int, body: [UInt8])
    case uploadAuthorized(UploadID, UploadVerdict)
    /// nil: the database took the health check's write; else why not.
    case healthDone(UploadID, problem: String?)
    /// A resume replay sent one piece; ask for the next (`.replay`) once the connection's
    /// queue has drained, so a replay never piles up more than a piece in memory.
    case replayContinues(ConnectionID, conversationId: String, afterSeq: Int, generation: Int)
    /// The connection opened or closed a session in its expanded pane (checked: a member,
    /// a session of the conversation); the live state keeps who plays, and answers `re`.
    case playing(ConnectionID, re: String?, conversationId: String, sessionId: String, userId: String, playing: Bool)
    /// This many of the connection's frames are done; it may send more (flow control).
    case processed(ConnectionID, count: Int)
    /// Cluster mode: this batch committed messages in the conversation (the bus tells
    /// the other nodes). Nothing for the live state.
    case committedMessages(conversationId: String)
    /// Cluster mode: a device or a whole account was signed out (its connections on
    /// other nodes must close too). Nothing for the live state.
    case signedOut(device: String?, user: String?)
    /// Cluster mode: the node lost the shared database (false: its connections are closed
    /// with 1013 and new ones refused) or reached it again (true; `DatabaseWatch`).
    case databaseReachable(Bool)
}

/// Why connections are closed with 4003, in the close frame's reason: the page tells
/// its person which (PROTOCOL.md, close codes).
public enum SignOutReason: String, Sendable {
    /// The device was revoked (by the person, from another device).
    case device = "signed out"
    /// An admin deactivated the account: it may be let back in.
    case deactivated = "account deactivated"
    /// The account was deleted, by its person or an admin: for good.
    case deleted = "account deleted"
}

/// The engine's answer on an upload's headers.
public enum UploadVerdict: Sendable, Equatable {
    case allowed(userId: String)
    case invalidToken
    /// Over the user's upload bytes per day: try again after this many milliseconds.
    case rateLimited(retryAfterMs: Int)
    /// The user's stored images would pass their total.
    case quotaExceeded
}
