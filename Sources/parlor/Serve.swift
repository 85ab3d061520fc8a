import ArgumentParser
import Foundation
import Logging
import Metrics
import ParlorCluster
import ParlorCore
import Prometheus
import ParlorServer

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the web client, the API and live updates.")

    // No defaults here: a flag given wins over the environment and the file, which
    // win over ServeSettings' defaults (see ServeSettings.swift).
    @Option(help: "Address to listen on (default 0.0.0.0).") var host: String?
    @Option(help: "Port to listen on, 0 picks a free one (default 8080).") var port: Int?
    @Option(help: "Directory for the database and uploaded images (default ./data).") var data: String?
    @Option(help: "A PostgreSQL URL (postgres://user@host/db): the store the nodes of a cluster share (default: SQLite in the data directory).")
    var store: String?
    @Option(help: "A NATS URL (nats://host:4222): the bus between the nodes of a cluster; needs --store.") var bus: String?
    @Option(help: "Seconds one round trip to PostgreSQL may go unanswered before its batch fails and the connection is dropped (default 10).")
    var storeTimeoutSeconds: Int?
    @Option(help: "Seconds a node may go without storing anything while it cannot reach PostgreSQL before it closes its connections with 1013 (try another node) and refuses new ones until it reaches it again, 0 for never (default 15).")
    var storeLostSeconds: Int?
    @Option(name: .customLong("public"), help: "Directory of the web client and its apps (default ./Public).")
    var publicDir: String?
    @Option(help: "TLS certificate (PEM); serves https and wss.") var tlsCert: String?
    @Option(help: "TLS private key (PEM).") var tlsKey: String?
    @Option(help: "An extra Origin allowed to open the WebSocket (repeatable).") var allowedOrigin: [String] = []
    @Option(help: "The origin people open Parlor at, e.g. https://chat.example.org (repeatable); needed with --apps-origin.")
    var origin: [String] = []
    @Option(help: "Serve app pages from this separate origin, e.g. https://apps.example.org (see deploy/README.md).")
    var appsOrigin: String?
    @Option(help: "Open connections one client address may hold, 0 for no limit (default 64).")
    var maxConnectionsPerIp: Int?
    @Option(help: "A reverse proxy whose X-Forwarded-For is trusted (repeatable; default 127.0.0.1 and ::1).")
    var trustedProxy: [String] = []
    @Option(help: "MiB of free disk kept in reserve: under it /health fails and uploads are refused (default 64).")
    var minFreeDiskMb: Int?
    @Option(help: "Seconds a graceful stop (SIGTERM) waits for answers and closes (default 10).") var drainSeconds: Int?
    @Option(help: "Seconds of silence after which a connection is pinged; closed after twice that (default 20).")
    var keepaliveSeconds: Int?
    @Option(help: "Milliseconds the oldest unanswered request may wait before sends are refused as server_busy, 0 for never (default 1000).")
    var busyAfterMs: Int?
    @Option(help: "trace, debug, info, notice, warning, error or critical (default info).") var logLevel: String?
    @Option(help: "line (the default) or json.") var logFormat: String?
    @Option(help: "libev (epoll, the default) or poll.") var eventLoop: String?
    @Option(help: "Who may create an account: open, invite (the default: with an invite or a registration link) or closed (only with a registration link).")
    var registration: String?
    @Option(help: "Days an invite lasts unless its creator asks for less (default 7).") var inviteDays: Int?
    @Option(help: "Minutes a device link can be used (default 10).") var deviceLinkMinutes: Int?
    @Option(help: "Seconds after sending it that its sender may edit a text message (default 900).") var editSeconds: Int?
    // Limits: COUNT/SECONDS, 0 for none (deploy/README.md, "Running a community").
    @Option(help: "New connections one client address may open (default 120/60).") var limitNewConnections: String?
    @Option(help: "Accounts one address may create (default 10/3600).") var limitRegistrations: String?
    @Option(help: "Failed sign-ins from one address before it must wait (default 20/3600).") var limitSignInFailures: String?
    @Option(help: "Messages one user may send (default 5/1).") var limitSends: String?
    @Option(help: "Messages one user may send in a burst (default 30).") var limitSendBurst: Int?
    @Option(help: "Conversations one user may create (default 20/3600).") var limitConversations: String?
    @Option(help: "Invites and device links one user may create (default 60/3600).") var limitInvites: String?
    @Option(help: "Renames and recovery keys one user may make (default 5/1, in a burst of 30).") var limitChanges: String?
    @Option(help: "Apps' storage writes one user may make (default 20/1, in a burst of 60).") var limitAppDataWrites: String?
    @Option(help: "Sessions one user may mark open or closed in the app pane (default 60/60, in a burst of 30).") var limitPlaying: String?
    @Option(help: "Read marks one user may send (default 10/1, in a burst of 60).") var limitReadMarks: String?
    @Option(help: "Typing notices one user may send (default 60/60, in a burst of 30).") var limitTyping: String?
    @Option(help: "Searches one user may make in a conversation (default 2/1, in a burst of 10).") var limitSearches: String?
    @Option(help: "Reports of messages to the admins one user may make (default 20/3600, in a burst of 10).") var limitReports: String?
    @Option(help: "Blocks and unblocks one user may make (default 30/3600, in a burst of 20).") var limitBlocks: String?
    @Option(help: "Image bytes one user may upload (default 209715200/86400: 200 MiB a day).") var limitUploadBytes: String?
    @Option(help: "MiB of images one user's uploads may keep stored, 0 for no limit (default 1024).") var limitStoredImageMb: Int?
    @Option(help: "Rate-limited requests in a row after which a connection is closed with 1008 (default 10).")
    var limitRefusalsBeforeClose: Int?
    @Option(help: "Seconds an uploaded image no message shows is kept before it is deleted (default 86400).")
    var imageGraceSeconds: Int?
    @Option(help: "A JSON file of settings, keyed like the flags (also PARLOR_CONFIG).") var config: String?

    /// How long a stop waits for the engine's last batches after the drain.
    static let engineStopSeconds = 5.0

    func run() throws {
        // SIGTERM and SIGINT are blocked before any thread exists, so every thread
        // inherits the block and the signal waits for `sigwait` below. Left unblocked in
        // the service or engine thread, one could take it and drop it (it was ignored
        // there for the dispatch source): 1 stop in 150 never began.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGTERM)
        sigaddset(&stopSignals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        let settings = try ServeSettings.resolve(self)
        LoggingSystem.bootstrap { _ in LineLogHandler(logLevel: settings.logLevel, format: settings.logFormat) }
        let log = Logger(label: "parlor")
        let (host, data, publicDir, tlsCert) = (settings.host, settings.data, settings.publicDir, settings.tlsCert)

        // Whatever umask the shell had, the database and images are this user's only.
        umask(0o077)
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Acks and batches take well under a millisecond on a quiet server.
        factory.defaultDurationHistogramBuckets = [100, 250, 500, 1000, 2500, 5000, 10_000, 25_000, 50_000,
                                                   100_000, 250_000, 1_000_000].map { Duration.microseconds($0) }
        factory.defaultValueHistogramBuckets = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048]
        MetricsSystem.bootstrap(factory)
        // The nodes of a cluster share the image directory; on SQLite one server owns it.
        let (store, blobs) = try DataDirectory.open(data, store: settings.store, log: log, serving: true,
                                                    storeTimeoutSeconds: settings.storeTimeoutSeconds)
        OrphanImages.collect(store, blobs, shared: settings.store != nil, log: log)
        let engine = Engine(store: store, apps: AppCatalog(publicDirectory: publicDir), blobs: blobs, logger: log,
                            settings: settings.engine)

        var config = ServerConfig(host: host, port: settings.port, publicDirectory: publicDir, tlsCertificate: tlsCert,
                                  tlsKey: settings.tlsKey, allowedOrigins: settings.allowedOrigins)
        config.eventLoop = settings.eventLoop
        config.appsOrigin = settings.appsOrigin
        config.publicOrigins = settings.origins
        config.maxConnectionsPerIP = settings.maxConnectionsPerIP
        config.newConnectionsPerAddress = settings.newConnectionsPerAddress
        config.minFreeDiskBytes = settings.minFreeDiskMB << 20
        config.keepaliveSeconds = settings.keepaliveSeconds
        config.busyAfterMs = settings.busyAfterMs
        if !settings.trustedProxies.isEmpty { config.trustedProxies = Set(settings.trustedProxies) }
        let server = LWSServer(config: config, blobs: blobs, logger: log)
        server.renderMetrics = { registry.emitToBuffer() }
        let bus: NATSBus?
        do {
            bus = try settings.bus.map { try NATSBus(url: $0, name: "parlor-\(ProcessInfo.processInfo.hostName)-\(getpid())", log: log) }
        } catch let e as StoreError {
            log.critical("cannot start: \(e.description)")
            throw ExitCode(1)
        }
        if settings.store != nil && bus == nil {
            log.warning("no --bus: fine for one node; with several, sign-outs and room events do not reach the others (deploy/CLUSTER.md)")
        }
        // Other nodes hear of a batch only after it committed, like this node's clients.
        // The bus first: it listens to a conversation's subject before the live state
        // asks the other nodes for their presence there (and they answer on it).
        let engineThread = EngineThread(engine: engine) { actions in
            bus?.publish(actions)
            server.post(actions)
        }
        if let bus {
            server.publishPresence = { bus.publishPresence($0) }
            bus.start(news: { engineThread.submit(.conversationNews(conversationId: $0)) },
                      signedOut: { engineThread.submit(.signedOutElsewhere(device: $0, user: $1)) },
                      events: { server.post($0) },
                      presence: { server.receivePresence(from: $0, $1) })
        }
        engineThread.start()
        let bound = try server.start(engine: engineThread)
        let scheme = tlsCert == nil ? "http" : "https"
        log.info("listening on \(scheme)://\(host):\(bound)", metadata: ["data": "\(data)", "public": "\(publicDir)",
                                                                    "store": "\(settings.store == nil ? "sqlite" : "postgres")", "bus": "\(bus == nil ? "none" : "nats")",
                                                                    "registration": "\(settings.engine.registration.rawValue)"])
        // a full disk refuses every write: said at once, not first at the first refusal
        if let problem = server.diskProblem() {
            log.warning("the data directory's disk is under its reserve: uploads are refused, and every write once it is full (disk_full), until space is freed",
                        metadata: ["problem": "\(problem)"])
        }

        var received: Int32 = 0
        sigwait(&stopSignals, &received)
        log.info("shutting down", metadata: ["signal": "\(received == SIGINT ? "SIGINT" : "SIGTERM")"])
        // Requests already read are answered and every WebSocket closed with 1001;
        // what is still open after the timeout is closed anyway.
        server.drainAndStop(timeout: .seconds(settings.drainSeconds))
        bus?.flush()  // the closed connections' presence, gone offline for the other nodes
        // Every client is gone: what the engine still runs can be answered to no one. A
        // database that does not answer would hold it up to a deadline per batch, each
        // connecting again first; past a few seconds its waits are cut short.
        if !engineThread.stop(within: Self.engineStopSeconds) {
            log.warning("the database does not answer: the engine's last batches are given up")
            (store as? PostgresStore)?.stopWaiting()
            engineThread.stop()
        }
        log.info("stopped")
    }
}
