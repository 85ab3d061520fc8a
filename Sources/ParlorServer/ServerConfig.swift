import ParlorCore

/// How `parlor serve` was asked to run.
public struct ServerConfig: Sendable {
    public var host: String
    public var port: Int
    public var publicDirectory: String
    public var tlsCertificate: String?
    public var tlsKey: String?
    /// Origins allowed to open the WebSocket besides the server's own host.
    public var allowedOrigins: [String]
    public var eventLoop: EventLoop = .libev
    /// Where app pages are served from, when not from the host's own origin (the
    /// stronger setup: an app is then another site even for a browser that ignores
    /// the CSP sandbox). Requests whose Host is this origin's get only /apps/ and /sdk/.
    public var appsOrigin: String?
    /// The origins the host page is opened at, for the apps' frame-ancestors when they
    /// are served from `appsOrigin` (also allowed to open the WebSocket).
    public var publicOrigins: [String] = []
    /// Open connections one address may hold (WebSocket and HTTP together).
    public var maxConnectionsPerIP = 64
    /// Peers whose X-Forwarded-For names the client (a reverse proxy on this machine):
    /// their connections are counted per forwarded address at the WebSocket handshake.
    /// Free space kept in reserve on the data directory's disk: under it /health fails
    /// and uploads are refused, before SQLite itself runs out.
    public var minFreeDiskBytes = 64 << 20
    public var trustedProxies: Set<String> = ["127.0.0.1", "::1"]
    /// New connections one client address may open: a reconnect storm or a scan is
    /// refused at accept instead of costing a handshake each. Browsers open a few per
    /// page load and reconnect with backoff, so this is generous.
    public var newConnectionsPerAddress = Rate(120, per: 60)
    /// Seconds of silence after which a connection is pinged, and half the time after
    /// which one that does not answer is closed.
    public var keepaliveSeconds = Limits.keepaliveSeconds
    public var busyAfterMs = Limits.busyAfterMs

    /// The loop libwebsockets runs on. poll() scans every socket on every turn; libev
    /// (epoll) pays only for sockets that are ready. libev used to lose the big room
    /// (an epoll_ctl per writeable request); since writes go out at once unless a socket
    /// is backed up, it fans out 2-3x faster too (bench/run, docs/BENCHMARKS.md).
    public enum EventLoop: String, Sendable, CaseIterable {
        case libev, poll
    }

    public init(host: String, port: Int, publicDirectory: String, tlsCertificate: String? = nil,
                tlsKey: String? = nil, allowedOrigins: [String] = []) {
        self.host = host
        self.port = port
        self.publicDirectory = publicDirectory
        self.tlsCertificate = tlsCertificate
        self.tlsKey = tlsKey
        self.allowedOrigins = allowedOrigins
    }
}
