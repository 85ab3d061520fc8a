/// How `parlor serve` was asked to run.
public struct ServerConfig: Sendable {
    public var host: String
    public var port: Int
    public var publicDirectory: String
    public var tlsCertificate: String?
    public var tlsKey: String?
    /// Origins allowed to open the WebSocket besides the server's own host.
    public var allowedOrigins: [String]
    public var eventLoop: EventLoop = .poll

    /// The loop libwebsockets runs on. poll() scans every socket on every turn but only
    /// flips a flag to ask for a writeable callback; libev (epoll) pays an epoll_ctl for
    /// each. Measured with bench/run: poll fans out to a 1,000-member room 1.4x faster,
    /// libev does better with thousands of mostly idle connections.
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
