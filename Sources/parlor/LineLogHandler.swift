import Foundation
import Logging
import ParlorCore

/// One line per event on stderr: time, level, message, then key=value pairs (reads well
/// in `journalctl` and a terminal alike), or the same as one JSON object per line
/// (`--log-format json`, for log shippers).
struct LineLogHandler: LogHandler {
    enum Format: String, CaseIterable { case line, json }

    var logLevel: Logger.Level
    var format: Format = .line
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The level padded to 8, and never run into the message ("CRITICAL" is 8 long).
    static func levelColumn(_ level: Logger.Level) -> String {
        let name = level.rawValue.uppercased()
        return name.padding(toLength: max(8, name.count + 1), withPad: " ", startingAt: 0)
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        var line: [UInt8]
        switch format {
        case .line:
            var text = Self.timestamp() + " " + Self.levelColumn(event.level)
                + event.message.description
            for key in merged.keys.sorted() { text += " \(key)=\(Self.value("\(merged[key]!)"))" }
            line = Array(text.utf8)
        case .json:
            line = JSONWriter.object { w in
                w.field("time", Self.timestamp())
                w.field("level", event.level.rawValue)
                w.field("message", event.message.description)
                for key in merged.keys.sorted() where !["time", "level", "message"].contains(key) {
                    w.key(text: key); w.string("\(merged[key]!)")
                }
            }
        }
        line.append(0x0A)
        FileHandle.standardError.write(Data(line))
    }

    /// A value as it is, or quoted with escapes when it could be read as more than one
    /// value: a client's Origin or path reached the log verbatim, so a space and
    /// `by=shell` forged a field, and an escape byte drove the reader's terminal.
    static func value(_ v: String) -> String {
        func hidden(_ s: Unicode.Scalar) -> Bool {
            s.value < 0x20 || s.value == 0x7F || (s.value >= 0x80 && s.value < 0xA0) || s.properties.generalCategory == .format
        }
        if !v.isEmpty && !v.unicodeScalars.contains(where: { hidden($0) || " \"=\\".unicodeScalars.contains($0) }) { return v }
        var out = "\""
        for s in v.unicodeScalars {
            switch s {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if hidden(s) { out += String(format: "\\u{%X}", s.value) } else { out.unicodeScalars.append(s) }
            }
        }
        return out + "\""
    }

    static func timestamp() -> String {
        var t = timeval()
        gettimeofday(&t, nil)
        var tmv = tm()
        var secs = t.tv_sec
        gmtime_r(&secs, &tmv)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tmv.tm_year + 1900, tmv.tm_mon + 1, tmv.tm_mday,
                      tmv.tm_hour, tmv.tm_min, tmv.tm_sec, Int(t.tv_usec / 1000))
    }
}
