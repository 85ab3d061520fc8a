/// One event or reply as JSON text, built once by the engine and shared by every
/// recipient: the server frames it once (see ParlorServer's `OutboundFrame`), so a
/// broadcast to a thousand members costs one serialization and one framing.
public struct Payload: Sendable {
    public let json: [UInt8]

    public init(json: [UInt8]) { self.json = json }

    /// Writes one JSON object (see `JSONWriter.object`).
    public init(capacity: Int = 256, _ body: (inout JSONWriter) -> Void) {
        json = JSONWriter.object(capacity: capacity, body)
    }
}
