import ArgumentParser
import Configuration
import Foundation
import Logging
import ParlorCore
import ParlorServer
import Synchronization
import SystemPackage

/// Everything `parlor serve` runs with, from (first wins) its flags, the environment
/// (`PARLOR_PORT`, `PARLOR_APPS_ORIGIN`, … lists comma-separated) and an optional JSON
/// file (`--config` or `PARLOR_CONFIG`: `{"port": 8080, "trusted-proxy": ["127.0.0.1"]}`),
/// read through swift-configuration.
struct ServeSettings {
    var host = "0.0.0.0"
    var port = 8080
    var data = "./data"
    /// A PostgreSQL URL: cluster mode's shared store. Nil: SQLite in `data`.
    var store: String?
    /// A NATS URL: the bus between the nodes of a cluster.
    var bus: String?
    var storeTimeoutSeconds = PostgresStore.defaultTimeoutSeconds
    var publicDir = "./Public"
    var tlsCert: String?
    var tlsKey: String?
    var allowedOrigins: [String] = []
    var origins: [String] = []
    var appsOrigin: String?
    var maxConnectionsPerIP = 64
    var trustedProxies: [String] = []
    var minFreeDiskMB = 64
    var drainSeconds = 10
    var keepaliveSeconds = Limits.keepaliveSeconds
    var busyAfterMs = Limits.busyAfterMs
    var logLevel = Logger.Level.info
    var logFormat = LineLogHandler.Format.line
    var eventLoop = ServerConfig.EventLoop.libev
    /// Registration, invites, links and limits: the community's rules.
    var engine = EngineSettings()
    var newConnectionsPerAddress = Rate(120, per: 60)

    static func resolve(_ o: Serve) throws -> ServeSettings {
        var flags: [AbsoluteConfigKey: ConfigValue] = [:]
        func put(_ key: String, _ v: String?) { if let v { flags[AbsoluteConfigKey([key])] = .init(.string(v), isSecret: false) } }
        func put(_ key: String, _ v: Int?) { if let v { flags[AbsoluteConfigKey([key])] = .init(.int(v), isSecret: false) } }
        func put(_ key: String, _ v: [String]) {
            if !v.isEmpty { flags[AbsoluteConfigKey([key])] = .init(.stringArray(v), isSecret: false) }
        }
        put("host", o.host); put("port", o.port); put("data", o.data); put("public", o.publicDir)
        put("store", o.store); put("bus", o.bus); put("store-timeout-seconds", o.storeTimeoutSeconds)
        put("store-lost-seconds", o.storeLostSeconds)
        put("tls-cert", o.tlsCert); put("tls-key", o.tlsKey); put("allowed-origin", o.allowedOrigin)
        put("origin", o.origin); put("apps-origin", o.appsOrigin); put("max-connections-per-ip", o.maxConnectionsPerIp)
        put("trusted-proxy", o.trustedProxy); put("min-free-disk-mb", o.minFreeDiskMb)
        put("drain-seconds", o.drainSeconds); put("log-level", o.logLevel); put("log-format", o.logFormat)
        put("keepalive-seconds", o.keepaliveSeconds)
        put("busy-after-ms", o.busyAfterMs)
        put("event-loop", o.eventLoop)
        put("registration", o.registration); put("invite-days", o.inviteDays)
        put("device-link-minutes", o.deviceLinkMinutes)
        put("edit-seconds", o.editSeconds)
        put("limit-registrations", o.limitRegistrations); put("limit-sign-in-failures", o.limitSignInFailures)
        put("limit-sends", o.limitSends); put("limit-send-burst", o.limitSendBurst)
        put("limit-new-connections", o.limitNewConnections)
        put("limit-conversations", o.limitConversations); put("limit-invites", o.limitInvites)
        put("limit-changes", o.limitChanges); put("limit-app-data-writes", o.limitAppDataWrites)
        put("limit-playing", o.limitPlaying); put("limit-read-marks", o.limitReadMarks)
        put("limit-typing", o.limitTyping)
        put("limit-searches", o.limitSearches)
        put("limit-reports", o.limitReports)
        put("limit-blocks", o.limitBlocks)
        put("limit-upload-bytes", o.limitUploadBytes); put("limit-stored-image-mb", o.limitStoredImageMb)
        put("limit-refusals-before-close", o.limitRefusalsBeforeClose)
        put("image-grace-seconds", o.imageGraceSeconds)

        let environment = ProcessInfo.processInfo.environment
        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "flags", values: flags),
            // PARLOR_MAX_CONNECTIONS_PER_IP for the key max-connections-per-ip.
            EnvironmentVariablesProvider(environmentVariables: Dictionary(uniqueKeysWithValues: environment
                .filter { $0.key.hasPrefix("PARLOR_") }
                .map { (String($0.key.dropFirst(7)), $0.value) })),
        ]
        if let file = o.config ?? environment["PARLOR_CONFIG"] {
            providers.append(try loadFile(file))
        }
        let config = ConfigReader(providers: providers)

        var s = ServeSettings()
        s.host = config.string(forKey: "host", default: s.host)
        s.port = config.int(forKey: "port", default: s.port)
        s.data = config.string(forKey: "data", default: s.data)
        s.publicDir = config.string(forKey: "public", default: s.publicDir)
        // A URL may carry a password: kept out of anything printed.
        s.store = config.string(forKey: "store", isSecret: true)
        s.bus = config.string(forKey: "bus", isSecret: true)
        s.storeTimeoutSeconds = config.int(forKey: "store-timeout-seconds", default: s.storeTimeoutSeconds)
        s.engine.databaseLostSeconds = config.int(forKey: "store-lost-seconds", default: s.engine.databaseLostSeconds)
        s.tlsCert = config.string(forKey: "tls-cert")
        s.tlsKey = config.string(forKey: "tls-key", isSecret: true)
        s.allowedOrigins = config.stringArray(forKey: "allowed-origin", default: [])
        s.origins = config.stringArray(forKey: "origin", default: [])
        s.appsOrigin = config.string(forKey: "apps-origin")
        s.maxConnectionsPerIP = config.int(forKey: "max-connections-per-ip", default: s.maxConnectionsPerIP)
        s.trustedProxies = config.stringArray(forKey: "trusted-proxy", default: [])
        s.minFreeDiskMB = config.int(forKey: "min-free-disk-mb", default: s.minFreeDiskMB)
        s.drainSeconds = config.int(forKey: "drain-seconds", default: s.drainSeconds)
        s.keepaliveSeconds = config.int(forKey: "keepalive-seconds", default: s.keepaliveSeconds)
        s.busyAfterMs = config.int(forKey: "busy-after-ms", default: s.busyAfterMs)
        let level = config.string(forKey: "log-level", default: "info")
        guard let l = Logger.Level(rawValue: level) else { throw ValidationError("unknown log level \(level)") }
        s.logLevel = l
        let format = config.string(forKey: "log-format", default: "line")
        guard let f = LineLogHandler.Format(rawValue: format) else { throw ValidationError("log format is line or json") }
        s.logFormat = f
        let loop = config.string(forKey: "event-loop", default: "libev")
        guard let e = ServerConfig.EventLoop(rawValue: loop) else { throw ValidationError("event loop is libev or poll") }
        s.eventLoop = e
        let registration = config.string(forKey: "registration", default: s.engine.registration.rawValue)
        guard let r = EngineSettings.Registration(rawValue: registration) else {
            throw ValidationError("registration is open, invite or closed")
        }
        s.engine.registration = r
        s.engine.inviteSeconds = config.int(forKey: "invite-days", default: 7) * 86_400
        s.engine.deviceLinkSeconds = config.int(forKey: "device-link-minutes", default: 10) * 60
        guard s.engine.inviteSeconds > 0, s.engine.deviceLinkSeconds > 0 else {
            throw ValidationError("invite-days and device-link-minutes must be 1 or more")
        }
        s.engine.editSeconds = config.int(forKey: "edit-seconds", default: s.engine.editSeconds)
        guard s.engine.editSeconds >= 0 else { throw ValidationError("edit-seconds must be 0 or more") }
        try s.readLimits(config)
        try s.validate()
        return s
    }

    /// FileProvider reads its file asynchronously; serve starts synchronously.
    private static func loadFile(_ path: String) throws -> any ConfigProvider {
        let result = Mutex<Result<FileProvider<JSONSnapshot>, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let loaded: Result<FileProvider<JSONSnapshot>, any Error>
            do { loaded = .success(try await FileProvider<JSONSnapshot>(filePath: FilePath(path))) }
            catch { loaded = .failure(error) }
            result.withLock { $0 = loaded }
            done.signal()
        }
        done.wait()
        switch result.withLock({ $0 })! {
        case .success(let p): return p
        case .failure(let e): throw ValidationError("cannot read the configuration file \(path): \(e)")
        }
    }

    static func isIPAddress(_ s: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, s, &v4) == 1 || inet_pton(AF_INET6, s, &v6) == 1
    }

    func validate() throws {
        if let store, !(store.hasPrefix("postgres://") || store.hasPrefix("postgresql://")) {
            throw ValidationError("store is a PostgreSQL URL (postgres://user@host:port/database); leave it out for SQLite")
        }
        if let bus, !bus.hasPrefix("nats://") { throw ValidationError("bus is a NATS URL (nats://host:4222)") }
        if bus != nil && store == nil { throw ValidationError("bus needs store: the nodes of a cluster share a PostgreSQL database") }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("tls-cert and tls-key go together") }
        for (name, path) in [("tls-cert", tlsCert), ("tls-key", tlsKey)] {
            if let path, !FileManager.default.isReadableFile(atPath: path) {
                throw ValidationError("\(name) \(path) cannot be read (no such file, or no permission)")
            }
        }
        guard (0...65535).contains(port) else { throw ValidationError("port must be 0–65535") }
        // an allowed origin with a path or a slash matched no browser's Origin header:
        // every handshake from that site was refused, with nothing said at start
        for o in origins + allowedOrigins + (appsOrigin.map { [$0] } ?? []) {
            guard o.hasPrefix("https://") || o.hasPrefix("http://"), !o.dropFirst(8).contains("/") else {
                throw ValidationError("\(o) is not an origin (scheme://host[:port], no path)")
            }
        }
        // a range or a name matched no peer, and replaced the loopback defaults: every
        // proxied client then counted as the proxy's one address for the per-IP limits
        for p in trustedProxies where !Self.isIPAddress(p) {
            throw ValidationError("trusted-proxy \(p) is not an IP address (one address each, as the proxy connects from; no ranges or names)")
        }
        if appsOrigin != nil && origins.isEmpty {
            throw ValidationError("apps-origin needs origin: the apps only let the host's origin frame them")
        }
        guard maxConnectionsPerIP >= 0 else { throw ValidationError("max-connections-per-ip must be 0 or more") }
        guard keepaliveSeconds >= 1 else { throw ValidationError("keepalive-seconds must be 1 or more") }
        guard busyAfterMs >= 0 else { throw ValidationError("busy-after-ms must be 0 or more") }
        // under lock_timeout (2 s), a wait for a locked conversation would drop the connection
        // and above an hour it is no bound any more (and its microseconds would overflow)
        guard (3...3600).contains(storeTimeoutSeconds) else {
            throw ValidationError("store-timeout-seconds must be from 3 to 3600")
        }
        guard (0...86_400).contains(engine.databaseLostSeconds) else {
            throw ValidationError("store-lost-seconds must be from 0 to 86400")
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: publicDir, isDirectory: &isDir), isDir.boolValue else {
            throw ValidationError("public \(publicDir) is not a directory")
        }
    }
}
