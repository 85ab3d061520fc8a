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
    @Option(help: "synchronous=FULL on a file (true) or an in-memory database (false).") var durable = true

    func run() throws {
        let dir = NSTemporaryDirectory() + "parlor-bench-" + Secrets.hex(Secrets.randomBytes(4))
        try FileManager.default.createDirectory(atPath: dir + "/public/apps", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStore(path: durable ? dir + "/parlor.sqlite" : nil)
        let engine = Engine(store: store, apps: AppCatalog(publicDirectory: dir + "/public"),
                            blobs: try BlobStore(directory: dir + "/blobs"), logger: Logger(label: "bench"))

        func call(_ json: String) -> JSONValue? {
            for case .send(_, let f) in engine.process([.frame(1, Array(json.utf8))]) {
                return try? JSONParser.parse(f.json)
            }
            return nil
        }
        _ = call(#"{"type":"register","id":"1","name":"Bench"}"#)
        guard case .string(let cid)? = call(#"{"type":"conversations.create","id":"2","title":"Bench"}"#)?["result"]?["conversation"]?["id"] else {
            throw ValidationError("could not create a conversation")
        }
        let text = String(repeating: "x", count: 100)
        let frames = (0..<count).map { i in
            Array(#"{"type":"send","id":"\#(i)","conversationId":"\#(cid)","clientId":"k\#(i)","message":{"kind":"text","text":"\#(text)"}}"#.utf8)
        }
        let start = ContinuousClock.now
        var i = 0
        while i < count {
            let slice = frames[i..<min(i + batch, count)]
            _ = engine.process(slice.map { .frame(1, $0) })
            i += batch
        }
        let seconds = Double((ContinuousClock.now - start).components.attoseconds) / 1e18
            + Double((ContinuousClock.now - start).components.seconds)
        print(String(format: "engine: %d sends in batches of %d (%@): %.0f sends/s, %.1f µs/send",
                     count, batch, durable ? "synchronous=FULL" : "in memory", Double(count) / seconds, seconds / Double(count) * 1e6))
    }
}
