import CLibWebSockets
import Logging

/// libwebsockets' own log lines go through swift-log, so everything the server writes
/// has one format (and `--log-format json` covers them too).
enum LibWebSocketsLog {
    static let logger = Logger(label: "lws")

    static func route() {
        lws_set_log_level(LLL_ERR | LLL_WARN | LLL_NOTICE, emitLibWebSocketsLine)
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
    // lws's notices (its version and build at start) are for debugging.
    let l: Logger.Level = level & Int32(LLL_ERR) != 0 ? .error : level & Int32(LLL_WARN) != 0 ? .warning : .debug
    LibWebSocketsLog.logger.log(level: l, "\(text)", metadata: ["source": "lws"])
}
