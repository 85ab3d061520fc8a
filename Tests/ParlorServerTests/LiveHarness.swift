import Testing
import Logging
@testable import ParlorCore
@testable import ParlorServer

/// A `LiveState` driven the way the transport drives it, with the effects it asked
/// for collected and the bytes it would have written decoded back into JSON.
struct LiveHarness {
    var live: LiveState
    var effects: [LiveEffect] = []

    /// The keepalive and the busy refusals are out of the way unless a test is about
    /// them (68 years; never). Not a day: a sweep without a `now` runs at the machine's
    /// clock (its uptime) and the connections here opened at 0, so on a machine up for
    /// more than a day every sweep pinged them (seen: a test found a ping among its frames).
    init(keepaliveSeconds: Int = Int(Int32.max), busyAfterMs: Int = 0) {
        live = LiveState(log: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                         keepaliveSeconds: keepaliveSeconds, busyAfterMs: busyAfterMs)
    }

    /// Runs `body`, then returns the effects it recorded.
    mutating func step(_ body: (inout LiveState) -> Void) -> [LiveEffect] {
        body(&live)
        live.takeEffects(into: &effects)
        return effects
    }

    @discardableResult
    mutating func open(user: String? = nil, now: UInt64 = 0, peer: String = "127.0.0.1") -> ConnectionID {
        var id: ConnectionID = 0
        _ = step { id = $0.open(peer: peer, now: now) }
        if let user { _ = step { $0.perform(.authenticated(id, userId: user)) } }
        return id
    }

    mutating func perform(_ action: EngineAction) -> [LiveEffect] { step { _ = $0.perform(action) } }

    /// A connection per user, each subscribed to conversation "c", with what the
    /// subscription sent it already written.
    mutating func room(_ users: String...) -> [ConnectionID] {
        users.map { user in
            let id = open(user: user)
            _ = perform(.subscribe(id, conversationId: "c", userId: user))
            _ = write(id)
            return id
        }
    }

    /// What one writeable callback writes, as the frames' JSON payloads, or how it closes.
    mutating func write(_ id: ConnectionID, budget: Int = 64 * 1024) -> (payloads: [JSONValue], close: UInt16?) {
        var buffer: [UInt8] = []
        switch live.writeable(id, into: &buffer, budget: budget) {
        case .nothing: return ([], nil)
        case .close(let code, _): return ([], code)
        case .write(let n):
            #expect(n == buffer.count)
            return (Self.payloads(buffer), nil)
        }
    }

    /// What one writeable callback writes, as raw bytes (nil: nothing, or a close).
    mutating func wire(_ id: ConnectionID) -> [UInt8]? {
        var buffer: [UInt8] = []
        guard case .write = live.writeable(id, into: &buffer, budget: 64 * 1024) else { return nil }
        return buffer
    }

    /// Splits unmasked server text frames back into their JSON payloads.
    static func payloads(_ wire: [UInt8]) -> [JSONValue] {
        var out: [JSONValue] = []
        var i = 0
        while i < wire.count {
            #expect(wire[i] == 0x81)
            var n = Int(wire[i + 1])
            var header = 2
            if n == 126 { n = Int(wire[i + 2]) << 8 | Int(wire[i + 3]); header = 4 }
            else if n == 127 { n = (0..<8).reduce(0) { $0 << 8 | Int(wire[i + 2 + $1]) }; header = 10 }
            out.append((try? JSONParser.parse(Array(wire[(i + header)..<(i + header + n)]))) ?? .null)
            i += header + n
        }
        return out
    }

    static func payload(_ json: String) -> Payload { Payload(json: Array(json.utf8)) }
}

extension JSONValue {
    var string: String? { if case .string(let s) = self { s } else { nil } }
}
