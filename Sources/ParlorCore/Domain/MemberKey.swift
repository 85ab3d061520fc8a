/// A (conversation, user) pair, the key of the engine's member cache. Ids as Parlor
/// makes them (`Secrets.id`: one ASCII letter and 24 lowercase hex digits) are packed
/// into 26 bytes inline, so a cached membership holds no 51-character string of its
/// own (129 -> 66 bytes a membership in massif, 1,000 of them); any other pair is kept
/// as it is. Packing is one-to-one on such ids (lowercase only), so two keys are equal
/// exactly when both ids are.
enum MemberKey: Hashable {
    case packed(UInt64, UInt64, UInt64, UInt16)
    case text(IdPair)

    init(conversation: String, user: String) {
        if let c = Self.unpack(conversation), let u = Self.unpack(user) {
            self = .packed(c.low, c.high << 32 | u.low >> 32, u.low << 32 | u.high,
                           UInt16(c.prefix) | UInt16(u.prefix) << 8)
        } else {
            self = .text(IdPair(conversation, user))
        }
    }

    /// A letter and 96 bits: `low` the first 16 hex digits, `high` the last 8. Read from
    /// the contiguous UTF-8 (an iterator over `utf8` cost ~1,300 instructions an id).
    private static func unpack(_ id: String) -> (prefix: UInt8, low: UInt64, high: UInt64)? {
        var id = id
        return id.withUTF8 { b -> (prefix: UInt8, low: UInt64, high: UInt64)? in
            guard b.count == 25, (b[0] >= 0x61 && b[0] <= 0x7A) || (b[0] >= 0x41 && b[0] <= 0x5A) else { return nil }
            var low: UInt64 = 0, high: UInt64 = 0
            for i in 1..<25 {
                let c = b[i]
                let v: UInt8
                switch c {
                case 0x30...0x39: v = c - 0x30
                case 0x61...0x66: v = c - 0x61 + 10
                default: return nil
                }
                if i <= 16 { low = low << 4 | UInt64(v) } else { high = high << 4 | UInt64(v) }
            }
            return (b[0], low, high)
        }
    }
}
