/// A send turned away before the engine sees it, while the engine is so far behind that
/// queuing more would only make every answer later (LiveState): `server_busy`, with when
/// to try again. Only sends: they are most of a busy server's work, and a client retries
/// them by itself (the outbox); anything else is queued as usual.
public enum BusyRefusal {
    /// The answer to `frame`, or nil if it is not a send.
    public static func answer(to frame: [UInt8], retryAfterMs: Int) -> Payload? {
        let (isSend, id) = RequestParser.peekSend(frame)
        guard isSend else { return nil }
        return Replies.error(id, .serverBusy(retryAfterMs: retryAfterMs))
    }
}
