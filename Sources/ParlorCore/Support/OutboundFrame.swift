import CLibWebSockets

/// A WebSocket text frame, framed once and shared by every recipient.
///
/// Server frames are unmasked, so the bytes are the same for everyone: the service
/// thread can copy several queued frames into one buffer and hand them to lws in one
/// raw write. `storage` keeps `LWS_PRE` bytes of headroom in front so a frame can also
/// be written on its own without a copy.
public final class OutboundFrame: Sendable {
    public let storage: [UInt8]
    public static let headroom = Int(parlor_lws_pre())

    public var wireCount: Int { storage.count - Self.headroom }

    public init(text payload: [UInt8]) {
        var s = [UInt8](repeating: 0, count: Self.headroom)
        s.reserveCapacity(Self.headroom + 10 + payload.count)
        s.append(0x81)  // FIN + text
        let n = payload.count
        if n < 126 {
            s.append(UInt8(n))
        } else if n <= 0xFFFF {
            s += [126, UInt8(n >> 8), UInt8(n & 0xFF)]
        } else {
            s.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { s.append(UInt8((n >> shift) & 0xFF)) }
        }
        s += payload
        storage = s
    }

    /// The payload without the WebSocket header (for tests and logs).
    public var payload: ArraySlice<UInt8> {
        let lenByte = storage[Self.headroom + 1]
        let header = lenByte < 126 ? 2 : (lenByte == 126 ? 4 : 10)
        return storage[(Self.headroom + header)...]
    }
}
