import Foundation

extension PGConnection {
    /// libpq's connection parameters: Parlor's defaults, then the operator's string
    /// (`dbname`, which libpq expands whether it is a URL or `key=value` pairs), so any
    /// of these the operator sets wins, and nothing is spliced into their string.
    ///
    /// Keepalives and `tcp_user_timeout` make the kernel notice a dead path by itself:
    /// while the node is idle (probes after 5 s, 3 unanswered 2 s apart) and while data
    /// it sent goes unacknowledged (as long as a round trip may wait), so the next batch
    /// finds the connection broken and connects again at once instead of waiting out
    /// its deadline. `fallback_application_name` tells the node's session apart in
    /// `pg_stat_activity`.
    static func parameters(_ url: String, timeoutSeconds: Int) -> [(String, String)] {
        [
            ("fallback_application_name", "parlor"),
            ("keepalives", "1"),
            ("keepalives_idle", "5"),
            ("keepalives_interval", "2"),
            ("keepalives_count", "3"),
            ("tcp_user_timeout", "\(timeoutSeconds * 1000)"),
            ("dbname", url),
        ]
    }
}
