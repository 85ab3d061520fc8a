/// A parsed JSON value. Parlor parses every client frame with `JSONParser`, a small
/// strict parser, so that types are exact (a `true` is never the number 1) and the
/// hot path does not go through Foundation's bridging.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
}

/// A JSON object's members in order. Frames have a handful of keys, so a linear scan
/// beats hashing every key into a dictionary; the last duplicate wins, as in most parsers.
public struct JSONObject: Equatable, Sendable {
    var keys: [String] = []
    var values: [JSONValue] = []

    public subscript(key: String) -> JSONValue? {
        var i = keys.count - 1
        while i >= 0 {
            if keys[i] == key { return values[i] }
            i -= 1
        }
        return nil
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        let ka = Set(a.keys)
        return ka == Set(b.keys) && ka.allSatisfy { a[$0] == b[$0] }
    }
}

public struct JSONParseError: Error, Sendable {}

public struct JSONParser {
    private let b: UnsafeBufferPointer<UInt8>
    private var i = 0
    private var depth = 0
    private var tooDeep = false
    public static let maxDepth = 32

    public static func parse<C: Collection>(_ bytes: C) throws(JSONParseError) -> JSONValue where C.Element == UInt8 {
        let (v, tooDeep) = try parseMarkingDepth(bytes)
        if tooDeep { throw JSONParseError() }
        return v
    }

    /// Parses, replacing each value nested deeper than `maxDepth` by null (skipped
    /// without recursion) and saying so: the caller can still read the frame's id and
    /// answer it, instead of leaving the request unanswered.
    public static func parseMarkingDepth<C: Collection>(_ bytes: C) throws(JSONParseError) -> (JSONValue, tooDeep: Bool)
    where C.Element == UInt8 {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { (buf) throws(JSONParseError) -> (JSONValue, tooDeep: Bool) in
            var p = JSONParser(b: buf)
            p.skipSpace()
            let v = try p.value()
            p.skipSpace()
            guard p.i == buf.count else { throw JSONParseError() }
            return (v, p.tooDeep)
        }
    }

    /// Skips one array or object, strings and all, by counting brackets.
    private mutating func skipNested() throws(JSONParseError) {
        var open = 0
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "\""):
                i += 1
                while i < b.count, b[i] != UInt8(ascii: "\"") { i += b[i] == UInt8(ascii: "\\") ? 2 : 1 }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                open -= 1
                if open == 0 { i += 1; return }
            default:
                break
            }
            i += 1
        }
        throw JSONParseError()
    }

    private init(b: UnsafeBufferPointer<UInt8>) { self.b = b }

    private mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    private mutating func expect(_ literal: StaticString) throws(JSONParseError) {
        let n = literal.utf8CodeUnitCount
        guard i + n <= b.count else { throw JSONParseError() }
        for k in 0..<n where b[i + k] != literal.utf8Start[k] { throw JSONParseError() }
        i += n
    }

    private mutating func value() throws(JSONParseError) -> JSONValue {
        guard i < b.count else { throw JSONParseError() }
        if depth >= Self.maxDepth, b[i] == UInt8(ascii: "{") || b[i] == UInt8(ascii: "[") {
            try skipNested()
            tooDeep = true
            return .null
        }
        switch b[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > Self.maxDepth { throw JSONParseError() }
    }

    private mutating func object() throws(JSONParseError) -> JSONValue {
        try enter(); defer { depth -= 1 }
        i += 1
        var out = JSONObject()
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return .object(out) }
        while true {
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw JSONParseError() }
            let k = try string()
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: ":") else { throw JSONParseError() }
            i += 1
            skipSpace()
            out.keys.append(k)
            out.values.append(try value())
            skipSpace()
            guard i < b.count else { throw JSONParseError() }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "}") { i += 1; return .object(out) }
            throw JSONParseError()
        }
    }

    private mutating func array() throws(JSONParseError) -> JSONValue {
        try enter(); defer { depth -= 1 }
        i += 1
        var out: [JSONValue] = []
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return .array(out) }
        while true {
            skipSpace()
            out.append(try value())
            skipSpace()
            guard i < b.count else { throw JSONParseError() }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "]") { i += 1; return .array(out) }
            throw JSONParseError()
        }
    }

    private mutating func number() throws(JSONParseError) -> Double {
        let start = i
        if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
        var digits = 0
        let first = i
        while i < b.count, (48...57).contains(b[i]) { i += 1; digits += 1 }
        guard digits > 0 else { throw JSONParseError() }
        // RFC 8259: no leading zeros ("01", "-00").
        guard digits == 1 || b[first] != UInt8(ascii: "0") else { throw JSONParseError() }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var frac = 0
            while i < b.count, (48...57).contains(b[i]) { i += 1; frac += 1 }
            guard frac > 0 else { throw JSONParseError() }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            var exp = 0
            while i < b.count, (48...57).contains(b[i]) { i += 1; exp += 1 }
            guard exp > 0 else { throw JSONParseError() }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
        // 1e999 would become infinity, and then 0 or null once written back.
        guard let d = Double(text), d.isFinite else { throw JSONParseError() }
        return d
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= b.count else { throw JSONParseError() }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            let d: UInt32
            switch c {
            case 48...57: d = UInt32(c - 48)
            case 65...70: d = UInt32(c - 55)
            case 97...102: d = UInt32(c - 87)
            default: throw JSONParseError()
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private mutating func string() throws(JSONParseError) -> String {
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < b.count, b[i] != UInt8(ascii: "\""), b[i] != UInt8(ascii: "\\"), b[i] >= 0x20 { i += 1 }
        guard i < b.count else { throw JSONParseError() }
        if b[i] == UInt8(ascii: "\"") {
            let s = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
            i += 1
            return s
        }
        var out = Array(b[start..<i])
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            guard c >= 0x20 else { throw JSONParseError() }
            if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
            i += 1
            guard i < b.count else { throw JSONParseError() }
            let e = b[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(34)
            case UInt8(ascii: "\\"): out.append(92)
            case UInt8(ascii: "/"): out.append(47)
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 2 <= b.count, b[i] == 92, b[i + 1] == UInt8(ascii: "u") else { throw JSONParseError() }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw JSONParseError() }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw JSONParseError()
                }
                guard let u = Unicode.Scalar(scalar) else { throw JSONParseError() }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw JSONParseError()
            }
        }
        throw JSONParseError()
    }
}
