/// What an image file says of where, when and with what it was made: EXIF (a phone
/// photo's GPS position, the camera's serial number, the time), XMP, IPTC, comments,
/// PNG text chunks. Every member of a conversation, and whoever has an image's link,
/// gets the file as stored, so these are taken out before it is stored (a privacy
/// review). What the picture needs to be drawn right stays: a JPEG's orientation
/// (rewritten as the only EXIF entry), colour profiles, JFIF and Adobe segments, every
/// PNG chunk but text, time and EXIF, every WebP chunk but EXIF and XMP. GIFs are
/// kept as they are (their comments and application blocks are rarely a camera's).
enum ImageMetadata {
    /// The file without its metadata; nil when its structure is not what its type says
    /// (an image refused as damaged, rather than stored with what could not be found).
    static func stripped(_ b: [UInt8], type: ImageType) -> [UInt8]? {
        switch type {
        case .jpeg: return jpeg(b)
        case .png: return png(b)
        case .webp: return webp(b)
        case .gif: return b
        }
    }

    // MARK: JPEG

    /// Segments up to the first scan, kept or left out; the scan and all after it as is.
    private static func jpeg(_ b: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = [0xFF, 0xD8]
        var orientation: UInt16?
        var i = 2
        var insertAt: Int?
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill bytes before a marker
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {  // standalone: no length
                out.append(contentsOf: b[i..<(i + 2)])
                i += 2
                continue
            }
            if marker == 0xDA {  // start of scan: the picture itself, to the end
                out.insert(contentsOf: orientationSegment(orientation), at: insertAt ?? 2)
                out.append(contentsOf: b[i...])
                return out
            }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            let segment = b[i..<(i + 2 + length)]
            let payload = b[(i + 4)..<(i + 2 + length)]
            switch marker {
            case 0xE1:  // EXIF or XMP: only the orientation is kept, from EXIF
                if payload.starts(with: exifHeader) { orientation = exifOrientation(Array(payload.dropFirst(6))) ?? orientation }
            case 0xE2 where payload.starts(with: Array("ICC_PROFILE\0".utf8)),
                 0xEE where payload.starts(with: Array("Adobe".utf8)):
                out.append(contentsOf: segment)  // colours
            case 0xE0:
                out.append(contentsOf: segment)  // JFIF: density, what a decoder expects first
                insertAt = out.count
            case 0xE2...0xEF, 0xFE:
                break  // other applications' data (IPTC, cameras' own), comments
            default:
                out.append(contentsOf: segment)  // tables, frame header: the picture's own
            }
            i += 2 + length
        }
        return nil
    }

    private static let exifHeader = Array("Exif\0\0".utf8)

    /// A JPEG's EXIF orientation (1-8), from the segments before its first scan; nil
    /// when it has none. 5-8 turn it a quarter: it is drawn with its sides swapped.
    static func jpegOrientation(_ b: [UInt8]) -> UInt16? {
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            if marker == 0xDA { return nil }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            let payload = b[(i + 4)..<(i + 2 + length)]
            if marker == 0xE1, payload.starts(with: exifHeader), let o = exifOrientation(Array(payload.dropFirst(6))) {
                return o
            }
            i += 2 + length
        }
        return nil
    }

    /// The orientation entry (0x0112) of the first IFD of an EXIF TIFF block.
    private static func exifOrientation(_ t: [UInt8]) -> UInt16? {
        guard t.count >= 8 else { return nil }
        let little = t[0] == 0x49 && t[1] == 0x49
        guard little || (t[0] == 0x4D && t[1] == 0x4D) else { return nil }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for e in 0..<min(count, 512) {
            let entry = ifd + 2 + 12 * e
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112, let value = u16(entry + 8), (1...8).contains(value) { return UInt16(value) }
        }
        return nil
    }

    /// An EXIF segment with the orientation alone (big-endian TIFF, one IFD, one entry);
    /// nothing for the upright one.
    private static func orientationSegment(_ orientation: UInt16?) -> [UInt8] {
        guard let o = orientation, o != 1 else { return [] }
        let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8,  // header, first IFD at 8
                             0, 1,  // one entry
                             0x01, 0x12, 0, 3, 0, 0, 0, 1, UInt8(o >> 8), UInt8(o & 0xFF), 0, 0,  // orientation, SHORT
                             0, 0, 0, 0]  // no next IFD
        let length = 2 + exifHeader.count + tiff.count
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + exifHeader + tiff
    }

    // MARK: PNG

    private static let pngDropped: Set<String> = ["tEXt", "zTXt", "iTXt", "eXIf", "tIME"]

    private static func png(_ b: [UInt8]) -> [UInt8]? {
        var out = Array(b.prefix(8))
        var i = 8
        while i + 12 <= b.count {
            let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length <= b.count - i - 12 else { return nil }
            let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            let end = i + 12 + length
            if !pngDropped.contains(type) { out.append(contentsOf: b[i..<end]) }
            i = end
            if type == "IEND" { return out }
        }
        return nil
    }

    // MARK: WebP

    private static func webp(_ b: [UInt8]) -> [UInt8]? {
        guard b.count >= 12 else { return nil }
        var out = Array(b.prefix(12))
        var i = 12
        while i + 8 <= b.count {
            let fourcc = String(decoding: b[i..<(i + 4)], as: UTF8.self)
            let size = Int(b[i + 4]) | Int(b[i + 5]) << 8 | Int(b[i + 6]) << 16 | Int(b[i + 7]) << 24
            let end = i + 8 + size + (size & 1)
            guard size <= b.count - i - 8 else { return nil }
            switch fourcc {
            case "EXIF", "XMP ":
                break
            case "VP8X" where size >= 1:
                var chunk = Array(b[i..<min(end, b.count)])
                chunk[8] &= ~0x0C  // the flags say there is no EXIF (0x08) nor XMP (0x04) any more
                out.append(contentsOf: chunk)
            default:
                out.append(contentsOf: b[i..<min(end, b.count)])
            }
            i = end
        }
        let riff = out.count - 8
        out.replaceSubrange(4..<8, with: [UInt8(riff & 0xFF), UInt8(riff >> 8 & 0xFF), UInt8(riff >> 16 & 0xFF), UInt8(riff >> 24 & 0xFF)])
        return out
    }
}
