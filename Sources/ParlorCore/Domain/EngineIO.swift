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
    /// Whether an upload's bearer token is valid, asked when its headers arrive (before
    /// any of the body is read).
    case checkUploadToken(UploadID, token: String)
    /// The health check: a write to the database, answered once committed.
    case health(UploadID)
    /// Once a second: queued `parlor admin` requests, and the periodic work.
    case sweep
    /// Continue a resume replay where the last piece ended (see `replayContinues`).
    case replay(ConnectionID, conversationId: String, afterSeq: Int, generation: Int)
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
    /// Start live delivery of the conversation to the connection (and announce presence).
    case subscribe(ConnectionID, conversationId: String, userId: String)
    case unsubscribe(ConnectionID, conversationId: String)
    case authenticated(ConnectionID, userId: String)
    case close(ConnectionID, code: UInt16, reason: String)
    case uploadDone(UploadID, status: Int, body: [UInt8])
    case uploadAuthorized(UploadID, ok: Bool)
    /// nil: the database took the health check's write; else why not.
    case healthDone(UploadID, problem: String?)
    /// A resume replay sent one piece; ask for the next (`.replay`) once the connection's
    /// queue has drained, so a replay never piles up more than a piece in memory.
    case replayContinues(ConnectionID, conversationId: String, afterSeq: Int, generation: Int)
    /// This many of the connection's frames are done; it may send more (flow control).
    case processed(ConnectionID, count: Int)
}
