/// A parsed JSON value. `JSONParser` is a small strict parser, so that types are exact
/// (a `true` is never the number 1) and the hot path does not go through Foundation's
/// bridging. Client frames are not parsed into values but scanned (`JSONScan`, below),
/// which accepts exactly what `JSONParser` accepts; values are built only for the fields
/// that hold arbitrary JSON.
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
    fileprivate var i = 0
    private var depth = 0
    fileprivate var tooDeep = false
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

    fileprivate mutating func skipSpace() {
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
        _ = try scanNumber()  // the grammar (RFC 8259: no leading zeros), as the scanner reads it
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

    /// The scalar of a `\u` escape (after its `u`), a surrogate pair's two escapes read
    /// as one. Half a pair alone is U+FFFD, as a broken UTF-8 sequence is: JavaScript
    /// strings may hold one (an emoji cut in the middle by `slice`), and refusing the
    /// whole frame left its sender's message "Sending…" for good.
    private mutating func unicodeEscape() throws(JSONParseError) -> UInt32 {
        let scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
            guard i + 6 <= b.count, b[i] == 92, b[i + 1] == UInt8(ascii: "u") else { return 0xFFFD }
            let escape = i
            i += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else {
                i = escape  // the next escape is a character of its own
                return 0xFFFD
            }
            return 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        return (0xDC00..<0xE000).contains(scalar) ? 0xFFFD : scalar
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
                guard let u = Unicode.Scalar(try unicodeEscape()) else { throw JSONParseError() }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw JSONParseError()
            }
        }
        throw JSONParseError()
    }
}

// MARK: - Scanning without building a tree

/// What a scanned value is.
enum JSONKind: UInt8, Sendable {
    case null, `true`, `false`, number, string, array, object
}

/// One member of an object in a scanned frame: where its key and value are in the bytes.
/// The members of one object are chained by `next`, in the order they appear.
struct JSONMember: Sendable {
    /// The key's bytes, between its quotes.
    var keyStart = 0, keyEnd = 0
    /// The value's bytes, quotes and brackets included.
    var valueStart = 0, valueEnd = 0
    /// The next member of the same object, or -1.
    var next = -1
    /// For an object value: its first member, -1 when it has none, `JSONScan.unrecorded`
    /// when it is nested too deep to have been recorded.
    var firstChild = -1
    var kind = JSONKind.null
    /// The key has no escapes and is ASCII: its bytes are its characters.
    var keyPlain = true
    /// A plain key's length, and its first eight bytes (little-endian, zero-padded): most
    /// keys are told apart, or matched, by these alone. -1 for a key that is not plain.
    var keyLength = -1
    var keyWord: UInt64 = 0
    /// A string value without escapes: its bytes are its UTF-8 (repaired as `JSONParser` does).
    var stringPlain = true
    /// A number that is an integer of at most 15 digits, so exactly a Double.
    var shortInteger = false
}

/// A frame's top-level object, validated exactly as `JSONParser` would parse it, with the
/// members of the objects near the top recorded where they are: a request reads the
/// few fields it needs straight from the bytes, without a `JSONValue` tree, a `String`
/// for every key or an array per object.
struct JSONScan {
    static let unrecorded = -2
    /// Objects up to this depth have their members recorded (the frame is depth 1,
    /// `message` 2, its `layout`, `session` and `stuckTo` 3).
    static let recordedDepth = 3

    let bytes: UnsafeBufferPointer<UInt8>
    var members: [JSONMember]
    /// The top-level object's first member, or -1.
    var root = -1
    /// Like `JSONParser.parseMarkingDepth`: something was nested deeper than `maxDepth`.
    var tooDeep = false

    /// Nil when the bytes are not JSON, or not an object.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        members = []
        members.reserveCapacity(24)
        var p = JSONParser(scanning: bytes)
        p.skipSpace()
        guard p.i < bytes.count, bytes[p.i] == UInt8(ascii: "{") else { return nil }
        do {
            root = try p.scanObject(&members)
            p.skipSpace()
            guard p.i == bytes.count else { return nil }
        } catch {
            return nil
        }
        tooDeep = p.tooDeep
    }

    /// Reads the scanned frame through `JSONFrame`, which holds no references: passing
    /// it and the `Fields` built on it around costs no retain or release.
    func withFrame<R>(_ body: (JSONFrame) -> R) -> R {
        members.withUnsafeBufferPointer { body(JSONFrame(bytes: bytes, members: $0, root: root)) }
    }

    /// Up to the first eight bytes at `p`, little-endian, zero-padded.
    @inline(__always)
    static func word(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        var w: UInt64 = 0
        var x = 0
        while x < n, x < 8 {
            w |= UInt64(p[x]) << (8 * x)
            x += 1
        }
        return w
    }

}

/// A scanned frame, read: the bytes and the members recorded in them (see `JSONScan`).
struct JSONFrame {
    let bytes: UnsafeBufferPointer<UInt8>
    let members: UnsafeBufferPointer<JSONMember>
    /// The top-level object's first member, or -1.
    let root: Int

    /// The last member of the object starting at `first` whose key is `key` (the last
    /// duplicate wins, as in `JSONObject`).
    @inline(__always)
    func member(_ first: Int, _ key: StaticString) -> JSONMember? {
        let n = key.utf8CodeUnitCount
        let k = key.utf8Start
        let word = JSONScan.word(k, n)
        let b = bytes
        let ms = members
        var found = -1
        var j = first
        while j >= 0 {
            if ms[j].keyLength == n, ms[j].keyWord == word {
                // The first eight bytes are equal: the rest, if any.
                var x = 8
                let start = ms[j].keyStart
                while x < n, b[start + x] == k[x] { x += 1 }
                if x >= n { found = j }
            } else if ms[j].keyLength < 0, oddKeyEquals(ms[j], key) {
                found = j
            }
            j = ms[j].next
        }
        return found >= 0 ? ms[found] : nil
    }

    /// An escaped or non-ASCII key, compared as Strings are: "\u0074ype" is "type", and
    /// a KELVIN SIGN is a K.
    @inline(never)
    private func oddKeyEquals(_ m: JSONMember, _ key: StaticString) -> Bool {
        keyString(m) == key.description
    }

    func keyString(_ m: JSONMember) -> String {
        JSONParser.decodeString(bytes, at: m.keyStart - 1)
    }

    /// Whether `m` is the string `s`, written without escapes.
    func isPlainString(_ m: JSONMember, _ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard m.kind == .string, m.stringPlain, m.valueEnd - m.valueStart == n + 2 else { return false }
        var x = 0
        while x < n {
            if bytes[m.valueStart + 1 + x] != s.utf8Start[x] { return false }
            x += 1
        }
        return true
    }

    /// A string member's value (check `kind` first).
    func string(_ m: JSONMember) -> String {
        if m.stringPlain {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[m.valueStart + 1 ..< m.valueEnd - 1]), as: UTF8.self)
        }
        return JSONParser.decodeString(bytes, at: m.valueStart)
    }

    /// A number member's value (check `kind` first).
    func number(_ m: JSONMember) -> Double {
        if m.shortInteger {
            var v = 0
            var x = m.valueStart
            let negative = bytes[x] == UInt8(ascii: "-")
            if negative { x += 1 }
            while x < m.valueEnd { v = v &* 10 &+ Int(bytes[x] &- 48); x += 1 }
            let d = Double(v)
            return negative ? -d : d
        }
        return JSONParser.decodeNumber(bytes, at: m.valueStart)
    }

    /// Any member's value as a tree, as `JSONParser` parses it.
    func value(_ m: JSONMember) -> JSONValue {
        // The frame was scanned whole, so its parts parse.
        (try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[m.valueStart ..< m.valueEnd]))) ?? .null
    }
}

extension JSONParser {
    fileprivate init(scanning b: UnsafeBufferPointer<UInt8>) { self.b = b }

    static func decodeString(_ b: UnsafeBufferPointer<UInt8>, at quote: Int) -> String {
        var p = JSONParser(b: b)
        p.i = quote
        return (try? p.string()) ?? ""
    }

    static func decodeNumber(_ b: UnsafeBufferPointer<UInt8>, at start: Int) -> Double {
        var p = JSONParser(b: b)
        p.i = start
        return (try? p.number()) ?? 0
    }

    /// `value()`, recording instead of building. Returns the value's kind and, for a
    /// recorded object, its first member.
    fileprivate mutating func scanValue(_ m: inout [JSONMember], _ shortInteger: inout Bool, _ plain: inout Bool)
        throws(JSONParseError) -> (JSONKind, Int) {
        guard i < b.count else { throw JSONParseError() }
        if depth >= Self.maxDepth, b[i] == UInt8(ascii: "{") || b[i] == UInt8(ascii: "[") {
            try skipNested()
            tooDeep = true
            return (.null, -1)
        }
        switch b[i] {
        case UInt8(ascii: "{"): return (.object, try scanObject(&m))
        case UInt8(ascii: "["): try scanArray(&m); return (.array, -1)
        case UInt8(ascii: "\""): plain = try scanString(); return (.string, -1)
        case UInt8(ascii: "t"): try expect("true"); return (.true, -1)
        case UInt8(ascii: "f"): try expect("false"); return (.false, -1)
        case UInt8(ascii: "n"): try expect("null"); return (.null, -1)
        default: shortInteger = try scanNumber(); return (.number, -1)
        }
    }

    /// `object()`: returns the first member (or -1, or `JSONScan.unrecorded`).
    fileprivate mutating func scanObject(_ m: inout [JSONMember]) throws(JSONParseError) -> Int {
        try enter(); defer { depth -= 1 }
        let record = depth <= JSONScan.recordedDepth
        i += 1
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return record ? -1 : JSONScan.unrecorded }
        var first = record ? -1 : JSONScan.unrecorded
        var last = -1
        while true {
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw JSONParseError() }
            var member = JSONMember()
            member.keyStart = i + 1
            member.keyPlain = try scanKey()
            member.keyEnd = i - 1
            if record, member.keyPlain {
                member.keyLength = member.keyEnd - member.keyStart
                if member.keyStart + 8 <= b.count {
                    // One load instead of a byte loop; the bytes past a short key masked off.
                    let w = UInt64(littleEndian: UnsafeRawPointer(b.baseAddress! + member.keyStart).loadUnaligned(as: UInt64.self))
                    member.keyWord = member.keyLength >= 8 ? w : w & ((1 &<< (8 &* UInt64(member.keyLength))) &- 1)
                } else {
                    member.keyWord = JSONScan.word(b.baseAddress! + member.keyStart, member.keyLength)
                }
            }
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: ":") else { throw JSONParseError() }
            i += 1
            skipSpace()
            member.valueStart = i
            let (kind, child) = try scanValue(&m, &member.shortInteger, &member.stringPlain)
            if record {
                // After the value's own members: the chain, not the position, gives the order.
                member.valueEnd = i
                member.kind = kind
                member.firstChild = child
                let slot = m.count
                m.append(member)
                if last >= 0 { m[last].next = slot } else { first = slot }
                last = slot
            }
            skipSpace()
            guard i < b.count else { throw JSONParseError() }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "}") { i += 1; return first }
            throw JSONParseError()
        }
    }

    fileprivate mutating func scanArray(_ m: inout [JSONMember]) throws(JSONParseError) {
        try enter(); defer { depth -= 1 }
        i += 1
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return }
        var shortInteger = false, plain = false
        while true {
            skipSpace()
            _ = try scanValue(&m, &shortInteger, &plain)
            skipSpace()
            guard i < b.count else { throw JSONParseError() }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "]") { i += 1; return }
            throw JSONParseError()
        }
    }

    /// `number()` without converting: a Double is made only where it could overflow.
    /// Returns whether it is an integer of at most 15 digits.
    fileprivate mutating func scanNumber() throws(JSONParseError) -> Bool {
        let start = i
        if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
        var digits = 0
        let first = i
        while i < b.count, (48...57).contains(b[i]) { i += 1; digits += 1 }
        guard digits > 0 else { throw JSONParseError() }
        guard digits == 1 || b[first] != UInt8(ascii: "0") else { throw JSONParseError() }
        var integer = true
        if i < b.count, b[i] == UInt8(ascii: ".") {
            integer = false
            i += 1
            var frac = 0
            while i < b.count, (48...57).contains(b[i]) { i += 1; frac += 1 }
            guard frac > 0 else { throw JSONParseError() }
        }
        var exponent = false
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            exponent = true
            integer = false
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            var exp = 0
            while i < b.count, (48...57).contains(b[i]) { i += 1; exp += 1 }
            guard exp > 0 else { throw JSONParseError() }
        }
        // Fewer than 300 digits before the point and no exponent: finite.
        if exponent || digits >= 300 {
            let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
            guard let d = Double(text), d.isFinite else { throw JSONParseError() }
        }
        return integer && digits <= 15
    }

    /// `string()` without decoding. Returns whether it has no escapes.
    fileprivate mutating func scanString() throws(JSONParseError) -> Bool {
        let n = b.count
        var j = skipPlainWords(from: i + 1)
        while j < n {
            let c = b[j]
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
            j += 1
        }
        i = j
        guard j < n else { throw JSONParseError() }
        if b[j] == UInt8(ascii: "\"") { i = j + 1; return true }
        try scanEscaped()
        return false
    }

    /// A key: `string()` without decoding. Returns whether it has no escapes and is ASCII.
    fileprivate mutating func scanKey() throws(JSONParseError) -> Bool {
        // Keys are short: byte by byte.
        var j = i + 1
        let n = b.count
        var high: UInt8 = 0
        while j < n {
            let c = b[j]
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
            high |= c
            j += 1
        }
        i = j
        guard j < n else { throw JSONParseError() }
        if b[j] == UInt8(ascii: "\"") { i = j + 1; return high < 0x80 }
        try scanEscaped()
        return false
    }

    /// Skips the bytes of a string, eight at a time, up to the first word that may hold a
    /// quote, a backslash or a control character (the byte loop after it decides).
    @inline(__always)
    private func skipPlainWords(from start: Int) -> Int {
        var j = start
        let n = b.count
        guard let base = b.baseAddress else { return j }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops: UInt64 = 0x8080_8080_8080_8080
        while j + 8 <= n {
            let w = UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)
            let quote = w ^ (ones &* 0x22)
            let backslash = w ^ (ones &* 0x5C)
            // A zero byte in `quote` or `backslash`, or a byte below 0x20 in `w`: exact
            // tests for "any" (no false negatives), so a word passing none has neither.
            let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((w &- ones &* 0x20) & ~w)
            if special & tops != 0 { break }
            j += 8
        }
        return j
    }

    /// The rest of a string from its first escape or control character, checked as
    /// `string()` decodes it.
    private mutating func scanEscaped() throws(JSONParseError) {
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") { i += 1; return }
            guard c >= 0x20 else { throw JSONParseError() }
            i += 1
            if c != UInt8(ascii: "\\") { continue }
            guard i < b.count else { throw JSONParseError() }
            let e = b[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                break
            case UInt8(ascii: "u"):
                _ = try unicodeEscape()
            default: throw JSONParseError()
            }
        }
        throw JSONParseError()
    }
}
