import ParlorCore

/// What the live state asks of the transport after an input: the only ways it reaches
/// sockets or the engine, so it can be tested without either.
enum LiveEffect: Equatable {
    /// Call back when this connection's socket can take a write.
    case requestWrite(ConnectionID)
    /// A close was decided: the socket is dropped if its close frame has not gone out
    /// within `Limits.closeGraceSeconds`.
    case closeWithin(ConnectionID)
    /// Stop (false) or resume (true) reading the connection: flow control.
    case setReading(ConnectionID, Bool)
    /// Hand this to the engine.
    case submit(EngineInput)
    /// Cluster mode: tell the other nodes this node's presence in a conversation.
    case publishPresence(NodePresence)
}

/// What to do on a connection's writeable callback.
enum WriteStep: Equatable {
    case nothing
    /// Write this many bytes from the buffer (after its headroom).
    case write(Int)
    /// Send a close frame with this code and reason.
    case close(UInt16, String)
}
