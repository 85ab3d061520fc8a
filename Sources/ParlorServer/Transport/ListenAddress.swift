import Foundation

/// What `--host` names, as the numeric address to bind: lws takes an address or an
/// interface name, so a host name is resolved here, once, at start.
struct ListenAddress: Equatable {
    let address: String
    let isIPv4: Bool

    static func resolve(_ host: String) -> ListenAddress? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return ListenAddress(address: host, isIPv4: true) }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 { return ListenAddress(address: host, isIPv4: false) }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        var buf = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(first.pointee.ai_addr, first.pointee.ai_addrlen, &buf, socklen_t(buf.count), nil, 0,
                          NI_NUMERICHOST) == 0 else { return nil }
        return ListenAddress(address: String(cString: buf), isIPv4: first.pointee.ai_family == AF_INET)
    }

    /// Why the port cannot be bound here, as the system says it ("Address already in
    /// use"), or nil when it can: asked once lws failed to listen, which says no more
    /// than "failed".
    func bindError(port: Int) -> String? {
        let fd = socket(isIPv4 ? AF_INET : AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let result: Int32
        if isIPv4 {
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, address, &a.sin_addr)
            result = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        } else {
            var a = sockaddr_in6()
            a.sin6_family = sa_family_t(AF_INET6)
            a.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, address, &a.sin6_addr)
            result = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        }
        return result == 0 ? nil : String(cString: strerror(errno))
    }
}
