import Foundation
import Testing
@testable import ParlorCore

/// A voice recording must be sound only: its container's track list is read (WebM's
/// Tracks, MP4's trak → mdia → hdlr) and any other track refuses it. The fixtures are
/// real files (Tests/integration/fixtures/README.md).
@Suite struct AudioTracksTests {
    static func fixture(_ name: String) -> [UInt8] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return [UInt8](FileManager.default.contents(atPath: dir.path + "/integration/fixtures/" + name)!)
    }

    static let voiceWebm = fixture("voice.webm")
    static let voiceM4a = fixture("voice.m4a")

    // MARK: building WebM

    /// An EBML element with a 1-byte id or a longer one, and an 8-byte size (nil: unknown).
    static func ebml(_ id: [UInt8], _ data: [UInt8], size: UInt64? = nil, unknown: Bool = false) -> [UInt8] {
        let s = unknown ? UInt64(0x00FF_FFFF_FFFF_FFFF) : size ?? UInt64(data.count)
        return id + [0x01] + (0..<7).map { UInt8(truncatingIfNeeded: s >> (8 * (6 - $0))) } + data
    }
    static let header: [UInt8] = Array(voiceWebm.prefix(36))  // the EBML header, DocType "webm"
    static func entry(_ type: UInt8?) -> [UInt8] {
        ebml([0xAE], [0xD7, 0x81, 0x01] + (type.map { [0x83, 0x81, $0] } ?? []))
    }
    static func webm(_ segment: [UInt8], unknown: Bool = true) -> [UInt8] {
        header + ebml([0x18, 0x53, 0x80, 0x67], segment, unknown: unknown)
    }
    static func tracks(_ entries: [UInt8]) -> [UInt8] { ebml([0x16, 0x54, 0xAE, 0x6B], entries) }
    static let void = ebml([0xEC], [0, 0, 0])
    static let cluster = ebml([0x1F, 0x43, 0xB6, 0x75], [0xE7, 0x81, 0x00], unknown: true)

    // MARK: building MP4

    static func box(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let n = data.count + 8
        return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + Array(type.utf8) + data
    }
    static func trak(_ handler: String) -> [UInt8] {
        box("trak", box("tkhd", [UInt8](repeating: 0, count: 84))
            + box("mdia", box("mdhd", [UInt8](repeating: 0, count: 24))
                + box("hdlr", [0, 0, 0, 0, 0, 0, 0, 0] + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))))
    }
    static let ftyp = box("ftyp", Array("isom".utf8) + [0, 0, 2, 0] + Array("isomiso2mp41".utf8))

    static func read(_ b: [UInt8], _ t: AudioType) -> AudioTracks { AudioTracks.read(b, type: t) }

    @Test func browserRecordingsAreSoundOnly() {
        #expect(Self.read(Self.voiceWebm, .webm) == .audioOnly)
        #expect(Self.read(Self.voiceM4a, .m4a) == .audioOnly)
        #expect(Self.read(Self.voiceWebm + [UInt8](repeating: 0, count: 5000), .webm) == .audioOnly)
    }

    @Test func filesWithVideoAreNot() {
        // picture and sound; picture alone (the MP4s have their moov after the mdat)
        for name in ["video.webm", "video-only.webm"] {
            #expect(AudioType.detect(Self.fixture(name)) == .webm, "\(name)")
            #expect(Self.read(Self.fixture(name), .webm) == .other, "\(name)")
        }
        for name in ["video.mp4", "video-only.mp4"] {
            #expect(AudioType.detect(Self.fixture(name)) == .m4a, "\(name)")
            #expect(Self.read(Self.fixture(name), .m4a) == .other, "\(name)")
        }
    }

    @Test func webmTracksAreFoundPastUnknownSizesAndSkippedElements() {
        let sound = Self.tracks(Self.entry(2))
        #expect(Self.read(Self.webm(sound), .webm) == .audioOnly)
        #expect(Self.read(Self.webm(sound, unknown: false), .webm) == .audioOnly)
        #expect(Self.read(Self.webm(Self.void + Self.void + Self.tracks(Self.void + Self.entry(2) + Self.entry(2))), .webm) == .audioOnly)
        // a video track beside the sound, or alone; a subtitle track; a track with no type
        #expect(Self.read(Self.webm(Self.tracks(Self.entry(2) + Self.entry(1))), .webm) == .other)
        #expect(Self.read(Self.webm(Self.tracks(Self.entry(1))), .webm) == .other)
        #expect(Self.read(Self.webm(Self.tracks(Self.entry(0x11) + Self.entry(2))), .webm) == .other)
        #expect(Self.read(Self.webm(Self.tracks(Self.entry(nil))), .webm) == .other)
        #expect(Self.read(Self.webm(Self.tracks([])), .webm) == .noAudio)
        // "unknown" is all ones at any length: a 1-byte one (0xFF) is not 127 bytes
        let padding = Self.ebml([0xEC], [UInt8](repeating: 0, count: 150))
        #expect(Self.read(Self.header + [0x18, 0x53, 0x80, 0x67, 0xFF] + padding + sound, .webm) == .audioOnly)
        #expect(Self.read(Self.webm([0xEC, 0xFF] + padding + sound), .webm) == .unreadable)
        // the frames before any track list, or no track list at all
        #expect(Self.read(Self.webm(Self.cluster + sound), .webm) == .unreadable)
        #expect(Self.read(Self.webm(Self.void), .webm) == .unreadable)
        #expect(Self.read(Self.header, .webm) == .unreadable)
        // an element of unknown size other than the Segment cannot be skipped
        #expect(Self.read(Self.webm(Self.ebml([0xEC], [], unknown: true) + sound), .webm) == .unreadable)
    }

    @Test func hugeOrTruncatedSizesStayInsideTheBytes() {
        let sound = Self.tracks(Self.entry(2))
        // sizes far past the end: 2^56 - 2, the largest an EBML size can say
        let huge = UInt64(0x00FF_FFFF_FFFF_FFFE)
        #expect(Self.read(Self.webm(Self.ebml([0xEC], [], size: huge) + sound), .webm) == .unreadable)
        #expect(Self.read(Self.webm(Self.ebml([0x16, 0x54, 0xAE, 0x6B], Self.entry(2), size: huge)), .webm) == .unreadable)
        #expect(Self.read(Self.webm(Self.tracks(Self.ebml([0xAE], [0x83, 0x81, 2], size: huge))), .webm) == .unreadable)
        // a Segment whose known size runs past the bytes (cut short) is read as far as they go
        #expect(Self.read(Self.header + Self.ebml([0x18, 0x53, 0x80, 0x67], sound, size: huge), .webm) == .audioOnly)
        #expect(Self.read(Self.ftyp + [0xFF, 0xFF, 0xFF, 0xFF] + Array("moov".utf8), .m4a) == .unreadable)
        #expect(Self.read(Self.ftyp + [0, 0, 0, 1] + Array("mdat".utf8) + [UInt8](repeating: 0xFF, count: 8) + Self.box("moov", Self.trak("soun")), .m4a) == .unreadable)
        #expect(Self.read(Self.ftyp + [0, 0, 0, 4] + Array("free".utf8) + Self.box("moov", Self.trak("soun")), .m4a) == .unreadable)
        // every prefix of a recording: read up to its track list, or not at all
        for (file, type) in [(Self.voiceWebm, AudioType.webm), (Self.voiceM4a, .m4a)] {
            var first: Int?
            for n in 0...file.count {
                let verdict = Self.read(Array(file.prefix(n)), type)
                #expect(verdict == (first == nil ? verdict : .audioOnly), "\(type) \(n)")
                #expect(verdict == .audioOnly || verdict == .unreadable, "\(type) \(n)")
                if verdict == .audioOnly, first == nil { first = n }
            }
            #expect(first != nil)
        }
        for name in ["video.webm", "video.mp4"] {
            let file = Self.fixture(name)
            let type: AudioType = name.hasSuffix("webm") ? .webm : .m4a
            #expect((0...file.count).allSatisfy { Self.read(Array(file.prefix($0)), type) != .audioOnly }, "\(name)")
        }
        // damaged anywhere: an answer, never a crash or a read past the end
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var (b, type) = Bool.random(using: &random) ? (Self.voiceWebm, AudioType.webm) : (Self.voiceM4a, .m4a)
            for _ in 0..<3 { b[Int.random(in: 0..<min(b.count, 700), using: &random)] = UInt8.random(in: 0...255, using: &random) }
            _ = Self.read(b, type)
        }
    }

    @Test func theWalkIsBounded() {
        // a recorder writes a handful of elements before its track list, not hundreds
        let voids = (0..<AudioTracks.elementBudget).flatMap { _ in Self.void }
        #expect(Self.read(Self.webm(voids + Self.tracks(Self.entry(2))), .webm) == .unreadable)
        #expect(Self.read(Self.webm(Array(voids.prefix(Self.void.count * 20)) + Self.tracks(Self.entry(2))), .webm) == .audioOnly)
        let frees = (0..<AudioTracks.elementBudget).flatMap { _ in Self.box("free", []) }
        #expect(Self.read(Self.ftyp + frees + Self.box("moov", Self.trak("soun")), .m4a) == .unreadable)
        // more tracks than a recording has
        let many = (0...AudioTracks.trackLimit).flatMap { _ in Self.entry(2) }
        #expect(Self.read(Self.webm(Self.tracks(many)), .webm) == .unreadable)
        let traks = (0...AudioTracks.trackLimit).flatMap { _ in Self.trak("soun") }
        #expect(Self.read(Self.ftyp + Self.box("moov", traks), .m4a) == .unreadable)
    }

    @Test func mp4TracksAreFoundAfterTheMediaDataAndInEveryBoxSize() {
        let soun = Self.box("moov", Self.box("mvhd", [UInt8](repeating: 0, count: 100)) + Self.trak("soun"))
        let data = Self.box("mdat", [UInt8](repeating: 9, count: 300))
        #expect(Self.read(Self.ftyp + soun + data, .m4a) == .audioOnly)
        // not written for fast start: the movie box after the data
        #expect(Self.read(Self.ftyp + Self.box("free", []) + data + soun, .m4a) == .audioOnly)
        // the data's size in 64 bits (size 1), and a movie box running to the end (size 0)
        let large = [0, 0, 0, 1] + Array("mdat".utf8) + [0, 0, 0, 0, 0, 0, 0x01, 0x10] + [UInt8](repeating: 9, count: 256)
        #expect(Self.read(Self.ftyp + large + soun, .m4a) == .audioOnly)
        #expect(Self.read(Self.ftyp + data + [0, 0, 0, 0] + soun.dropFirst(4), .m4a) == .audioOnly)
        // a video, a text or an unlabelled track; no track; no movie box
        #expect(Self.read(Self.ftyp + Self.box("moov", Self.trak("soun") + Self.trak("vide")), .m4a) == .other)
        #expect(Self.read(Self.ftyp + Self.box("moov", Self.trak("text") + Self.trak("soun")), .m4a) == .other)
        #expect(Self.read(Self.ftyp + Self.box("moov", Self.box("trak", Self.box("mdia", []))), .m4a) == .unreadable)
        #expect(Self.read(Self.ftyp + Self.box("moov", Self.box("mvhd", [])), .m4a) == .noAudio)
        #expect(Self.read(Self.ftyp + data, .m4a) == .unreadable)
    }
}
