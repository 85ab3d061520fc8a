import ArgumentParser
import Foundation
import Logging
import Metrics
import ParlorCore
import Prometheus
import ParlorServer

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the web client, the API and live updates.")

    @Option(help: "Address to listen on.") var host = "0.0.0.0"
    @Option(help: "Port to listen on (0 picks a free one).") var port = 8080
    @Option(help: "Directory for the database and uploaded images.") var data = "./data"
    @Option(name: .customLong("public"), help: "Directory of the web client and its apps.") var publicDir = "./Public"
    @Option(help: "TLS certificate (PEM); serves https and wss.") var tlsCert: String?
    @Option(help: "TLS private key (PEM).") var tlsKey: String?
    @Option(help: "An extra Origin allowed to open the WebSocket (repeatable).") var allowedOrigin: [String] = []
    @Option(help: "The origin people open Parlor at, e.g. https://chat.example.org (repeatable); needed with --apps-origin.")
    var origin: [String] = []
    @Option(help: "Serve app pages from this separate origin, e.g. https://apps.example.org (see deploy/README.md).")
    var appsOrigin: String?
    @Option(help: "Open connections one client address may hold (0: no limit).") var maxConnectionsPerIp = 64
    @Option(help: "A reverse proxy whose X-Forwarded-For is trusted (repeatable; default 127.0.0.1 and ::1).")
    var trustedProxy: [String] = []
    @Option(help: "MiB of free disk kept in reserve: under it /health fails and uploads are refused.")
    var minFreeDiskMb = 64
    @Option(help: "Seconds a graceful stop (SIGTERM) waits for answers and closes.") var drainSeconds = 10
    @Option(help: "trace, debug, info, notice, warning, error or critical.") var logLevel = "info"
    @Option(help: "poll (the default) or libev (epoll).") var eventLoop = "poll"

    func validate() throws {
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0–65535") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
        guard ServerConfig.EventLoop(rawValue: eventLoop) != nil else { throw ValidationError("--event-loop is libev or poll") }
        for o in origin + (appsOrigin.map { [$0] } ?? []) {
            guard o.hasPrefix("https://") || o.hasPrefix("http://"), !o.dropFirst(8).contains("/") else {
                throw ValidationError("\(o) is not an origin (scheme://host[:port], no path)")
            }
        }
        if appsOrigin != nil && origin.isEmpty {
            throw ValidationError("--apps-origin needs --origin: the apps only let the host's origin frame them")
        }
        guard maxConnectionsPerIp >= 0 else { throw ValidationError("--max-connections-per-ip must be 0 or more") }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: publicDir, isDirectory: &isDir), isDir.boolValue else {
            throw ValidationError("--public \(publicDir) is not a directory")
        }
    }

    func run() throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { _ in LineLogHandler(logLevel: level) }
        let log = Logger(label: "parlor")

        // Whatever umask the shell had, the database and images are this user's only.
        umask(0o077)
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Acks and batches take well under a millisecond on a quiet server.
        factory.defaultDurationHistogramBuckets = [100, 250, 500, 1000, 2500, 5000, 10_000, 25_000, 50_000,
                                                   100_000, 250_000, 1_000_000].map { Duration.microseconds($0) }
        factory.defaultValueHistogramBuckets = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048]
        MetricsSystem.bootstrap(factory)
        let (store, blobs) = try DataDirectory.open(data, log: log)
        let engine = Engine(store: store, apps: AppCatalog(publicDirectory: publicDir), blobs: blobs, logger: log)

        var config = ServerConfig(host: host, port: port, publicDirectory: publicDir, tlsCertificate: tlsCert,
                                  tlsKey: tlsKey, allowedOrigins: allowedOrigin)
        config.eventLoop = ServerConfig.EventLoop(rawValue: eventLoop) ?? .poll
        config.appsOrigin = appsOrigin
        config.publicOrigins = origin
        config.maxConnectionsPerIP = maxConnectionsPerIp
        config.minFreeDiskBytes = minFreeDiskMb << 20
        if !trustedProxy.isEmpty { config.trustedProxies = Set(trustedProxy) }
        let server = LWSServer(config: config, blobs: blobs, logger: log)
        server.renderMetrics = { registry.emitToBuffer() }
        let engineThread = EngineThread(engine: engine) { actions in server.post(actions) }
        engineThread.start()
        let bound = try server.start(engine: engineThread)
        let scheme = tlsCert == nil ? "http" : "https"
        log.info("listening on \(scheme)://\(host):\(bound)", metadata: ["data": "\(data)", "public": "\(publicDir)"])

        let done = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGTERM, SIGINT] {
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            s.setEventHandler { done.signal() }
            s.resume()
            sources.append(s)
        }
        done.wait()
        log.info("shutting down")
        // Requests already read are answered and every WebSocket closed with 1001;
        // what is still open after the timeout is closed anyway.
        server.drainAndStop(timeout: .seconds(drainSeconds))
        engineThread.stop()
        log.info("stopped")
    }
}
