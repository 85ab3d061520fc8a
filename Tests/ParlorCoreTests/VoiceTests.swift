import Foundation
import Testing
@testable import ParlorCore

/// Voice messages: a recording is a blob told by its first bytes (WebM with Opus,
/// MP4 audio), at most `Limits.audioBytes`, sent as `kind:"audio"` with its length
/// (docs/PROTOCOL.md, "Voice messages").
@Suite struct VoiceTests {
    static let hash = String(repeating: "cd", count: 32)
    /// The first bytes of a Chromium recording: the EBML header, DocType "webm".
    static let webm: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0xF7, 0x81, 0x01,
                                0x42, 0xF2, 0x81, 0x04, 0x42, 0xF3, 0x81, 0x08, 0x42, 0x82, 0x84]
        + Array("webm".utf8) + [0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02, 0x18, 0x53, 0x80, 0x67]

    /// A file-type box with this major brand, then a movie box's header.
    static func mp4(_ brand: String) -> [UInt8] {
        [0, 0, 0, 0x18] + Array("ftyp".utf8) + Array(brand.utf8) + [0, 0, 2, 0] + Array("isommp42".utf8)
            + [0, 0, 0, 8] + Array("moov".utf8)
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        + [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1F, 0x15, 0xC4, 0x89, 0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]

    @Test func recordingsAreToldByTheirFirstBytes() {
        #expect(AudioType.detect(Self.webm) == .webm)
        #expect(BlobType.detect(Self.webm) == .audio(.webm))
        #expect(BlobType.detect(Self.webm)?.mime == "audio/webm")
        for brand in ["M4A ", "isom", "mp42", "iso5"] {
            #expect(AudioType.detect(Self.mp4(brand)) == .m4a, "\(brand)")
        }
        #expect(BlobType.detect(Self.mp4("M4A "))?.mime == "audio/mp4")
    }

    @Test func otherFilesAreNotRecordings() {
        // a picture, whatever it is called, stays a picture
        #expect(AudioType.detect(Self.png) == nil)
        #expect(BlobType.detect(Self.png) == .image(.png))
        // Matroska that is not WebM, a video's MP4, a QuickTime movie, HEIF
        var mkv = Self.webm
        mkv.replaceSubrange(24..<28, with: Array("matr".utf8))
        #expect(AudioType.detect(mkv) == nil)
        for brand in ["M4V ", "qt  ", "avc1", "3gp4", "heic", "mif1"] {
            #expect(AudioType.detect(Self.mp4(brand)) == nil, "\(brand)")
        }
        // cut short, or a box too small to hold its brand
        #expect(AudioType.detect(Self.webm.prefix(8)) == nil)
        var tiny = Self.mp4("M4A ")
        tiny[3] = 8
        #expect(AudioType.detect(tiny) == nil)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<64).map { _ in UInt8.random(in: 0...255, using: &random) }
            if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) || Array(bytes[4..<8]) == Array("ftyp".utf8) { continue }
            #expect(AudioType.detect(bytes) == nil)
        }
    }

    @Test func theStoreKeepsARecordingAsIsUpToItsLimit() throws {
        let dir = NSTemporaryDirectory() + "parlor-voice-" + Secrets.hex(Secrets.randomBytes(6))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try BlobStore(directory: dir)
        func commit(_ bytes: [UInt8]) throws(BlobStore.Refusal) -> (hash: String, type: BlobType, size: Int) {
            let t = store.makeTemporary()!
            _ = bytes.withUnsafeBytes { write(t.fd, $0.baseAddress, $0.count) }
            close(t.fd)
            return try store.commit(temporary: t.path)
        }
        let body = AudioTracksTests.voiceWebm + [UInt8](repeating: 7, count: 1000)
        let stored = try commit(body)
        #expect(stored.type == .audio(.webm))
        #expect(stored.size == body.count)
        #expect(store.find(stored.hash)?.type == .audio(.webm))
        #expect(store.find(stored.hash)?.path.hasSuffix(".webm") == true)
        #expect(store.files(changedBefore: .distantFuture).map(\.hash) == [stored.hash])
        store.remove(stored.hash)
        #expect(store.find(stored.hash) == nil)

        let big = Self.mp4("M4A ") + [UInt8](repeating: 0, count: Limits.audioBytes)
        #expect(throws: BlobStore.Refusal.self) { try commit(big) }
        do { _ = try commit(big) } catch { #expect(error.code == "too_large") }
        do { _ = try commit(Array("not a file".utf8)) } catch { #expect(error.code == "not_an_image") }
    }

    @Test func aRecordingWithVideoIsRefusedAndNothingKept() throws {
        let dir = NSTemporaryDirectory() + "parlor-voice-" + Secrets.hex(Secrets.randomBytes(6))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try BlobStore(directory: dir)
        for name in ["video.webm", "video-only.webm", "video.mp4", "video-only.mp4"] {
            let t = store.makeTemporary()!
            let bytes = AudioTracksTests.fixture(name)
            _ = bytes.withUnsafeBytes { write(t.fd, $0.baseAddress, $0.count) }
            close(t.fd)
            do {
                _ = try store.commit(temporary: t.path)
                Issue.record("\(name) was stored")
            } catch {
                #expect(error.status == 415 && error.code == "not_an_image", "\(name)")
            }
        }
        // not stored, and no temporary file left behind
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func aVoiceMessageCarriesItsRecordingAndLength() {
        #expect(SentMessage.content(#"{"kind":"audio","audio":"\#(Self.hash)","durationMs":7000}"#)
            == .audio(audio: Self.hash, durationMs: 7000))
        #expect(SentMessage.content(#"{"kind":"audio","audio":"\#(Self.hash)","durationMs":120000,"replyTo":3}"#)
            == .audio(audio: Self.hash, durationMs: 120_000, replyTo: 3))
        #expect(SentMessage.content(#"{"kind":"audio","audio":"\#(Self.hash)","durationMs":1}"#) != nil)
        for bad in ["0", "120001", "-5", "1.5", #""7000""#, "null", "true"] {
            let e = SentMessage.error(#"{"kind":"audio","audio":"\#(Self.hash)","durationMs":\#(bad)}"#)
            #expect(e?.code == .invalidField, "\(bad)")
            #expect(e?.field == "message.durationMs", "\(bad)")
        }
        #expect(SentMessage.error(#"{"kind":"audio","durationMs":7000}"#)?.field == "message.audio")
        #expect(SentMessage.error(#"{"kind":"audio","audio":"nothash","durationMs":7000}"#)?.field == "message.audio")
        let body = String(decoding: MessageContent.audio(audio: Self.hash, durationMs: 7000, replyTo: 2).bodyJSON, as: UTF8.self)
        #expect(body == #"{"kind":"audio","audio":"\#(Self.hash)","durationMs":7000,"replyTo":2}"#)
        #expect(MessageContent.imageHashes(ofBody: Array(body.utf8)) == [Self.hash])
    }

    @Test func aRecordingGoesOnlyWhereARecordingBelongs() throws {
        let h = try EngineHarness()
        let (ana, _) = h.register(1, "Ana")
        _ = h.register(2, "Ben")
        let c = h.conversation(owner: 1, joiners: [2])
        func send(_ conn: ConnectionID, _ clientId: String, _ message: String) -> JSONValue {
            h.request(conn, #"{"type":"send","id":"s","conversationId":"\#(c)","clientId":"\#(clientId)","message":\#(message)}"#)
        }
        /// Stored as an upload is: into the store, then recorded as Ana's.
        func upload(_ bytes: [UInt8]) throws -> String {
            let store = try BlobStore(directory: h.root + "/blobs")
            let t = store.makeTemporary()!
            _ = bytes.withUnsafeBytes { write(t.fd, $0.baseAddress, $0.count) }
            close(t.fd)
            let stored = try store.commit(temporary: t.path)
            _ = h.engine.process([.blobStored(1, userId: ana, hash: stored.hash, size: stored.size, reply: [])])
            return stored.hash
        }
        let voice = try upload(AudioTracksTests.voiceWebm + [1, 2, 3])
        let picture = try upload(Self.png)
        let sent = send(1, "v1", #"{"kind":"audio","audio":"\#(voice)","durationMs":1200}"#)["result"]?["message"]
        #expect(sent?["kind"] == .string("audio"))
        #expect(sent?["durationMs"]?.int == 1200)
        // a picture's hash as a recording, a recording's as a picture: as if not there
        let asVoice = send(1, "v2", #"{"kind":"audio","audio":"\#(picture)","durationMs":1200}"#)
        #expect(asVoice["code"] == .string("not_found"))
        #expect(asVoice["field"] == .string("message.audio"))
        let asPicture = send(1, "v3", #"{"kind":"attachment","image":"\#(voice)"}"#)
        #expect(asPicture["code"] == .string("not_found"))
        #expect(asPicture["field"] == .string("message.image"))
        // not editable, and search does not find it
        let edit = h.request(1, #"{"type":"messages.edit","id":"e","conversationId":"\#(c)","seq":1,"text":"words"}"#)
        #expect(edit["code"] == .string("invalid_field"))
        let found = h.request(1, #"{"type":"messages.search","id":"q","conversationId":"\#(c)","query":"audio"}"#)
        #expect(found["result"]?["messages"]?.array?.isEmpty == true)
    }
}
