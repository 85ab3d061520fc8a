/// The abuse limits, in one place: token buckets per address and per user, from
/// `EngineSettings` (so from configuration). A refusal is `rate_limited` with
/// `retryAfterMs`; a connection that keeps going past a limit is closed with 1008.
struct EngineLimiters {
    var registrations: RateLimiter
    var signInFailures: RateLimiter
    var sends: RateLimiter
    var conversations: RateLimiter
    var invites: RateLimiter
    var uploadBytes: RateLimiter
    var playing: RateLimiter
    var changes: RateLimiter
    var appDataWrites: RateLimiter
    var readMarks: RateLimiter
    var typing: RateLimiter
    var historyBytes: RateLimiter
    var searches: RateLimiter
    var reports: RateLimiter
    var blocks: RateLimiter

    init(_ s: EngineSettings) {
        registrations = RateLimiter(s.registrationsPerAddress)
        signInFailures = RateLimiter(s.signInFailuresPerAddress)
        sends = RateLimiter(s.sendsPerUser)
        conversations = RateLimiter(s.conversationsPerUser)
        invites = RateLimiter(s.invitesPerUser)
        uploadBytes = RateLimiter(s.uploadBytesPerUser)
        playing = RateLimiter(s.playingPerUser)
        changes = RateLimiter(s.changesPerUser)
        appDataWrites = RateLimiter(s.appDataWritesPerUser)
        readMarks = RateLimiter(s.readMarksPerUser)
        typing = RateLimiter(s.typingPerUser)
        historyBytes = RateLimiter(s.historyBytesPerUser)
        searches = RateLimiter(s.searchesPerUser)
        reports = RateLimiter(s.reportsPerUser)
        blocks = RateLimiter(s.blocksPerUser)
    }

    mutating func commit() {
        registrations.commit(); signInFailures.commit(); sends.commit(); conversations.commit(); invites.commit()
        uploadBytes.commit(); playing.commit(); changes.commit(); appDataWrites.commit(); readMarks.commit(); typing.commit(); historyBytes.commit()
        searches.commit(); reports.commit(); blocks.commit()
    }

    mutating func undo() {
        registrations.undo(); signInFailures.undo(); sends.undo(); conversations.undo(); invites.undo()
        uploadBytes.undo(); playing.undo(); changes.undo(); appDataWrites.undo(); readMarks.undo(); typing.undo(); historyBytes.undo()
        searches.undo(); reports.undo(); blocks.undo()
    }

    mutating func prune(now: Int) {
        for kp in [\EngineLimiters.registrations, \.signInFailures, \.sends, \.conversations, \.invites, \.uploadBytes, \.playing, \.changes, \.appDataWrites, \.readMarks, \.typing, \.historyBytes, \.searches, \.reports, \.blocks] {
            self[keyPath: kp].prune(now: now)
        }
    }
}

extension Engine {
    /// Takes one from the bucket of `key`, or refuses with `rate_limited`.
    func limit(_ bucket: WritableKeyPath<EngineLimiters, RateLimiter>, _ key: String, _ what: String) throws {
        if let wait = limiters[keyPath: bucket].take(key, now: now()) {
            throw ParlorError.rateLimited(what, retryAfterMs: wait)
        }
    }

    /// Refuses while the bucket of `key` is empty, taking nothing (the caller takes
    /// once the request succeeded, or failed, as the limit counts).
    func requireRoom(_ bucket: KeyPath<EngineLimiters, RateLimiter>, _ key: String, _ what: String) throws {
        if let wait = limiters[keyPath: bucket].wait(key, now: now()) {
            throw ParlorError.rateLimited(what, retryAfterMs: wait)
        }
    }

    /// Refusals in a row close the connection: a client that ignores `retryAfterMs`
    /// costs a frame, a parse and an answer each time.
    func countRefusal(_ conn: ConnectionID, rateLimited: Bool, _ out: inout Outbox) {
        // Changed in place: most requests are not refused and change nothing.
        guard let refusals = connections[conn]?.refusals else { return }
        let count = rateLimited ? refusals + 1 : 0
        if count != refusals { connections[conn]?.refusals = count }
        if rateLimited && count >= settings.refusalsBeforeClose {
            out.actions.append(.close(conn, code: 1008, reason: "too many requests"))
        }
    }

    /// An upload's headers: a valid device token, within the user's bytes per day and
    /// total stored images.
    func uploadVerdict(_ token: String, bytes: Int, _ tx: any StoreTransaction) throws -> UploadVerdict {
        guard let (_, user) = try? tx.device(tokenHash: Secrets.tokenHash(token)) else { return .invalidToken }
        if settings.storedImageBytesPerUser > 0,
           try tx.storedImageBytes(of: user.id) + bytes > settings.storedImageBytesPerUser {
            return .quotaExceeded
        }
        if let wait = limiters.uploadBytes.take(user.id, cost: Double(bytes), now: now()) {
            return .rateLimited(retryAfterMs: wait)
        }
        return .allowed(userId: user.id)
    }
}
