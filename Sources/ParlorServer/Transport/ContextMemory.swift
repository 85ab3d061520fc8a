import CLibWebSockets
import Foundation

/// Memory libwebsockets points into for the life of a context: the protocol table,
/// the retry policy, the sweep timer and C strings (names, interface, certificate
/// paths). Allocated once, so a second attempt at a context (libev unavailable, poll
/// instead) reuses it, and freed once, after `lws_context_destroy`.
final class ContextMemory {
    let protocols: UnsafeMutablePointer<lws_protocols>
    let protocolCount = 3
    let retry: UnsafeMutablePointer<lws_retry_bo_t>
    let sweepTimer: UnsafeMutablePointer<parlor_timer>
    private var strings: [String: UnsafeMutablePointer<CChar>] = [:]
    private(set) var freed = false

    init() {
        protocols = .allocate(capacity: protocolCount)
        protocols.initialize(repeating: lws_protocols(), count: protocolCount)
        retry = .allocate(capacity: 1)
        retry.initialize(to: lws_retry_bo_t())
        sweepTimer = .allocate(capacity: 1)
        sweepTimer.initialize(to: parlor_timer())
    }

    /// A C copy of `s` that lives until `free()`; the same string gives the same copy.
    func string(_ s: String) -> UnsafePointer<CChar> {
        if let p = strings[s] { return UnsafePointer(p) }
        let p = strdup(s)!
        strings[s] = p
        return UnsafePointer(p)
    }

    /// Idempotent; only once lws no longer points here (after `lws_context_destroy`).
    func free() {
        guard !freed else { return }
        freed = true
        for p in strings.values { Foundation.free(p) }
        strings.removeAll()
        protocols.deallocate()
        retry.deallocate()
        sweepTimer.deallocate()
    }

    deinit {
        assert(freed, "libwebsockets' memory dropped without free(): was the context destroyed?")
        free()
    }
}
