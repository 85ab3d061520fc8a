/// What tracks a recording holds, read from its container's track list: a voice message
/// must be sound only, not a video that would be stored and served as `audio/…`.
/// Both walks stay inside the bytes given, visit a bounded number of elements and go
/// only as deep as the track list.
public enum AudioTracks: Equatable, Sendable {
    /// one or more tracks, all of them sound
    case audioOnly
    /// a track that is not sound (video, subtitles, …)
    case other
    /// no track at all: nothing to play
    case noAudio
    /// the track list is not within the bytes, or the structure around it is damaged
    case unreadable

    /// Elements or boxes looked at in one file, at most (a recorder writes a dozen
    /// before its track list).
    static let elementBudget = 512
    /// Tracks in one file, at most.
    static let trackLimit = 16

    public static func read(_ bytes: [UInt8], type: AudioType) -> AudioTracks {
        var budget = elementBudget
        switch type {
        case .webm: return webm(bytes, budget: &budget)
        case .m4a: return mp4(bytes, budget: &budget)
        }
    }

    /// From counts of sound and other tracks.
    private static func verdict(audio: Int, other: Int) -> AudioTracks {
        other > 0 ? .other : audio > 0 ? .audioOnly : .noAudio
    }

    // MARK: WebM (Matroska's EBML)

    private static let segment: UInt32 = 0x1853_8067
    private static let tracks: UInt32 = 0x1654_AE6B
    private static let cluster: UInt32 = 0x1F43_B675
    private static let trackEntry: UInt32 = 0xAE
    private static let trackType: UInt32 = 0x83

    /// An element's header: its id (length marker kept, as Matroska writes ids), where
    /// its data starts, and its size (nil: "unknown", all value bits set, as
    /// MediaRecorder writes for the Segment and its Clusters while still recording).
    private struct Element {
        let id: UInt32
        let start: Int
        let size: Int?
    }

    private static func element(_ b: [UInt8], _ at: Int, _ end: Int) -> Element? {
        guard at < end, b[at] >= 0x10 else { return nil }  // ids are 1–4 bytes
        let idLength = b[at].leadingZeroBitCount + 1
        guard idLength <= end - at else { return nil }
        var id: UInt32 = 0
        for k in 0..<idLength { id = id << 8 | UInt32(b[at + k]) }
        let s = at + idLength
        guard s < end, b[s] != 0 else { return nil }  // sizes are 1–8 bytes
        let sizeLength = b[s].leadingZeroBitCount + 1
        guard sizeLength <= end - s else { return nil }
        let mask = UInt8(0xFF >> sizeLength)
        var size = UInt64(b[s] & mask)
        var allOnes = b[s] & mask == mask
        for k in 1..<sizeLength {
            size = size << 8 | UInt64(b[s + k])
            allOnes = allOnes && b[s + k] == 0xFF
        }
        // at most 2^56 - 1: fits an Int
        return Element(id: id, start: s + sizeLength, size: allOnes ? nil : Int(size))
    }

    /// The EBML header is skipped, then the Segment entered; in it, the elements before
    /// the Tracks (SeekHead, Info, Void) are skipped by their sizes.
    private static func webm(_ b: [UInt8], budget: inout Int) -> AudioTracks {
        var i = 0
        var end = b.count
        var inSegment = false
        while budget > 0, let e = element(b, i, end) {
            budget -= 1
            if e.id == segment, !inSegment {
                inSegment = true
                if let size = e.size, size <= end - e.start { end = e.start + size }
                i = e.start
                continue
            }
            // Clusters hold the recorded frames: the Tracks come before them
            guard e.id != cluster, let size = e.size, size <= end - e.start else { return .unreadable }
            if inSegment, e.id == tracks { return webmTracks(b, e.start, e.start + size, budget: &budget) }
            i = e.start + size
        }
        return .unreadable
    }

    /// The TrackType (1 video, 2 audio, …) of each TrackEntry in the Tracks' data.
    private static func webmTracks(_ b: [UInt8], _ from: Int, _ end: Int, budget: inout Int) -> AudioTracks {
        var (audio, other) = (0, 0)
        var i = from
        while i < end {
            guard budget > 0, let e = element(b, i, end), let size = e.size, size <= end - e.start else { return .unreadable }
            budget -= 1
            i = e.start + size
            guard e.id == trackEntry else { continue }  // Void, CRC-32
            guard audio + other < trackLimit else { return .unreadable }
            var kind: Int?
            var j = e.start
            while j < i {
                guard budget > 0, let f = element(b, j, i), let fs = f.size, fs <= i - f.start else { return .unreadable }
                budget -= 1
                if f.id == trackType, (1...8).contains(fs) {
                    kind = b[f.start..<(f.start + fs)].reduce(0) { $0 << 8 | Int($1) }
                }
                j = f.start + fs
            }
            if kind == 2 { audio += 1 } else { other += 1 }  // a track with no type is not sound
        }
        return verdict(audio: audio, other: other)
    }

    // MARK: MP4 (ISO base media boxes)

    /// A box's type, where its data starts, and where it ends: size 1 is a 64-bit
    /// size after the type, size 0 runs to the end of the bytes.
    private static func box(_ b: [UInt8], _ at: Int, _ end: Int) -> (type: String, start: Int, end: Int)? {
        guard end - at >= 8 else { return nil }
        let size32 = b[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
        let type = String(decoding: b[(at + 4)..<(at + 8)], as: UTF8.self)
        switch size32 {
        case 0: return (type, at + 8, end)
        case 1:
            guard end - at >= 16 else { return nil }
            let size64 = b[(at + 8)..<(at + 16)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard size64 >= 16, size64 <= UInt64(end - at) else { return nil }
            return (type, at + 16, at + Int(size64))
        default:
            guard size32 >= 8, size32 <= end - at else { return nil }
            return (type, at + 8, at + size32)
        }
    }

    /// The top-level boxes up to `moov` (after `mdat` too, when the file was not written
    /// for fast start), then each `trak` → `mdia` → `hdlr`'s handler type.
    private static func mp4(_ b: [UInt8], budget: inout Int) -> AudioTracks {
        var i = 0
        while i < b.count {
            guard budget > 0, let top = box(b, i, b.count) else { return .unreadable }
            budget -= 1
            i = top.end
            guard top.type == "moov" else { continue }
            var (audio, other) = (0, 0)
            var t = top.start
            while t < top.end {
                guard budget > 0, let trak = box(b, t, top.end) else { return .unreadable }
                budget -= 1
                t = trak.end
                guard trak.type == "trak" else { continue }
                guard audio + other < trackLimit else { return .unreadable }
                guard let handler = mp4Handler(b, trak.start, trak.end, budget: &budget) else { return .unreadable }
                if handler == "soun" { audio += 1 } else { other += 1 }
            }
            return verdict(audio: audio, other: other)
        }
        return .unreadable
    }

    /// The handler type in a track's `mdia` → `hdlr` (a full box: version and flags,
    /// a predefined zero, then the type).
    private static func mp4Handler(_ b: [UInt8], _ from: Int, _ end: Int, budget: inout Int) -> String? {
        var i = from
        while i < end {
            guard budget > 0, let mdia = box(b, i, end) else { return nil }
            budget -= 1
            i = mdia.end
            guard mdia.type == "mdia" else { continue }
            var j = mdia.start
            while j < mdia.end {
                guard budget > 0, let hdlr = box(b, j, mdia.end) else { return nil }
                budget -= 1
                j = hdlr.end
                guard hdlr.type == "hdlr" else { continue }
                guard hdlr.end - hdlr.start >= 12 else { return nil }
                return String(decoding: b[(hdlr.start + 8)..<(hdlr.start + 12)], as: UTF8.self)
            }
            return nil
        }
        return nil
    }
}
