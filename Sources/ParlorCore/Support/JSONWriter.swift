/// Writes JSON straight into bytes. Frames are built once per event and shared by
/// every recipient, so this is on the hot path: no intermediate dictionaries.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    public mutating func beginObject() { separator(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separator(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// Writes `"key":` inside an object; the value follows. A literal key is copied as
    /// it is: Parlor's keys are plain ASCII, so scanning each for escapes (on every
    /// field of every message) was wasted.
    public mutating func key(_ k: StaticString) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        k.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A key made at run time (an app's key, a session id): escaped like any string.
    public mutating func key(text k: String) {
        separator()
        Self.appendString(k, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ s: String) { separator(); Self.appendString(s, to: &bytes); needsComma = true }
    public mutating func int(_ v: Int) { separator(); Self.appendInt(v, to: &bytes); needsComma = true }
    public mutating func double(_ v: Double) {
        separator()
        bytes.append(contentsOf: (v.isFinite ? String(v) : "0").utf8)
        needsComma = true
    }
    public mutating func bool(_ v: Bool) { separator(); bytes.append(contentsOf: (v ? "true" : "false").utf8); needsComma = true }
    public mutating func null() { separator(); bytes.append(contentsOf: "null".utf8); needsComma = true }
    /// Splices already-serialized JSON (e.g. a stored message body) as one value.
    public mutating func raw<C: Collection>(_ json: C) where C.Element == UInt8 {
        separator(); bytes.append(contentsOf: json); needsComma = true
    }

    public mutating func value(_ v: JSONValue) {
        switch v {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let d):
            if d == d.rounded(), abs(d) < 9e15 { int(Int(d)) } else { double(d) }
        case .string(let s): string(s)
        case .array(let a):
            beginArray()
            for e in a { value(e) }
            endArray()
        case .object(let o):
            beginObject()
            for (k, e) in zip(o.keys, o.values) { key(text: k); value(e) }
            endObject()
        }
    }

    public mutating func field(_ k: StaticString, _ v: String) { key(k); string(v) }
    public mutating func field(_ k: StaticString, _ v: Int) { key(k); int(v) }
    public mutating func field(_ k: StaticString, _ v: Bool) { key(k); bool(v) }
    public mutating func field(_ k: StaticString, _ v: String?) { if let v { key(k); string(v) } }
    public mutating func field(_ k: StaticString, _ v: Int?) { if let v { key(k); int(v) } }

    private mutating func separator() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// Decimal digits straight into the bytes: `String(v)` built a string per number,
    /// and every message carries several (seq, createdAt, versions).
    static func appendInt(_ v: Int, to out: inout [UInt8]) {
        if v < 0 { out.append(UInt8(ascii: "-")) }
        var m = v.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: Int.min has 19 digits
        withUnsafeMutableBytes(of: &digits) { buf in
            var i = buf.count
            repeat {
                i -= 1
                buf[i] = UInt8(ascii: "0") + UInt8(m % 10)
                m /= 10
            } while m > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buf[i...]))
        }
    }

    static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        // Most strings need no escaping: copy them whole.
        let plain = s.withUTF8 { buf -> Bool in
            for b in buf where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return false }
            out.append(contentsOf: buf)
            return true
        }
        if plain {
            out.append(UInt8(ascii: "\""))
            return
        }
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): out.append(contentsOf: [92, 92])
            case 0x0A: out.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(b >> 4)], hex[Int(b & 15)]])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONWriter {
    /// Builds one JSON object with a closure; the common case for frames.
    public static func object(capacity: Int = 256, _ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var w = JSONWriter(capacity: capacity)
        w.beginObject()
        body(&w)
        w.endObject()
        return w.bytes
    }
}
