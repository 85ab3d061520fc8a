import ParlorCore

/// Who has which app session open in the expanded pane ("playing"): marks per
/// connection, each lapsing unless the client repeats it, and per session the users
/// behind them (a user with two tabs on one game plays once).
struct Playing {
    struct Key: Hashable {
        let conversation: String
        let session: String
    }

    enum Start: Equatable {
        /// `newPlayer`: the user was not playing this session on another connection.
        case started(newPlayer: Bool)
        case renewed
        case full
    }

    /// Per connection: the sessions it has open and when each mark lapses (uptime ns).
    private(set) var byConnection: [ConnectionID: [Key: UInt64]] = [:]
    /// conversation → session → user → connections of that user playing it.
    private var players: [String: [String: [String: Int]]] = [:]
    /// No mark lapses before this: the once-a-second sweep skips the walk until then.
    private var earliest = UInt64.max

    mutating func start(_ id: ConnectionID, user: String, _ key: Key, until: UInt64) -> Start {
        earliest = min(earliest, until)
        if byConnection[id]?[key] != nil {
            byConnection[id]![key] = until
            return .renewed
        }
        guard (byConnection[id]?.count ?? 0) < Limits.playingPerConnection else { return .full }
        byConnection[id, default: [:]][key] = until
        let n = players[key.conversation, default: [:]][key.session, default: [:]][user, default: 0]
        players[key.conversation, default: [:]][key.session, default: [:]][user] = n + 1
        return .started(newPlayer: n == 0)
    }

    /// Returns true if the user no longer plays the session anywhere.
    mutating func stop(_ id: ConnectionID, user: String, _ key: Key) -> Bool {
        guard byConnection[id]?.removeValue(forKey: key) != nil else { return false }
        if byConnection[id]?.isEmpty == true { byConnection[id] = nil }
        let n = (players[key.conversation]?[key.session]?[user] ?? 1) - 1
        players[key.conversation]?[key.session]?[user] = n > 0 ? n : nil
        if players[key.conversation]?[key.session]?.isEmpty == true { players[key.conversation]?[key.session] = nil }
        if players[key.conversation]?.isEmpty == true { players[key.conversation] = nil }
        return n == 0
    }

    /// The connection's marks in one conversation (nil: in all of them).
    func keys(of id: ConnectionID, in conversation: String? = nil) -> [Key] {
        guard let marks = byConnection[id] else { return [] }
        return marks.keys.filter { conversation == nil || $0.conversation == conversation }
    }

    /// Marks past their time, as (connection, session) pairs.
    mutating func lapsed(now: UInt64) -> [(ConnectionID, Key)] {
        guard now >= earliest else { return [] }
        var out: [(ConnectionID, Key)] = []
        earliest = .max
        for (id, marks) in byConnection {
            for (key, until) in marks {
                if until <= now { out.append((id, key)) } else { earliest = min(earliest, until) }
            }
        }
        return out
    }

    func isPlaying(_ user: String, _ key: Key) -> Bool {
        players[key.conversation]?[key.session]?[user] != nil
    }

    /// Everyone playing in a conversation, by session, in a stable order.
    func snapshot(_ conversation: String) -> [(sessionId: String, userIds: [String])] {
        (players[conversation] ?? [:]).keys.sorted().map { ($0, players[conversation]![$0]!.keys.sorted()) }
    }
}
