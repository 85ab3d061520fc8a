import ParlorCore

/// A WebSocket text frame around one payload, framed once and shared by every
/// recipient. Server frames are unmasked, so the bytes are the same for everyone: the
/// header is worked out here once, and a connection's writes copy header and payload
/// of several queued frames into one buffer for a single raw write.
struct OutboundFrame {
    let payload: [UInt8]
    private let header: InlineArray<10, UInt8>
    private let headerCount: Int

    init(_ payload: Payload) { self.init(text: payload.json) }

    /// The keepalive's ping: the browser answers it with a pong by itself. Not empty:
    /// lws 4.1 reports only a pong that carries a payload (an empty one it drops).
    static let ping = OutboundFrame(opcode: 0x89, payload: Array("ka".utf8))

    private init(opcode: UInt8, payload: [UInt8]) {
        var h = InlineArray<10, UInt8>(repeating: 0)
        h[0] = opcode
        h[1] = UInt8(payload.count)
        self.payload = payload
        header = h
        headerCount = 2
    }

    init(text payload: [UInt8]) {
        self.payload = payload
        var h = InlineArray<10, UInt8>(repeating: 0)
        h[0] = 0x81  // FIN + text
        let n = payload.count
        if n < 126 {
            h[1] = UInt8(n)
            headerCount = 2
        } else if n <= 0xFFFF {
            h[1] = 126
            h[2] = UInt8(n >> 8)
            h[3] = UInt8(n & 0xFF)
            headerCount = 4
        } else {
            h[1] = 127
            for i in 0..<8 { h[2 + i] = UInt8((n >> (56 - 8 * i)) & 0xFF) }
            headerCount = 10
        }
        header = h
    }

    /// Bytes on the wire: header and payload.
    var wireCount: Int { headerCount + payload.count }

    func append(to buffer: inout [UInt8]) {
        for i in 0..<headerCount { buffer.append(header[i]) }
        // Through a pointer: `append(contentsOf:)` takes an array as its own, a retain
        // and a release of the shared payload per recipient.
        payload.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
    }
}
