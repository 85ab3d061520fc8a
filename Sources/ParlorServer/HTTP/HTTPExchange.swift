/// A response the server writes itself (not a file lws serves): headers first, then the
/// body, on the connection's writeable callbacks. Kept only until it is written.
final class HTTPExchange {
    let id: UInt64
    let wsi: OpaquePointer
    var response: (status: Int, type: String, body: [UInt8], headers: [(String, String)])?
    var headersSent = false
    /// HEAD: the headers say how long the body is, and no body follows.
    var headOnly = false
    var closeAfter = false
    /// A 304's Content-Length: the cached file's length (RFC 9110 §8.6), not its empty
    /// body's; with none at all lws would close the connection after it.
    var notModifiedLength: Int?
    /// A refused POST whose body is still arriving: read and dropped after the answer,
    /// then closed, so a client or proxy still writing it reads the answer instead of
    /// a reset connection (nginx turned Parlor's early 413 into a 502).
    var bodyPending = false
    var discarded = 0
    var discardUntil: ContinuousClock.Instant?

    init(id: UInt64, wsi: OpaquePointer) {
        self.id = id
        self.wsi = wsi
    }
}
