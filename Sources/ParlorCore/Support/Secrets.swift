import CCrypto

/// Random identifiers and hashes: the system's CSPRNG (getrandom(2) on Linux, through
/// `SystemRandomNumberGenerator`) and libcrypto's SHA-256.
public enum Secrets {
    public static func randomBytes(_ n: Int) -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        var out = [UInt8]()
        out.reserveCapacity(n + 7)
        while out.count < n { withUnsafeBytes(of: g.next()) { out += $0 } }
        out.removeLast(out.count - n)
        return out
    }

    public static func sha256<C: Collection>(_ data: C) -> [UInt8] where C.Element == UInt8 {
        var out = [UInt8](repeating: 0, count: 32)
        let input = Array(data)
        input.withUnsafeBytes { inp in
            out.withUnsafeMutableBufferPointer { o in
                _ = parlor_sha256(inp.baseAddress, inp.count, o.baseAddress)
            }
        }
        return out
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// URL-safe base64 without padding: tokens and invite codes travel in URLs.
    public static func base64url(_ bytes: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out = [UInt8]()
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [table[Int(n >> 18 & 63)], table[Int(n >> 12 & 63)], table[Int(n >> 6 & 63)], table[Int(n & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            out += [table[Int(n >> 18 & 63)], table[Int(n >> 12 & 63)]]
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [table[Int(n >> 18 & 63)], table[Int(n >> 12 & 63)], table[Int(n >> 6 & 63)]]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A random (version 4) UUID string, for participant identifiers.
    public static func uuid() -> String {
        var b = randomBytes(16)
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        let h = hex(b)
        let c = Array(h)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-"
            + String(c[16..<20]) + "-" + String(c[20..<32])
    }

    /// Letters and digits a person reads and types without confusion: no 0/O, 1/I/L, U.
    static let typeable = Array("23456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// `n` characters of `typeable`, uniformly (bytes that would bias the draw are skipped).
    public static func typeableCode(_ n: Int) -> String {
        let limit = 256 - 256 % typeable.count
        var out: [Character] = []
        while out.count < n {
            for b in randomBytes(n) where Int(b) < limit && out.count < n { out.append(typeable[Int(b) % typeable.count]) }
        }
        return String(out)
    }

    /// What a person typed, as it was issued: case, spaces and dashes do not matter.
    public static func normalizedCode(_ s: String) -> String {
        String(s.uppercased().filter { $0 != "-" && $0 != " " })
    }

    public static func token() -> String { base64url(randomBytes(32)) }
    public static func tokenHash(_ token: String) -> [UInt8] { sha256(Array(token.utf8)) }
    public static func id(prefix: String) -> String { prefix + hex(randomBytes(12)) }
}
