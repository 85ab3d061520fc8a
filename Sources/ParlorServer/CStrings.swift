import Foundation

/// C strings that libwebsockets keeps pointers to for the life of the context
/// (protocol names, interface, certificate paths, ALPN). Freed only after
/// `lws_context_destroy`.
final class CStrings {
    private var owned: [UnsafeMutablePointer<CChar>] = []

    func make(_ s: String) -> UnsafeMutablePointer<CChar> {
        let p = strdup(s)!
        owned.append(p)
        return p
    }

    func free() {
        for p in owned { Foundation.free(p) }
        owned.removeAll()
    }
}
