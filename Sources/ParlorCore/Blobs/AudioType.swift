/// The voice recordings Parlor accepts, recognized by their first bytes, never by a
/// client-supplied type: what browsers' MediaRecorder writes (Chromium and Firefox
/// WebM with Opus, Safari MP4 with AAC).
public enum AudioType: String, CaseIterable, Sendable {
    case webm, m4a

    public var mime: String {
        switch self {
        case .webm: "audio/webm"
        case .m4a: "audio/mp4"
        }
    }

    /// The ISO base media brands taken as audio: iTunes audio (`M4A `) and the generic
    /// ISO/MP4 brands a recorder writes for an audio-only file (Safari: `mp42`/`isom`;
    /// fragmented recorders: `iso5`, `iso6`, `dash`). Brands that say video or another
    /// container (`M4V `, `qt  `, `3gp*`, `avc1`, HEIF's `heic`/`mif1`, AVIF) are refused.
    static let mp4Brands: Set<String> = ["M4A ", "isom", "iso2", "iso5", "iso6", "mp41", "mp42", "dash"]

    public static func detect<C: Collection>(_ bytes: C) -> AudioType? where C.Element == UInt8 {
        let b = Array(bytes.prefix(64))
        if b.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return ebmlDocType(b) == "webm" ? .webm : nil }
        // A file-type box first: its size, "ftyp", the major brand.
        guard b.count >= 16, Array(b[4..<8]) == Array("ftyp".utf8) else { return nil }
        let size = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
        guard size >= 16 else { return nil }
        return mp4Brands.contains(String(decoding: b[8..<12], as: UTF8.self)) ? .m4a : nil
    }

    /// The DocType (element 0x4282) of the EBML header at the start of `b`, if it is
    /// within the bytes given (MediaRecorder writes it in the first 40).
    private static func ebmlDocType(_ b: [UInt8]) -> String? {
        var i = 4
        guard let (headerSize, n) = vint(b, i) else { return nil }
        i += n
        let end = min(b.count, i + headerSize)
        while i < end {
            // element ids keep their length marker; DocType is the two bytes 0x42 0x82
            guard let idLength = vintLength(b[i]), i + idLength <= end else { return nil }
            let id = b[i..<(i + idLength)]
            i += idLength
            guard let (size, n) = vint(b, i), i + n + size <= end else { return nil }
            i += n
            if Array(id) == [0x42, 0x82] { return String(decoding: b[i..<(i + size)], as: UTF8.self) }
            i += size
        }
        return nil
    }

    /// The length in bytes of a variable-size integer from its first byte (1–8).
    private static func vintLength(_ first: UInt8) -> Int? {
        first == 0 ? nil : first.leadingZeroBitCount + 1
    }

    /// A variable-size integer's value (its length marker taken off) and its length.
    private static func vint(_ b: [UInt8], _ at: Int) -> (Int, Int)? {
        guard at < b.count, let length = vintLength(b[at]), at + length <= b.count else { return nil }
        var value = Int(b[at]) & (0xFF >> length)
        for k in 1..<length { value = value << 8 | Int(b[at + k]) }
        return (value, length)
    }
}
