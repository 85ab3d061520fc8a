import Foundation

/// The validator of a served file (RFC 9110 §8.8.3): its last change, to the nanosecond,
/// and its size, as nginx makes them. A file replaced under `Public/` (an upgrade) gets
/// a new one, so a browser never keeps an old script past its revalidation.
enum EntityTag {
    static func of(size: Int, changed: timespec) -> String {
        let ns = UInt64(max(changed.tv_sec, 0)) &* 1_000_000_000 &+ UInt64(max(changed.tv_nsec, 0))
        return "\"" + String(ns, radix: 16) + "-" + String(size, radix: 16) + "\""
    }

    /// Whether If-None-Match names `tag` (a list of tags, weak ones compared weakly as
    /// §13.1.2 asks, or `*`). Absent, or too long to be a browser's, it does not.
    static func matches(_ tag: String, _ ifNoneMatch: String?) -> Bool {
        guard let header = ifNoneMatch, header.utf8.count <= 1024 else { return false }
        return header.split(separator: ",").contains { item in
            var t = item.trimmingCharacters(in: .whitespaces)
            if t == "*" { return true }
            if t.hasPrefix("W/") { t.removeFirst(2) }
            return t == tag
        }
    }

    /// What a 304 repeats of the full answer: its validator and its caching rule
    /// (§15.4.5); the rest stays as the browser cached it.
    static func notModifiedHeaders(_ tag: String, of headers: String) -> [(String, String)] {
        [("etag:", tag)] + StaticFiles.pairs(headers).filter { $0.0 == "cache-control:" }
    }
}
