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
    /// use", "Cannot assign requested address"), or nil when it can.
    func bindError(port: Int) -> String? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(address, String(port), &hints, &list)
        guard rc == 0, let a = list else { return String(cString: gai_strerror(rc)) }
        defer { freeaddrinfo(list) }
        let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype, 0)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        var on: Int32 = 1 // as lws sets it: a port a server just left (TIME_WAIT) is free
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        return bind(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 ? nil : String(cString: strerror(errno))
    }
}
