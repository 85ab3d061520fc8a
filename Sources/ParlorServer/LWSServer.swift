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
    var connections: [ConnectionID: WebSocketConnection] = [:]
    var exchanges: [UInt64: HTTPExchange] = [:]
    var uploads: [UInt64: Upload] = [:]
    /// Requests whose body arrived before their answer was queued.
    var bodiesDone: Set<UInt64> = []
    /// Health checks waiting for the engine's write.
    var pendingHealth: [UInt64: OpaquePointer] = [:]
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
    var metrics = ServerMetrics()
    /// Renders /metrics (Prometheus text); nil serves no metrics.
    public var renderMetrics: (@Sendable () -> [UInt8])?
    var hub = Hub()
    /// Each signed-in user's open connections, for events meant for all of them.
    var userConnections: [String: [ConnectionID: WebSocketConnection]] = [:]
    var nextId: UInt64 = 1
    var scratch: [UInt8]
    var serviceThread: pthread_t?
    var shutdownBegun = false
    let pre = OutboundFrame.headroom
    static let writeBudget = 64 * 1024

    // Cross-thread state.
    private let inbox = Mutex<[EngineAction]>([])
    private let stopping = Atomic<Bool>(false)
    private let draining = Atomic<Bool>(false)
    private let drained = DispatchSemaphore(value: 0)
    var drainBegun = false
    var drainSignalled = false
    private let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let startResult = Mutex<Result<Int, ServerError>?>(nil)

    // Memory libwebsockets points into, kept until the context is destroyed.
    private let strings = CStrings()
    private var protocols: UnsafeMutablePointer<lws_protocols>?
    private var retryPolicy: UnsafeMutablePointer<lws_retry_bo_t>?
    private var sweepTimer: UnsafeMutablePointer<parlor_timer>?

    public struct ServerError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(config: ServerConfig, blobs: BlobStore, logger: Logger) {
        self.config = config
        self.blobs = blobs
        self.files = StaticFiles(root: config.publicDirectory, appsOrigin: config.appsOrigin,
                                 hostOrigins: config.publicOrigins + config.allowedOrigins)
        peerLimits = PeerLimits(perAddress: config.maxConnectionsPerIP, total: PeerLimits.processCapacity())
        forwardedLimits = PeerLimits(perAddress: config.maxConnectionsPerIP, total: .max)
        self.log = logger
        scratch = [UInt8](repeating: 0, count: OutboundFrame.headroom)
        scratch.reserveCapacity(OutboundFrame.headroom + Self.writeBudget * 2)
    }

    /// Starts the service thread; returns the port it listens on once it does.
    public func start(engine: EngineThread) throws -> Int {
        self.engine = engine
        let thread = Thread { [self] in serviceLoop() }
        thread.name = "parlor-service"
        thread.stackSize = 1 << 20
        thread.start()
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

    /// The context's address, published for `lws_cancel_service` from other threads;
    /// cleared under the same lock before the context is destroyed.
    private let wakeAddress = Mutex<UInt>(0)

    private func wake() {
        wakeAddress.withLock { raw in
            if let ctx = OpaquePointer(bitPattern: raw) { lws_cancel_service(ctx) }
        }
    }

    private func serviceLoop() {
        serviceThread = pthread_self()
        LibWebSocketsLog.route()
        guard let listen = ListenAddress.resolve(config.host) else {
            startResult.withLock { $0 = .failure(ServerError(description: "--host \(config.host) is not an address this machine can resolve")) }
            started.signal()
            finished.signal()
            return
        }
        var made = createContext(listen)
        if made == nil && config.eventLoop == .libev {
            // Without Debian's libwebsockets-evlib-ev the plugin cannot load: poll() still works.
            log.warning("libev event loop unavailable, falling back to poll()")
            config.eventLoop = .poll
            made = createContext(listen)
        }
        guard let ctx = made else {
            startResult.withLock { $0 = .failure(ServerError(description: "could not listen on \(config.host):\(config.port)")) }
            started.signal()
            finished.signal()
            return
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
        strings.free()
        protocols?.deallocate()
        sweepTimer?.deallocate()
        retryPolicy?.deallocate()
        finished.signal()
    }

    private func createContext(_ listen: ListenAddress) -> OpaquePointer? {
        let protos = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 3)
        protos.initialize(repeating: lws_protocols(), count: 3)
        // Protocol 0 answers plain HTTP (files, health, blobs); a WebSocket handshake
        // that names no subprotocol lands here too and is refused.
        protos[0].name = UnsafePointer(strings.make("http"))
        protos[0].callback = parlorCallback
        protos[0].per_session_data_size = MemoryLayout<UInt64>.size
        protos[1].name = UnsafePointer(strings.make("parlor.v1"))
        protos[1].callback = parlorCallback
        protos[1].per_session_data_size = MemoryLayout<UInt64>.size
        // lws keeps an rx buffer of this size for every connection, idle or not: small
        // pieces keep an idle connection cheap (8.2 KB -> 4.5 KB each, measured with
        // bench/run's idle scenario), and frames are assembled in Swift up to the cap.
        protos[1].rx_buffer_size = 256
        // Left at 0, tx_packet_size would cap every send() at rx_buffer_size and make lws
        // chop each batched write into 256-byte pieces; one write should take a batch.
        protos[1].tx_packet_size = 4 * Self.writeBudget
        protocols = protos

        let retry = UnsafeMutablePointer<lws_retry_bo_t>.allocate(capacity: 1)
        retry.initialize(to: lws_retry_bo_t())
        retry.pointee.secs_since_valid_ping = 20
        retry.pointee.secs_since_valid_hangup = 40
        retryPolicy = retry

        var info = lws_context_creation_info()
        info.port = Int32(config.port)
        info.iface = UnsafePointer(strings.make(listen.address))
        info.protocols = UnsafePointer(protos)
        info.gid = -1
        info.uid = -1
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.retry_and_idle_policy = UnsafePointer(retry)
        info.timeout_secs = 10  // handshakes and stalled HTTP exchanges
        info.alpn = UnsafePointer(strings.make("http/1.1"))
        info.vhost_name = UnsafePointer(strings.make("default"))
        info.server_string = UnsafePointer(strings.make("parlor"))
        let tls = config.tlsCertificate != nil
        if let cert = config.tlsCertificate, let key = config.tlsKey {
            info.ssl_cert_filepath = UnsafePointer(strings.make(cert))
            info.ssl_private_key_filepath = UnsafePointer(strings.make(key))
            // TLS 1.2: forward-secret key exchange and AEAD only (no static RSA, no CBC);
            // TLS 1.3's suites are all of that already.
            info.ssl_cipher_list = UnsafePointer(strings.make(
                "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
                + "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"))
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
        let actions = inbox.withLock { box -> [EngineAction] in
            let a = box
            box.removeAll(keepingCapacity: true)
            return a
        }
        for a in actions { perform(a) }
    }

    func makeId() -> UInt64 {
        defer { nextId += 1 }
        return nextId
    }

    /// The sweep (sign-in timeouts, upload deadlines, refusal logs) runs once a second.
    func scheduleSweep() {
        guard let ctx = context else { return }
        if sweepTimer == nil {
            let t = UnsafeMutablePointer<parlor_timer>.allocate(capacity: 1)
            t.initialize(to: parlor_timer())
            t.pointee.user = Unmanaged.passUnretained(self).toOpaque()
            sweepTimer = t
        }
        lws_sul_schedule(ctx, 0, &sweepTimer!.pointee.sul, sweepFired, 1_000_000)
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
