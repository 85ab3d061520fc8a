import CLibWebSockets
import Foundation
import Logging
import Synchronization

/// libwebsockets' own log lines go through swift-log, so everything the server writes
/// has one format (and `--log-format json` covers them too).
enum LibWebSocketsLog {
    static let logger = Logger(label: "lws")

    /// lws's notices (its version and build at start, and a line for many a connection's
    /// events) are written at debug, so they are asked for only then: otherwise a few
    /// dozen connections at once filled the second's allowance and were logged as lines
    /// held back.
    static func route() {
        let notices = logger.logLevel <= .debug ? Int32(LLL_NOTICE) : 0
        lws_set_log_level(Int32(LLL_ERR | LLL_WARN) | notices, emitLibWebSocketsLine)
    }

    /// At most this many of lws's lines a second; the rest are counted and said in one
    /// line. Out of file descriptors, lws 4.1 retries accept() on every loop turn and
    /// logs each failure: 1.7 million lines (105 MB) in 30 s (an outside review).
    static let linesPerSecond = 20

    /// Lines written and held back in the current second.
    struct Window {
        var second: UInt64 = 0
        var lines = 0
        var suppressed = 0
        var last = ""

        /// Whether a line may be written now; when a new second begins, the count of
        /// those held back in the last one (and the last of them) is returned to say.
        mutating func take(_ text: String, now: UInt64) -> (write: Bool, held: (Int, String)?) {
            var held: (Int, String)?
            if second != now {
                if suppressed > 0 { held = (suppressed, last) }
                self = Window(second: now)
            }
            lines += 1
            guard lines <= LibWebSocketsLog.linesPerSecond else {
                suppressed += 1
                last = text
                return (false, held)
            }
            return (true, held)
        }
    }

    static let window = Mutex(Window())

    static func admit(_ text: String) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds / 1_000_000_000
        let (write, held) = window.withLock { $0.take(text, now: now) }
        if let (n, last) = held { logSuppressed(n, last) }
        return write
    }

    /// Said by the sweep once a second, so that the last second of a flood is counted too.
    static func flushSuppressed() {
        let held = window.withLock { w -> (Int, String)? in
            guard w.suppressed > 0 else { return nil }
            defer { w.suppressed = 0 }
            return (w.suppressed, w.last)
        }
        if let (n, last) = held { logSuppressed(n, last) }
    }

    private static func logSuppressed(_ n: Int, _ last: String) {
        logger.warning("lws lines not written", metadata: ["count": "\(n)", "last": "\(last)", "source": "lws"])
    }
}

/// lws's emit callback: a C function pointer, so a top-level function capturing nothing.
private func emitLibWebSocketsLine(_ level: Int32, _ line: UnsafePointer<CChar>?) {
    guard let line else { return }
    var text = String(cString: line)
    while text.last == "\n" || text.last == "\r" { text.removeLast() }
    // Parlor logs each refusal itself, with why: lws's line for it would repeat it, at
    // WARNING, once per refused client.
    if text == "User code denied connection" { return }
    guard LibWebSocketsLog.admit(text) else { return }
    // lws's notices are for debugging (`route`).
    let l: Logger.Level = level & Int32(LLL_ERR) != 0 ? .error : level & Int32(LLL_WARN) != 0 ? .warning : .debug
    LibWebSocketsLog.logger.log(level: l, "\(text)", metadata: ["source": "lws"])
}
