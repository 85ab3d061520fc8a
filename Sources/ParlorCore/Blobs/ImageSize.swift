/// An image's width and height, read from its header without decoding it, so that a
/// small file announcing 20,000 × 20,000 pixels is refused before anyone renders it.
public struct ImageSize: Equatable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// nil when the header is cut short or malformed.
    public static func read(_ b: [UInt8], type: ImageType) -> ImageSize? {
        switch type {
        case .png: return png(b)
        case .gif: return gif(b)
        case .jpeg: return jpeg(b)
        case .webp: return webp(b)
        }
    }

    private static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    private static func le16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func be32(_ b: [UInt8], _ i: Int) -> Int { be16(b, i) << 16 | be16(b, i + 2) }
    private static func le24(_ b: [UInt8], _ i: Int) -> Int { le16(b, i) | Int(b[i + 2]) << 16 }

    /// The IHDR chunk comes first: width and height at bytes 16 and 20.
    private static func png(_ b: [UInt8]) -> ImageSize? {
        guard b.count >= 24, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        return ImageSize(width: be32(b, 16), height: be32(b, 20))
    }

    /// The logical screen: every frame is drawn inside it.
    private static func gif(_ b: [UInt8]) -> ImageSize? {
        guard b.count >= 10 else { return nil }
        return ImageSize(width: le16(b, 6), height: le16(b, 8))
    }

    /// Walks the markers to the first start-of-frame (SOF0–SOF15, but not DHT, JPG, DAC).
    private static func jpeg(_ b: [UInt8]) -> ImageSize? {
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            let length = be16(b, i + 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard i + 9 <= b.count else { return nil }
                return ImageSize(width: be16(b, i + 7), height: be16(b, i + 5))
            }
            i += 2 + length
        }
        return nil
    }

    /// VP8 (lossy), VP8L (lossless) or VP8X (extended, with the canvas size).
    private static func webp(_ b: [UInt8]) -> ImageSize? {
        guard b.count >= 30 else { return nil }
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8 ":
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return ImageSize(width: le16(b, 26) & 0x3FFF, height: le16(b, 28) & 0x3FFF)
        case "VP8L":
            guard b[20] == 0x2F else { return nil }
            let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
            return ImageSize(width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1)
        case "VP8X":
            return ImageSize(width: le24(b, 24) + 1, height: le24(b, 27) + 1)
        default:
            return nil
        }
    }
}
