import Foundation

/// Open connections, counted per client address and in all, so that one address cannot
/// take every connection and the process never reaches its file-descriptor limit (where
/// accept() fails with EMFILE on every loop turn and nobody else gets in).
struct PeerLimits {
    let perAddress: Int
    let total: Int
    private(set) var open = 0
    private var byAddress: [String: Int] = [:]

    enum Refusal: Equatable { case address, server }

    init(perAddress: Int, total: Int) {
        self.perAddress = perAddress
        self.total = total
    }

    /// Counts one more connection from `address` (nil: only the total), or says why not.
    mutating func admit(_ address: String?) -> Refusal? {
        if open >= total { return .server }
        if let address {
            let n = byAddress[address, default: 0]
            if perAddress > 0 && n >= perAddress { return .address }
            byAddress[address] = n + 1
        }
        open += 1
        return nil
    }

    mutating func release(_ address: String?) {
        open -= 1
        guard let address, let n = byAddress[address] else { return }
        byAddress[address] = n > 1 ? n - 1 : nil
    }

    func count(_ address: String) -> Int { byAddress[address] ?? 0 }

    /// The connections this process can hold: its file-descriptor limit (raised to the
    /// hard limit first) less a reserve for the database, uploads, files being served and
    /// the listener's own recovery.
    static func processCapacity(reserve: Int = 256) -> Int {
        var lim = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &lim) == 0 else { return 1024 - reserve }
        if lim.rlim_cur < lim.rlim_max {
            var raised = lim
            raised.rlim_cur = lim.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { lim = raised }
        }
        return max(16, Int(min(lim.rlim_cur, 1 << 22)) - reserve)
    }

    /// A numeric address as text; an IPv4 address mapped into IPv6 reads as IPv4.
    static func address(_ storage: UnsafePointer<sockaddr_storage>, _ length: socklen_t) -> String? {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let r = storage.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            getnameinfo($0, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
        }
        guard r == 0 else { return nil }
        return normalized(String(cString: host))
    }

    static func normalized(_ address: String) -> String {
        address.hasPrefix("::ffff:") && address.contains(".") ? String(address.dropFirst(7)) : address
    }
}
