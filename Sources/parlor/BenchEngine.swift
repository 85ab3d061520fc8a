import ArgumentParser
import Foundation
import Logging
import ParlorCore

/// Measures the engine alone (parse, validate, store, serialize) with no network:
/// the cost per durable send that every fan-out figure in bench/ builds on.
struct BenchEngine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-engine", abstract: "Measure the engine's cost per durable send, without the network.")

    @Option(help: "Messages to send.") var count = 50_000
    @Option(help: "Requests per batch (one transaction each).") var batch = 64
    @Option(help: "A WAL file made durable after each batch (true) or an in-memory database (false).") var durable = true
    @Option(help: "Client ids in the order they were made, as the web client's (ordered), or random UUIDs (random).")
    var clientIds = ClientIds.ordered

    @Option(help: "Conversations the sends take turns in (a game room each, for --kind move).") var rooms = 1
    @Option(help: "What is sent: text messages, or game moves (an app message updating its room's session).")
    var kind = Kind.text

    enum ClientIds: String, ExpressibleByArgument { case ordered, random }
    enum Kind: String, ExpressibleByArgument { case text, move }

    func run() throws {
        let dir = NSTemporaryDirectory() + "parlor-bench-" + Secrets.hex(Secrets.randomBytes(4))
        try FileManager.default.createDirectory(atPath: dir + "/public/apps/bench", withIntermediateDirectories: true)
        try Data(#"{"id":"bench","name":"Bench","icon":"icon.svg","entry":"index.html"}"#.utf8).write(to: URL(fileURLWithPath: dir + "/public/apps/bench/manifest.json"))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStore(path: durable ? dir + "/parlor.sqlite" : nil)
        // One user sends everything and owns every room: per-user limits would refuse most.
        var settings = EngineSettings()
        settings.sendsPerUser = .unlimited
        settings.conversationsPerUser = .unlimited
        let engine = Engine(store: store, apps: AppCatalog(publicDirectory: dir + "/public"),
                            blobs: try BlobStore(directory: dir + "/blobs"), logger: Logger(label: "bench"),
                            settings: settings)

        func call(_ json: String) -> JSONValue? {
            for case .send(_, let f) in engine.process([.frame(1, Array(json.utf8))]) {
                return try? JSONParser.parse(f.json)
            }
            return nil
        }
        _ = call(#"{"type":"register","id":"1","name":"Bench"}"#)
        let cids = try (0..<max(1, rooms)).map { r in
            guard case .string(let cid)? = call(#"{"type":"conversations.create","id":"c\#(r)","title":"Bench \#(r)"}"#)?["result"]?["conversation"]?["id"] else {
                throw ValidationError("could not create a conversation")
            }
            return cid
        }
        let text = String(repeating: "x", count: 100)
        let frames = (0..<count).map { i in
            let clientId = clientIds == .random
                ? UUID().uuidString.lowercased() : String(format: "%016llx-0000-7000-8000-000000000000", UInt64(i))
            let room = i % cids.count, cid = cids[room]
            let message = switch kind {
            case .text: #"{"kind":"text","text":"\#(text)"}"#
            // As the games scenario's load generator sends them (bench/loadgen).
            case .move: #"{"kind":"app","appId":"bench","url":"?word=cat&ink=120&b=\#(text)","summaryText":"b drew something","layout":{"caption":"Guess my WenderPic!","subcaption":"$1"},"session":{"id":"g\#(room)","baseVersion":\#(i / cids.count)},"live":false}"#
            }
            return Array(#"{"type":"send","id":"\#(i)","conversationId":"\#(cid)","clientId":"\#(clientId)","message":\#(message)}"#.utf8)
        }
        func seconds(_ d: Duration) -> Double {
            Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        // Each batch's time is how long the first request of the next one waits.
        var batchSeconds: [Double] = []
        let writtenBefore = Self.bytesWritten()
        let start = ContinuousClock.now
        var i = 0
        while i < count {
            let slice = frames[i..<min(i + batch, count)]
            let t = ContinuousClock.now
            for case .send(_, let f) in engine.process(slice.map { .frame(1, $0) }) where f.json.starts(with: Array(#"{"type":"error""#.utf8)) {
                throw ValidationError("a send was refused: \(String(decoding: f.json, as: UTF8.self))")
            }
            // Inline here (the server overlaps it with the next batch): each batch's
            // time includes making it durable.
            try store.syncCommitted()
            batchSeconds.append(seconds(ContinuousClock.now - t))
            i += batch
        }
        let total = seconds(ContinuousClock.now - start)
        batchSeconds.sort()
        func ms(_ q: Double) -> Double { batchSeconds[min(batchSeconds.count - 1, Int(Double(batchSeconds.count) * q))] * 1000 }
        print(String(format: "engine: %d %@ sends in %d %@, batches of %d (%@): %.0f sends/s, %.1f µs/send; batch p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                     count, kind.rawValue, cids.count, cids.count == 1 ? "room" : "rooms", batch, durable ? "WAL, fdatasync per batch" : "in memory",
                     Double(count) / total, total / Double(count) * 1e6, ms(0.5), ms(0.99), batchSeconds.last! * 1000))
        if let before = writtenBefore, let after = Self.bytesWritten() {
            print(String(format: "        %.0f MB written to the disk, %.1f KB a send (%@ client ids)",
                         Double(after - before) / 1e6, Double(after - before) / Double(count) / 1e3, clientIds.rawValue))
        }
    }

    /// What this process has had written to storage so far (Linux: /proc/self/io).
    static func bytesWritten() -> Int? {
        guard let io = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
        for line in io.split(separator: "\n") where line.hasPrefix("write_bytes:") {
            return Int(line.dropFirst("write_bytes:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
