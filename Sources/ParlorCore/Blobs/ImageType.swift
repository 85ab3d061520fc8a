/// The image formats Parlor accepts, recognized by their first bytes, never by a
/// client-supplied type.
public enum ImageType: String, CaseIterable, Sendable {
    case png, jpeg, gif, webp

    public var mime: String { "image/\(rawValue)" }

    public static func detect<C: Collection>(_ bytes: C) -> ImageType? where C.Element == UInt8 {
        let b = Array(bytes.prefix(12))
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) { return .gif }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }
}
