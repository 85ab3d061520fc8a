import Foundation
import Logging

/// One line per event on stderr: time, level, message, then key=value pairs.
/// Reads well in `journalctl` and a terminal alike.
struct LineLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = Self.timestamp() + " " + event.level.rawValue.uppercased().padding(toLength: 7, withPad: " ", startingAt: 0)
            + " " + event.message.description
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for key in merged.keys.sorted() { line += " \(key)=\(merged[key]!)" }
        line += "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    private static func timestamp() -> String {
        var t = timeval()
        gettimeofday(&t, nil)
        var tmv = tm()
        var secs = t.tv_sec
        gmtime_r(&secs, &tmv)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tmv.tm_year + 1900, tmv.tm_mon + 1, tmv.tm_mday,
                      tmv.tm_hour, tmv.tm_min, tmv.tm_sec, Int(t.tv_usec / 1000))
    }
}
