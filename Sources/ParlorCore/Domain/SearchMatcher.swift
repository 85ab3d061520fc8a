import Foundation

/// Whether a stored message body holds a search's words (`messages.search`): a
/// case- and diacritic-insensitive substring ("cafe" finds "Café", "STRASSE" finds
/// "Straße") of what the message says in words: a text's text, a picture's name, an
/// app message's summary line and its layout's captions and titles. Nothing else
/// (an app's URL, ids, a sticker, a reaction, a deleted message's tombstone).
///
/// Both sides are folded the same way, one scalar at a time: ASCII lowercased in
/// place, the rest through a table made once from Foundation's folding (which costs
/// about 10 µs a text: 20 ms for a scan of 2,000, where the table costs well under 1).
/// The folded text is searched with Knuth-Morris-Pratt: linear in the text's length
/// whatever the query (a naive search of "aaa…ab" in "aaaa…" is quadratic).
struct SearchMatcher {
    /// The folded query's UTF-8; empty matches nothing.
    let needle: [UInt8]
    /// KMP's table: for each prefix of the needle, the length of its longest proper
    /// prefix that is also its suffix.
    private let fallback: [Int]
    /// The folded field being looked at, kept between messages.
    private var scratch: [UInt8] = []

    init(_ query: String) {
        var q = query
        var folded: [UInt8] = []
        q.withUTF8 { Self.fold($0, into: &folded) }
        needle = folded
        var table = [Int](repeating: 0, count: folded.count)
        var k = 0
        for i in folded.indices.dropFirst() {
            while k > 0 && folded[i] != folded[k] { k = table[k - 1] }
            if folded[i] == folded[k] { k += 1 }
            table[i] = k
        }
        fallback = table
        scratch.reserveCapacity(4096)
    }

    private static let textPrefix = Array(#"{"kind":"text","text":""#.utf8)
    private static let appPrefix = Array(#"{"kind":"app","#.utf8)
    private static let attachmentPrefix = Array(#"{"kind":"attachment","#.utf8)

    /// Whether the body (`MessageContent.bodyJSON`, as stored) says the query's words.
    mutating func matches(_ body: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !needle.isEmpty else { return false }
        if Self.starts(body, Self.textPrefix) { return textMatches(body) }
        if Self.starts(body, Self.appPrefix) || Self.starts(body, Self.attachmentPrefix) { return fieldsMatch(body) }
        return false
    }

    /// A text: its string read straight from the bytes when written without escapes
    /// (the common case: `JSONWriter` escapes only quotes, backslashes and controls).
    private mutating func textMatches(_ body: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Self.textPrefix.count
        var i = start
        var plain = true
        while i < body.count {
            let b = body[i]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") { plain = false; break }
            i += 1
        }
        if plain {
            guard i < body.count else { return false }
            let text = UnsafeBufferPointer(rebasing: body[start..<i])
            // ASCII (most texts): lowercased as it is searched, nothing copied
            if let found = asciiContains(text) { return found }
            return foldedContains(text)
        }
        return stringMatches(JSONParser.decodeString(body, at: start - 1))
    }

    /// A picture's name; an app's summary and layout texts.
    private mutating func fieldsMatch(_ body: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let scan = JSONScan(body) else { return false }
        var strings: [String] = []
        scan.withFrame { f in
            func add(_ m: JSONMember?) {
                if let m, m.kind == .string { strings.append(f.string(m)) }
            }
            add(f.member(f.root, "name"))
            add(f.member(f.root, "summaryText"))
            if let layout = f.member(f.root, "layout"), layout.kind == .object, layout.firstChild != JSONScan.unrecorded {
                for key in Self.layoutKeys { add(f.member(layout.firstChild, key)) }
            }
        }
        for s in strings where stringMatches(s) { return true }
        return false
    }

    private static let layoutKeys: [StaticString] = [
        "imageTitle", "imageSubtitle", "caption", "subcaption", "trailingCaption", "trailingSubcaption",
    ]

    private mutating func stringMatches(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { foldedContains($0) }
    }

    /// KMP over ASCII bytes lowercased on the way; nil at the first byte that is not
    /// ASCII (the caller folds the text then).
    private func asciiContains(_ text: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard text.count >= needle.count else {
            for b in text where b >= 0x80 { return nil }
            return false
        }
        return needle.withUnsafeBufferPointer { n in
            fallback.withUnsafeBufferPointer { table -> Bool? in
                var k = 0
                for raw in text {
                    if raw >= 0x80 { return nil }
                    let b = raw &- 65 < 26 ? raw | 0x20 : raw
                    while k > 0 && b != n[k] { k = table[k - 1] }
                    if b == n[k] {
                        k += 1
                        if k == n.count { return true }
                    }
                }
                return false
            }
        }
    }

    private mutating func foldedContains(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        Self.fold(utf8, into: &scratch)
        guard scratch.count >= needle.count else { return false }
        return scratch.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { n in
                fallback.withUnsafeBufferPointer { table in
                    var k = 0
                    for b in hay {
                        while k > 0 && b != n[k] { k = table[k - 1] }
                        if b == n[k] {
                            k += 1
                            if k == n.count { return true }
                        }
                    }
                    return false
                }
            }
        }
    }

    private static func starts(_ body: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool {
        guard body.count >= prefix.count else { return false }
        for i in 0..<prefix.count where body[i] != prefix[i] { return false }
        return true
    }

    // MARK: Folding

    /// `utf8` lowercased and without diacritics, scalar by scalar, into `out`.
    static func fold(_ utf8: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        var i = 0
        let n = utf8.count
        while i < n {
            let b = utf8[i]
            if b < 0x80 {
                out.append(b &- 65 < 26 ? b | 0x20 : b)
                i += 1
                continue
            }
            // One scalar of valid UTF-8 (stored strings are Swift Strings: valid).
            var v = UInt32(0)
            var len = 1
            if b & 0xE0 == 0xC0 { v = UInt32(b & 0x1F); len = 2 }
            else if b & 0xF0 == 0xE0 { v = UInt32(b & 0x0F); len = 3 }
            else if b & 0xF8 == 0xF0 { v = UInt32(b & 0x07); len = 4 }
            else { i += 1; continue }
            guard i + len <= n else { break }
            for k in 1..<len { v = v << 6 | UInt32(utf8[i + k] & 0x3F) }
            appendFolded(v, UnsafeBufferPointer(rebasing: utf8[i..<(i + len)]), to: &out)
            i += len
        }
    }

    /// One non-ASCII scalar folded: from the table for the alphabets with case and
    /// accents (Latin, Greek, Cyrillic and their extensions); as it is where folding
    /// changes nothing (CJK, most symbols and emoji); through Foundation otherwise.
    @inline(__always)
    private static func appendFolded(_ v: UInt32, _ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if v < Table.low { return out.append(contentsOf: Table.shared.low[Int(v)]) }
        if v >= Table.extendedStart && v < Table.extendedEnd {
            return out.append(contentsOf: Table.shared.extended[Int(v - Table.extendedStart)])
        }
        guard let u = Unicode.Scalar(v) else { return out.append(contentsOf: bytes) }
        let p = u.properties
        if !p.changesWhenCaseFolded && p.generalCategory != .nonspacingMark && p.generalCategory != .enclosingMark {
            return out.append(contentsOf: bytes)
        }
        out.append(contentsOf: Table.foundationFold(u))
    }

    /// Folded forms of the scalars most text with case and accents is made of.
    private final class Table: Sendable {
        static let low: UInt32 = 0x0530  // Latin, combining marks, Greek, Cyrillic
        static let extendedStart: UInt32 = 0x1E00  // Latin Extended Additional, Greek Extended
        static let extendedEnd: UInt32 = 0x2000
        static let shared = Table()

        let low: [[UInt8]]
        let extended: [[UInt8]]

        private init() {
            low = (0..<Self.low).map { Self.foundationFold(Unicode.Scalar($0)!) }
            extended = (Self.extendedStart..<Self.extendedEnd).map { Self.foundationFold(Unicode.Scalar($0)!) }
        }

        static func foundationFold(_ u: Unicode.Scalar) -> [UInt8] {
            let s = String(Character(u)).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            // folded case of ASCII letters, as the fast path (Foundation agrees)
            return Array(s.utf8).map { $0 &- 65 < 26 ? $0 | 0x20 : $0 }
        }
    }
}
