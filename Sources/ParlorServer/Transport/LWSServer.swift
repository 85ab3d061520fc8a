import CLibWebSockets
import Foundation
import Logging
import ParlorCore
import Synchronization

/// Parlor's network side: one libwebsockets context, serviced by one thread that owns
/// every connection. Other threads talk to it only through `post(_:)`, which queues
/// actions and wakes the loop with `lws_cancel_service` (the one lws call that is
/// safe from any thread).
public final class LWSServer: @unchecked Sendable {
    var config: ServerConfig
    let blobs: BlobStore
    let files: StaticFiles
    let log: Logger
    var engine: EngineThread?

    // Service-thread state: touched only on the service thread (see `assertOnServiceThread`).
    var context: OpaquePointer?
    /// The host's and the apps' pages with their scripts named by version (HTTP/VersionedPages.swift).
    var pages: VersionedPages
    /// Connections, subscriptions, queues: everything live, as a value (Live/).
    var live: LiveState
    /// Each open WebSocket's lws handle, by the id the live state knows it by.
    var sockets = SocketTable()
    /// The live state's effects, taken out to be performed (storage reused).
    var effectBuffer: [LiveEffect] = []
    var exchanges: [UInt64: HTTPExchange] = [:]
    var uploads: [UInt64: Upload] = [:]
    var downloads: [OpaquePointer: Download] = [:]
    /// Files refused since the sweep last said so (`sweepDownloads`).
    var refusedDownloads = 0
    /// Requests whose body arrived before their answer was queued.
    var bodiesDone: Set<UInt64> = []
    /// `/health` requests, and the one database write at a time they wait for.
    var healthChecks = HealthChecks<OpaquePointer>()
    /// Cluster mode: the engine lost the shared database; handshakes are refused (503).
    var databaseLost = false
    /// Checking and storing an upload's file (hash, fsync) happens here, off the loop.
    let blobQueue = DispatchQueue(label: "parlor-blobs")
    var peerLimits: PeerLimits
    /// Each accepted connection's counted address (nil: not counted per address).
    var acceptedPeers: [OpaquePointer: String?] = [:]
    var pendingAccept: String??
    /// WebSockets from a trusted proxy, counted by their forwarded address.
    var forwardedLimits: PeerLimits
    var forwardedPeers: [OpaquePointer: String] = [:]
    var refusedConnections: [String: Int] = [:]
    /// New connections per client address (`newConnectionsPerAddress`).
    var connectionRate: RateLimiter
    var metrics = ServerMetrics()
    /// Renders /metrics (Prometheus text); nil serves no metrics.
    public var renderMetrics: (@Sendable () -> [UInt8])?
    /// Cluster mode: carries this node's presence to the others (set before `start`;
    /// called on the service thread). Their presence comes in by `receivePresence`.
    public var publishPresence: (@Sendable (NodePresence) -> Void)?
    var nextId: UInt64 = 1
    /// Where queued frames are copied for one raw write, after lws's headroom.
    var scratch: [UInt8]
    var serviceThread: pthread_t?
    var shutdownBegun = false
    let pre = Int(parlor_lws_pre())
    static let writeBudget = 64 * 1024

    // Cross-thread state.
    private let inbox = Mutex<[EngineAction]>([])
    private let presenceInbox = Mutex<[(node: String, NodePresence)]>([])
    private let stopping = Atomic<Bool>(false)
    private let draining = Atomic<Bool>(false)
    private let drained = DispatchSemaphore(value: 0)
    var drainSignalled = false
    private let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let startResult = Mutex<Result<Int, ServerError>?>(nil)

    /// Memory libwebsockets points into, from the first context attempt until the
    /// context is destroyed.
    private let cMemory = ContextMemory()

    public struct ServerError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(config: ServerConfig, blobs: BlobStore, logger: Logger) {
        self.config = config
        self.blobs = blobs
        self.files = StaticFiles(root: config.publicDirectory, appsOrigin: config.appsOrigin,
                                 hostOrigins: config.publicOrigins + config.allowedOrigins)
        pages = VersionedPages(root: files.root)
        peerLimits = PeerLimits(perAddress: config.maxConnectionsPerIP, total: PeerLimits.processCapacity())
        forwardedLimits = PeerLimits(perAddress: config.maxConnectionsPerIP, total: .max)
        connectionRate = RateLimiter(config.newConnectionsPerAddress)
        self.log = logger
        live = LiveState(log: logger, keepaliveSeconds: config.keepaliveSeconds, busyAfterMs: config.busyAfterMs)
        scratch = [UInt8](repeating: 0, count: Int(parlor_lws_pre()))
        scratch.reserveCapacity(scratch.count + Self.writeBudget * 2)
    }

    deinit {
        assert(context == nil, "LWSServer released while its context lives")
        cMemory.free()  // never started: nothing of it was handed to lws
    }

    /// Starts the service thread; returns the port it listens on once it does.
    public func start(engine: EngineThread) throws -> Int {
        self.engine = engine
        live.sharesPresence = publishPresence != nil
        startNamedThread("parlor-service", stackSize: 1 << 20) { [self] in serviceLoop() }
        started.wait()
        switch startResult.withLock({ $0 }) {
        case .success(let port)?: return port
        case .failure(let e)?: throw e
        case nil: throw ServerError(description: "the service thread did not start")
        }
    }

    /// Stops gracefully (see LWSServer+Drain.swift), waiting at most `timeout` for
    /// clients to be answered and closed, then stops.
    public func drainAndStop(timeout: Duration) {
        draining.store(true, ordering: .sequentiallyConsistent)
        wake()
        let ok = drained.wait(timeout: .now() + .milliseconds(Int(timeout.components.seconds * 1000)))
        if ok == .timedOut { log.warning("drain timed out; closing what is left") }
        stop()
    }

    var isDraining: Bool { draining.load(ordering: .sequentiallyConsistent) }

    func signalDrained() {
        guard !drainSignalled else { return }
        drainSignalled = true
        drained.signal()
    }

    /// Stops serving: closes every connection and returns when the loop has ended.
    public func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        wake()
        finished.wait()
    }

    /// Hands the engine's actions to the service thread. Called from the engine thread.
    public func post(_ actions: [EngineAction]) {
        inbox.withLock { $0.append(contentsOf: actions) }
        wake()
    }

    /// Cluster mode: another node's presence in a conversation, from the bus (any thread).
    /// While the service thread is behind, at most `presenceBacklog` wait; what is
    /// dropped is repaired by the sender's next repeat.
    public func receivePresence(from node: String, _ state: NodePresence) {
        let taken = presenceInbox.withLock { box in
            guard box.count < Self.presenceBacklog else { return false }
            box.append((node, state))
            return true
        }
        if taken { wake() }
    }

    static let presenceBacklog = 10_000

    /// The context's address, published for `lws_cancel_service` from other threads;
    /// cleared under the same lock before the context is destroyed.
    private let wakeAddress = Mutex<UInt>(0)

    private func wake() {
        wakeAddress.withLock { raw in
            if let ctx = OpaquePointer(bitPattern: raw) { lws_cancel_service(ctx) }
        }
    }

    /// The start failed before the loop ran: `start()` throws `description`.
    private func failStart(_ description: String) {
        startResult.withLock { $0 = .failure(ServerError(description: description)) }
        started.signal()
        finished.signal()
    }

    private func serviceLoop() {
        serviceThread = pthread_self()
        LibWebSocketsLog.route()
        guard let listen = ListenAddress.resolve(config.host) else {
            return failStart("--host \(config.host) is not an address this machine can resolve")
        }
        // Asked first, as lws says no more than "failed" (a port in use), or starts with no
        // listener at all for an address this machine does not have (it waits for the
        // interface), after which "listening on" was logged.
        if let why = listen.bindError(port: config.port) {
            return failStart("could not listen on \(config.host):\(config.port): \(why)")
        }
        // lws holds this server's address (the context's user pointer, the sweep timer)
        // from here until lws_context_destroy returns: a reference taken for that span
        // and given back below, rather than relying on the thread's closure holding self.
        let cReference = Unmanaged.passRetained(self)
        defer { cReference.release() }
        var made = createContext(listen, user: cReference.toOpaque())
        if made == nil && config.eventLoop == .libev {
            // Without Debian's libwebsockets-evlib-ev the plugin cannot load: poll() still
            // works (and fails again below for any other cause).
            log.warning("could not start on the libev event loop; trying poll()")
            config.eventLoop = .poll
            made = createContext(listen, user: cReference.toOpaque())
        }
        guard let ctx = made else {
            cMemory.free()
            // the port was free a moment ago: a certificate that does not load, most likely
            let why = config.tlsCertificate != nil ? ": the TLS certificate and key did not load (see the lws lines above)" : ""
            return failStart("could not listen on \(config.host):\(config.port)\(why)")
        }
        context = ctx
        wakeAddress.withLock { $0 = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(ctx))) }
        let vhost = lws_get_vhost_by_name(ctx, "default")
        let port = vhost.map { Int(lws_get_vhost_listen_port($0)) } ?? config.port
        scheduleSweep()
        startResult.withLock { $0 = .success(port) }
        started.signal()

        while !stopping.load(ordering: .sequentiallyConsistent) {
            if lws_service(ctx, 0) < 0 { break }
        }
        wakeAddress.withLock { $0 = 0 }
        lws_context_destroy(ctx)
        context = nil
        cMemory.free()
        finished.signal()
    }

    private func createContext(_ listen: ListenAddress, user: UnsafeMutableRawPointer) -> OpaquePointer? {
        let protos = cMemory.protocols
        // Protocol 0 answers plain HTTP (files, health, blobs); a WebSocket handshake
        // that names no subprotocol lands here too and is refused.
        protos[0].name = cMemory.string("http")
        protos[0].callback = parlorCallback
        protos[0].per_session_data_size = MemoryLayout<UInt64>.size
        protos[1].name = cMemory.string("parlor.v1")
        protos[1].callback = parlorCallback
        protos[1].per_session_data_size = MemoryLayout<UInt64>.size
        // lws keeps an rx buffer of this size for every connection, idle or not, and
        // reads a socket at most this much (+ LWS_PRE) per loop turn; frames are
        // assembled in Swift up to the cap. 4,096 cost 8.2 KB per idle connection; at 128
        // a 500-byte game move took four reads and four loop turns (games: 4 recvfrom
        // and 1.2 epoll_wait per move, p99 250-290 ms); 1,024 takes most frames in one
        // read (p99 70-80 ms, ~5 % less of the service thread) for 896 bytes more per
        // connection. Not below 125: lws needs a whole control frame's payload here.
        protos[1].rx_buffer_size = 1024
        // Left at 0, tx_packet_size would cap every send() at rx_buffer_size and make lws
        // chop each batched write into 256-byte pieces; one write should take a batch.
        protos[1].tx_packet_size = 4 * Self.writeBudget

        // No keepalive timers in lws (zeros): the live state's sweep pings and drops
        // silent connections (see LiveState.sweep for why).
        let retry = cMemory.retry
        retry.pointee.secs_since_valid_ping = 0
        retry.pointee.secs_since_valid_hangup = 0

        var info = lws_context_creation_info()
        info.port = Int32(config.port)
        info.iface = cMemory.string(listen.address)
        info.protocols = UnsafePointer(protos)
        info.gid = -1
        info.uid = -1
        info.user = user
        info.retry_and_idle_policy = UnsafePointer(retry)
        info.timeout_secs = 10  // handshakes and stalled HTTP exchanges
        // lws keeps 4 KiB of a request's headers and drops the connection, unanswered,
        // past it: a browser carrying its parent domain's cookies (chat.example.org
        // under example.org) sends more, and the page did not load at all. 16 KiB, twice
        // nginx's default buffer; held only while a request's headers are read (lws
        // lends it from a pool and takes it back at the upgrade).
        info.max_http_header_data2 = 16 * 1024
        info.alpn = cMemory.string("http/1.1")
        info.vhost_name = cMemory.string("default")
        info.server_string = cMemory.string("parlor")
        let tls = config.tlsCertificate != nil
        if let cert = config.tlsCertificate, let key = config.tlsKey {
            info.ssl_cert_filepath = cMemory.string(cert)
            info.ssl_private_key_filepath = cMemory.string(key)
            // TLS 1.2: forward-secret key exchange and AEAD only (no static RSA, no CBC);
            // TLS 1.3's suites are all of that already.
            info.ssl_cipher_list = cMemory.string(
                "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
                + "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305")
            info.ssl_options_set = parlor_tls_options()
        }
        info.options = parlor_server_options(tls ? 1 : 0, 1, config.eventLoop == .libev ? 1 : 0, listen.isIPv4 ? 1 : 0)
        return lws_create_context(&info)
    }

    var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    /// On the libev loop lws_service does not return on its own: the first
    /// lws_context_destroy, from inside the loop, closes everything and ends it; the
    /// second, after the loop, frees the context (lws's two-stage destroy).
    func beginShutdown() {
        guard !shutdownBegun, let ctx = context else { return }
        shutdownBegun = true
        if config.eventLoop == .libev { lws_context_destroy(ctx) }
    }

    func assertOnServiceThread() {
        assert(serviceThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false,
               "libwebsockets state touched off the service thread")
    }

    /// Performs the engine's queued actions, in order. Runs on the service thread.
    func drainInbox() {
        assertOnServiceThread()
        // Emptying the shared array "keeping its capacity" allocates a new one as big:
        // one allocation a turn, not one per doubling, but only up to a size, or the
        // largest burst so far (thousands of subscribes) would be kept for good.
        let actions = inbox.withLock { box -> [EngineAction] in
            let a = box
            box.removeAll(keepingCapacity: box.capacity <= Self.keptCapacity)
            return a
        }
        let now = LiveState.now()
        for a in actions where !live.perform(a, now: now) {
            switch a {
            case .uploadDone(let id, let status, let body): uploadDone(id, status, body)
            case .healthDone(_, let problem): healthDone(problem)
            case .databaseReachable(let reachable): databaseLost = !reachable
            case .uploadAuthorized(let id, let verdict): uploadAuthorized(id, verdict)
            default: break
            }
        }
        let remote = presenceInbox.withLock { box -> [(node: String, NodePresence)] in
            defer { box.removeAll(keepingCapacity: box.capacity <= Self.keptCapacity) }
            return box
        }
        for (node, state) in remote { live.nodePresence(from: node, state, now: now) }
        applyLiveEffects()
    }

    /// The most entries an emptied inbox or effects buffer keeps room for.
    static let keptCapacity = 1024

    func makeId() -> UInt64 {
        defer { nextId += 1 }
        return nextId
    }

    /// The sweep (sign-in timeouts, upload deadlines, refusal logs) runs once a second.
    func scheduleSweep() {
        guard let ctx = context, let user = lws_context_user(ctx) else { return }
        let timer = cMemory.sweepTimer
        timer.pointee.user = user  // the reference the service loop holds for lws
        lws_sul_schedule(ctx, 0, &timer.pointee.sul, sweepFired, 1_000_000)
    }
}

private func sweepFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let raw = parlor_timer_of(sul)?.pointee.user else { return }
    let server = Unmanaged<LWSServer>.fromOpaque(raw).takeUnretainedValue()
    server.sweep()
    server.scheduleSweep()
}

/// The one C entry point: find the server from the context and hand over.
private func parlorCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ len: Int
) -> Int32 {
    guard let wsi, let ctx = lws_get_context(wsi), let raw = lws_context_user(ctx) else { return 0 }
    return Unmanaged<LWSServer>.fromOpaque(raw).takeUnretainedValue()
        .callback(wsi, reason, user, input, len)
}
