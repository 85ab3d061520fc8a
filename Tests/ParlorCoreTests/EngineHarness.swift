import Foundation
import Logging
@testable import ParlorCore

/// Drives an `Engine` over an in-memory database, the way the service thread would,
/// and reads back what it would have sent.
final class EngineHarness {
    let engine: Engine
    let root: String
    /// The engine's clock, in milliseconds: tests move it to expire things.
    final class Clock: @unchecked Sendable { var now = 1_800_000_000_000 }
    let clock = Clock()

    init(databasePath: ((String) -> String)? = nil, maxPages: Int? = nil, settings: EngineSettings = .openRegistration) throws {
        root = NSTemporaryDirectory() + "parlor-tests-" + Secrets.hex(Secrets.randomBytes(6))
        for app in ["wenderpic", "partylist"] {
            try FileManager.default.createDirectory(atPath: "\(root)/apps/\(app)", withIntermediateDirectories: true)
            try Data(#"{"id":"\#(app)","name":"\#(app.capitalized)","icon":"icon.svg","entry":"index.html"}"#.utf8)
                .write(to: URL(fileURLWithPath: "\(root)/apps/\(app)/manifest.json"))
        }
        let store = try SQLiteStore(path: databasePath?(root), maxPages: maxPages)
        let clock = clock
        engine = Engine(store: store, apps: AppCatalog(publicDirectory: root),
                        blobs: try BlobStore(directory: root + "/blobs"), logger: Logger(label: "test"),
                        settings: settings, now: { clock.now })
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Runs one batch of frames; returns the actions.
    func batch(_ frames: [(ConnectionID, String)]) -> [EngineAction] {
        engine.process(frames.map { .frame($0.0, Array($0.1.utf8)) })
    }

    /// Sends one request and returns the reply addressed to that connection.
    @discardableResult
    func request(_ conn: ConnectionID, _ json: String) -> JSONValue {
        let actions = batch([(conn, json)])
        for a in actions {
            if case .send(let c, let f) = a, c == conn, let v = try? JSONParser.parse(f.json),
               v["re"] != nil || v["type"] == .string("error") {
                return v
            }
        }
        return .null
    }

    /// Registers a user on `conn`; returns (userId, token).
    func register(_ conn: ConnectionID, _ name: String) -> (String, String) {
        let r = request(conn, #"{"type":"register","id":"r","name":"\#(name)"}"#)
        return (r["result"]?["user"]?["id"]?.string ?? "", r["result"]?["token"]?.string ?? "")
    }

    /// Creates a conversation on `owner` and joins every other connection to it.
    func conversation(owner: ConnectionID, joiners: [ConnectionID] = []) -> String {
        let r = request(owner, #"{"type":"conversations.create","id":"c","title":"Room"}"#)
        let cid = r["result"]?["conversation"]?["id"]?.string ?? ""
        let invite = r["result"]?["invite"]?.string ?? ""
        for j in joiners { request(j, #"{"type":"conversations.join","id":"j","invite":"\#(invite)"}"#) }
        return cid
    }

    static func frames(_ actions: [EngineAction]) -> [JSONValue] {
        actions.compactMap { a -> JSONValue? in
            switch a {
            case .send(_, let f), .broadcast(_, let f), .broadcastInSmallRoom(_, let f): try? JSONParser.parse(f.json)
            default: nil
            }
        }
    }
}

extension EngineSettings {
    /// Tests that are not about sign-up control or limits register freely, send fast.
    static var openRegistration: EngineSettings {
        var s = EngineSettings()
        s.registration = .open
        s.registrationsPerAddress = .unlimited
        s.signInFailuresPerAddress = .unlimited
        s.sendsPerUser = .unlimited
        s.conversationsPerUser = .unlimited
        s.invitesPerUser = .unlimited
        s.uploadBytesPerUser = .unlimited
        return s
    }
}

extension JSONValue {
    var string: String? { if case .string(let s) = self { s } else { nil } }
    var int: Int? { if case .number(let d) = self { Int(d) } else { nil } }
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
}
