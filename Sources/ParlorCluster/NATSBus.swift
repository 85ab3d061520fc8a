import CNats
import Dispatch
import Logging
import ParlorCore
import Synchronization

/// The bus between the nodes of a cluster, over NATS (Debian's nats-server and C client).
///
/// After each commit a node publishes, on one subject per conversation
/// (`parlor.c.<id>`), that the conversation has new messages ("news": no body; every
/// node reads them from PostgreSQL in seq order, Engine+Cluster.swift) and the
/// conversation's other events as they are (renames, members). Events for one user
/// (a conversation joined on another device) go on `parlor.u.<user>`. That one left or
/// was removed from a conversation goes on its subject (kind "l"), before the member
/// event: one subject is delivered in order, so the nodes unsubscribe them first. A node listens
/// only to the conversations its clients follow and the users signed in on it, and to
/// sign-outs (a revoked device, a deactivated account), which close connections on
/// every node.
///
/// Presence and `playing` marks: each node announces its whole state of a conversation
/// on the conversation's subject (`NodePresence`, kind "p", tagged with the node's
/// random id) when it changes and every few seconds; the live state of the others keeps
/// it until it is replaced or stops being repeated (LiveState+Cluster.swift).
///
/// NATS delivers at most once: a message lost while a node or nats-server restarts is
/// not lost for the client, because the engine's once-a-second sweep reads what a
/// missed "news" would have told it, and a lost sign-out is found by the engine's check
/// of its connections' devices every 10 s. Other events are not repaired.
/// Losing nats-server and getting it back are logged (a warning, then a notice).
public final class NATSBus: @unchecked Sendable {
    private let connection: OpaquePointer
    private let log: Logger
    private let linkLog: LinkLog
    private let handlers = Mutex<Handlers?>(nil)
    /// This run of this node, in presence announcements (a restart is a new node).
    public let nodeId: String
    /// Subjects subscribed so far (`start`, then `publish`, one call at a time).
    private var subscribed: Set<String> = []
    /// Until when `publish` does not wait for nats-server (`flushSubscriptions`).
    private var flushPausedUntil: UInt64 = 0

    struct Handlers {
        var news: @Sendable (String) -> Void
        var signedOut: @Sendable (_ device: String?, _ user: String?) -> Void
        var events: @Sendable ([EngineAction]) -> Void
        var presence: @Sendable (_ node: String, NodePresence) -> Void
    }

    private static let newsKind: UInt8 = UInt8(ascii: "n")
    private static let roomKind: UInt8 = UInt8(ascii: "b")
    private static let smallRoomKind: UInt8 = UInt8(ascii: "s")
    private static let presenceKind: UInt8 = UInt8(ascii: "p")
    private static let leftKind: UInt8 = UInt8(ascii: "l")

    /// Connects, or throws a one-line reason. `name` names this node to nats-server.
    public init(url: String, name: String, log: Logger) throws {
        self.log = log
        linkLog = LinkLog(log)
        nodeId = (0..<2).map { _ in String(UInt32.random(in: .min ... .max), radix: 36) }.joined(separator: "-")
        var opts: OpaquePointer?
        try Self.check(natsOptions_Create(&opts), "cannot set up NATS")
        defer { natsOptions_Destroy(opts) }
        try Self.check(natsOptions_SetURL(opts, url), "bad NATS URL")
        try Self.check(natsOptions_SetName(opts, name), "bad NATS name")
        // A node's own publications come back to it through its engine already.
        try Self.check(natsOptions_SetNoEcho(opts, true), "NATS no-echo")
        // Through a nats-server restart, forever: the sweep repairs what was lost.
        try Self.check(natsOptions_SetMaxReconnect(opts, -1), "NATS reconnects")
        try Self.check(natsOptions_SetReconnectWait(opts, 250), "NATS reconnect wait")
        // An operator saw nothing while nats-server was down (a cluster review): the
        // nodes went on, each on its own, with messages from the others a second late.
        let context = Unmanaged.passUnretained(linkLog).toOpaque()
        try Self.check(natsOptions_SetDisconnectedCB(opts, busLost, context), "NATS disconnect handler")
        try Self.check(natsOptions_SetReconnectedCB(opts, busBack, context), "NATS reconnect handler")
        // A node (re)started while nats-server was down refused to start, and systemd
        // restarted it every 2 s for as long as the outage lasted (a cluster review). It
        // now starts without the bus, as a node cut off from it runs, and joins it when
        // nats-server answers ("bus back").
        try Self.check(natsOptions_SetRetryOnFailedConnect(opts, true, busBack, context), "NATS connect retries")
        var nc: OpaquePointer?
        let status = natsConnection_Connect(&nc, opts)
        if status == NATS_NOT_YET_CONNECTED, let nc {
            connection = nc
            log.warning("bus not reached: nats-server at \(Self.redacted(url)) does not answer; this node serves without it (messages from other nodes a second late) until it does",
                        metadata: ["node": "\(nodeId)"])
            return
        }
        try Self.check(status, "cannot connect to NATS at \(Self.redacted(url))")
        connection = nc!
        log.info("bus connected", metadata: ["nats": "\(Self.redacted(url))", "node": "\(nodeId)"])
    }

    deinit { natsConnection_Destroy(connection) }

    /// Where what other nodes publish goes: news to the engine, events and presence to
    /// the live state. Sign-outs to the engine (which knows which connections used the
    /// device).
    public func start(news: @escaping @Sendable (String) -> Void,
                      signedOut: @escaping @Sendable (_ device: String?, _ user: String?) -> Void,
                      events: @escaping @Sendable ([EngineAction]) -> Void,
                      presence: @escaping @Sendable (_ node: String, NodePresence) -> Void) {
        handlers.withLock { $0 = Handlers(news: news, signedOut: signedOut, events: events, presence: presence) }
        listen("parlor.signout.device")
        listen("parlor.signout.user")
    }

    /// Called with each batch's actions once they are durable, one batch at a time in
    /// commit order (from the thread that delivers them: `EngineThread`'s deliver).
    public func publish(_ actions: [EngineAction]) {
        var listening = false
        defer {
            // A subscription is only queued for nats-server; until it has it, what other
            // nodes publish on the subject is lost here. The flush's round trip makes
            // sure it has, before the batch is answered (a client told it subscribed
            // must get the room's events, a rename at once included).
            if listening { flushSubscriptions() }
        }
        for action in actions {
            switch action {
            case .committedMessages(let cid):
                send("parlor.c." + cid, Self.newsKind, [])
            case .broadcast(let cid, let payload):
                // Message events reach other nodes as news, read from the database there.
                guard !payload.isMessageEvent else { continue }
                send("parlor.c." + cid, Self.roomKind, payload.json)
            case .broadcastInSmallRoom(let cid, let payload):
                send("parlor.c." + cid, Self.smallRoomKind, payload.json)
            case .toUser(let userId, let payload), .toUserExcept(let userId, _, let payload):
                // The connection left out is this node's: there, every one hears it.
                send("parlor.u." + userId, nil, payload.json)
            case .left(let userId, let cid):
                send("parlor.c." + cid, Self.leftKind, Array(userId.utf8))
            case .signedOut(let device, let user):
                if let device { send("parlor.signout.device", nil, Array(device.utf8)) }
                if let user { send("parlor.signout.user", nil, Array(user.utf8)) }
            case .subscribe(_, let cid, _):
                listening = listen("parlor.c." + cid) || listening
            case .authenticated(_, let userId):
                listening = listen("parlor.u." + userId) || listening
            default:
                continue
            }
        }
    }

    /// The flush that `publish` waits on before a subscribe is answered. With
    /// nats-server hung (stopped, not gone: the client still thinks it is connected),
    /// each one waited out its whole second on the engine's thread, and a node with a
    /// sign-in or two a second answered everyone a second late (a cluster review). After
    /// one times out, the next `flushPauseNanoseconds` go without: the subscription is
    /// still sent, and the sweep reads what the node misses meanwhile.
    private func flushSubscriptions() {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now >= flushPausedUntil, natsConnection_Status(connection) == NATS_CONN_STATUS_CONNECTED else { return }
        if natsConnection_FlushTimeout(connection, 1000) != NATS_OK {
            flushPausedUntil = now + Self.flushPauseNanoseconds
            log.warning("bus: nats-server did not answer a flush within 1 s; subscribing without waiting for it for 5 s")
        }
    }

    private static let flushPauseNanoseconds: UInt64 = 5_000_000_000

    /// This node's presence in a conversation (from the service thread: the C client's
    /// publish is thread-safe). The subject is already listened to: the engine's
    /// `.subscribe` reached `publish` before the live state saw it (Serve.swift).
    public func publishPresence(_ state: NodePresence) {
        send("parlor.c." + state.conversationId, Self.presenceKind, state.encoded(node: nodeId))
    }

    /// Sends what is buffered, so that a stopping node's last announcements (its users
    /// gone offline) leave before the process does.
    public func flush() {
        _ = natsConnection_FlushTimeout(connection, 1000)
    }

    private func send(_ subject: String, _ kind: UInt8?, _ body: [UInt8]) {
        guard Self.isToken(subject) else { return }
        var data = kind.map { [$0] } ?? []
        data.append(contentsOf: body)
        let status = data.withUnsafeBytes { natsConnection_Publish(connection, subject, $0.baseAddress, Int32($0.count)) }
        if status != NATS_OK {
            // Buffered while reconnecting; refused only when that buffer is full.
            log.warning("bus publish failed", metadata: ["cause": "\(String(cString: natsStatus_GetText(status)))"])
        }
    }

    /// True when it subscribed now (not before).
    @discardableResult
    private func listen(_ subject: String) -> Bool {
        guard Self.isToken(subject), subscribed.insert(subject).inserted else { return false }
        var sub: OpaquePointer?
        let status = natsConnection_Subscribe(&sub, connection, subject, { _, _, msg, closure in
            guard let msg, let closure else { return }
            Unmanaged<NATSBus>.fromOpaque(closure).takeUnretainedValue().received(msg)
            natsMsg_Destroy(msg)
        }, Unmanaged.passUnretained(self).toOpaque())
        if status != NATS_OK {
            subscribed.remove(subject)
            log.error("bus subscribe failed", metadata: ["subject": "\(subject)",
                                                          "cause": "\(String(cString: natsStatus_GetText(status)))"])
            return false
        }
        return true
    }

    /// On a NATS thread.
    private func received(_ msg: OpaquePointer) {
        guard let h = handlers.withLock({ $0 }) else { return }
        let subject = String(cString: natsMsg_GetSubject(msg))
        let count = Int(natsMsg_GetDataLength(msg))
        let bytes = natsMsg_GetData(msg).map { p in
            [UInt8](UnsafeRawBufferPointer(start: UnsafeRawPointer(p), count: count))
        } ?? []
        if subject.hasPrefix("parlor.c."), let kind = bytes.first {
            let cid = String(subject.dropFirst(9))
            let payload = Payload(json: Array(bytes.dropFirst()))
            switch kind {
            case Self.newsKind: h.news(cid)
            case Self.roomKind: h.events([.broadcast(conversationId: cid, payload)])
            case Self.smallRoomKind: h.events([.broadcastInSmallRoom(conversationId: cid, payload)])
            case Self.leftKind: h.events([.left(userId: String(decoding: bytes.dropFirst(), as: UTF8.self), conversationId: cid)])
            case Self.presenceKind:
                if let (node, state) = NodePresence.decode(bytes.dropFirst(), conversationId: cid) {
                    h.presence(node, state)
                } else {
                    log.debug("bus: a malformed presence announcement", metadata: ["conversation": "\(cid)"])
                }
            default: break
            }
        } else if subject == "parlor.signout.device" {
            h.signedOut(String(decoding: bytes, as: UTF8.self), nil)
        } else if subject == "parlor.signout.user" {
            h.signedOut(nil, String(decoding: bytes, as: UTF8.self))
        } else if subject.hasPrefix("parlor.u.") {
            h.events([.toUser(userId: String(subject.dropFirst(9)), Payload(json: bytes))])
        }
    }

    /// Ids are letters, digits and dashes; anything else would be a subject's syntax.
    private static func isToken(_ subject: String) -> Bool {
        subject.utf8.allSatisfy { $0 > 32 && $0 != UInt8(ascii: "*") && $0 != UInt8(ascii: ">") && $0 < 127 }
            && subject.split(separator: ".", omittingEmptySubsequences: false).count == 3
    }

    private static func check(_ status: natsStatus, _ what: String) throws {
        guard status != NATS_OK else { return }
        throw StoreError("\(what): \(String(cString: natsStatus_GetText(status)))")
    }

    /// nats://user:password@host → nats://host, for the log.
    static func redacted(_ url: String) -> String {
        guard let at = url.lastIndex(of: "@"), let scheme = url.range(of: "://") else { return url }
        return String(url[..<scheme.upperBound]) + String(url[url.index(after: at)...])
    }
}

/// What the bus's connection says of itself, from nats.c's threads.
private final class LinkLog: Sendable {
    let log: Logger
    init(_ log: Logger) { self.log = log }
    func lost() {
        log.warning("bus lost: nats-server is out of reach; messages from other nodes come from the database once a second, other nodes' presence lapses, until it is back")
    }
    func back() { log.notice("bus back: nats-server reached again") }
}

/// nats.c's connection handlers; `context` is the bus's LinkLog.
private func busLost(_ connection: OpaquePointer?, _ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<LinkLog>.fromOpaque(context).takeUnretainedValue().lost()
}

private func busBack(_ connection: OpaquePointer?, _ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<LinkLog>.fromOpaque(context).takeUnretainedValue().back()
}
