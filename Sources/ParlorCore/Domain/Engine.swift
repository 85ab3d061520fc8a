import Foundation
import GRDB
import Logging

/// Parlor's domain logic: it takes a batch of inputs, runs them against the store in
/// one transaction, and returns the actions for the service thread to perform once
/// that transaction is durable. It owns no sockets; tests drive it directly.
///
/// It is also the single sequencer: every message gets its `seq` here, so there is one
/// order per conversation for everyone, and resume replays and live events meet with
/// no gap (both come out of this one ordered stream).
public final class Engine {
    struct ConnectionState {
        var userId: String?
        /// The client's address, for per-address limits.
        var address = "?"
        /// Requests refused as rate limited in a row.
        var refusals = 0
        var deviceId: String?
        /// Its device was revoked: it is being closed and may do nothing more.
        var signedOut = false
        var failures = 0
        /// The replays under way, by conversation: the generation of the latest subscribe,
        /// so a piece of an older one is dropped (Engine+Requests.swift: `endReplay`).
        var replays: [String: Int] = [:]
        var nextReplay = 1
    }

    let store: any ParlorStore
    let apps: AppCatalog
    let blobs: BlobStore
    let log: Logger
    let now: () -> Int
    let settings: EngineSettings
    var connections: [ConnectionID: ConnectionState] = [:]
    /// What the hot path would otherwise ask SQLite for on every send. Only ever filled
    /// from committed-or-committing state, and dropped whole when a request or a batch
    /// fails, so it can never disagree with the database.
    var cache = EngineCache()
    var metrics = EngineMetrics()
    var limiters: EngineLimiters
    /// Cluster mode: per conversation followed here, the last seq delivered live; and
    /// the conversations that may have news (Engine+Cluster.swift).
    var followed: [String: Int] = [:]
    var pendingConversations: Set<String> = []
    /// Cluster mode: when this node next checks its connections' devices (Engine+Cluster.swift).
    var nextSignInCheck = 0
    /// Cluster mode: conversations whose locks this batch could not have in time.
    var lockTimedOut: Set<String> = []
    /// When unused images were last looked for (and rate buckets pruned).
    var lastCollection = 0
    var lastInvitePrune = 0
    private var batchFailed = false
    private var batchFailure: (any Error)?
    /// Every request of the batch in a savepoint of its own: the second run of a batch
    /// whose first run (sends without savepoints) failed after a write.
    private(set) var isolateEveryRequest = false
    /// The third run of a batch the disk was too full to store: every write is refused
    /// (`disk_full`), and what only reads (history, a sign-in, a subscribe) is answered.
    private(set) var readOnlyRun = false
    var failureLog = BatchFailureLog()
    var databaseWatch = DatabaseWatch()
    /// Connections a request of this batch signed out (a revoke, an account deleted):
    /// signed in again if the batch is undone, though they sent nothing in it.
    var signedOutInBatch: [ConnectionID] = []

    public init(store: any ParlorStore, apps: AppCatalog, blobs: BlobStore, logger: Logger,
                settings: EngineSettings = EngineSettings(),
                now: @escaping () -> Int = { Int(Date().timeIntervalSince1970 * 1000) }) {
        self.store = store
        self.settings = settings
        limiters = EngineLimiters(settings)
        self.apps = apps
        self.blobs = blobs
        self.log = logger
        self.now = now
    }

    /// Runs a batch in one transaction (group commit). If the commit fails nothing is
    /// acknowledged: every request in the batch gets `internal` instead.
    public func process(_ batch: [EngineInput], queued: Int = 0) -> [EngineAction] {
        let start = DispatchTime.now().uptimeNanoseconds
        // the clock is read only where the database watch needs it (cluster mode)
        let began = store.sharedWithOtherNodes ? now() : 0
        var actions: [EngineAction]
        do {
            actions = try run(batch)
        } catch {
            // A send failed after a write: nothing of the batch was kept. Run it again
            // with a savepoint per request, so only that request fails (the first
            // run's rate-limit tokens were given back with the rest of it).
            isolateEveryRequest = true
            defer { isolateEveryRequest = false }
            actions = (try? run(batch)) ?? []
        }
        if batchFailed, store.runsReadOnly, let failure = batchFailure, Self.isDiskFull(failure) {
            (readOnlyRun, isolateEveryRequest) = (true, true)
            defer { (readOnlyRun, isolateEveryRequest) = (false, false) }
            if let answered = try? run(batch), !batchFailed { actions = answered }
            (batchFailed, batchFailure) = (true, failure)  // nothing of it was stored
        }
        if batchFailed, let failure = batchFailure {
            failureLog.failed(batch.count, cause: Self.describe(failure), diskFull: Self.isDiskFull(failure), at: now(), log)
        } else if failureLog.failing {
            failureLog.stored(at: now(), log)
        }
        if store.sharedWithOtherNodes,
           let reachable = databaseWatch.batch(failed: batchFailed, began: began, at: now(),
                                               lostSeconds: settings.databaseLostSeconds) {
            if reachable {
                log.notice("database reached again: connections are taken again")
            } else {
                log.error("database out of reach: this node's connections are sent to the other nodes (1013) and new ones refused until it answers",
                          metadata: ["seconds": "\(settings.databaseLostSeconds)"])
            }
            actions.append(.databaseReachable(reachable))
        }
        let committed = !batchFailed
        metrics.batch(size: batch.count, queued: queued,
                      nanoseconds: Int64(DispatchTime.now().uptimeNanoseconds - start), committed: committed)
        var done: [ConnectionID: Int] = [:]
        for case .frame(let conn, _) in batch { done[conn, default: 0] += 1 }
        for (conn, n) in done { actions.append(.processed(conn, count: n)) }
        return actions
    }

    private func run(_ batch: [EngineInput]) throws(RunAgainIsolated) -> [EngineAction] {
        batchFailed = false
        batchFailure = nil
        signedOutInBatch = []
        lockTimedOut = []
        // Other nodes write too: what this one remembers is checked again each batch.
        let shared = store.sharedWithOtherNodes
        if shared || cache.entries > settings.cacheEntries { cache = EngineCache() }
        let (followedBefore, pendingBefore) = (followed, pendingConversations)
        var out = Outbox()
        var journal: [ConnectionID: ConnectionState?] = [:]
        do {
            try inTransaction { tx in
                if shared { try lockBatchConversations(batch, tx) }
                for input in batch {
                    switch input {
                    case .frame(let conn, let bytes):
                        if journal[conn] == nil { journal[conn] = .some(connections[conn]) }
                        try handleFrame(conn, bytes, tx, &out)
                    case .closed(let conn):
                        if journal[conn] == nil { journal[conn] = .some(connections[conn]) }
                        connections[conn] = nil
                    case .opened(let conn, let address):
                        connections[conn] = ConnectionState(address: address)
                    case .checkUploadToken(let id, let token, let bytes):
                        out.actions.append(.uploadAuthorized(id, try uploadVerdict(token, bytes: bytes, tx)))
                    case .blobStored(let id, _, _, _, _) where readOnlyRun:
                        out.actions.append(.uploadDone(id, status: 507, body: Array(#"{"code":"disk_full","message":"the server is out of disk space"}"#.utf8)))
                    case .blobStored(let id, let userId, let hash, let size, let reply):
                        try tx.isolated { try tx.recordBlob(hash: hash, size: size, by: userId, at: now()) }
                        out.actions.append(.uploadDone(id, status: 201, body: reply))
                    case .health(let id):
                        do {
                            try tx.isolated { try tx.recordHealthCheck(at: now()) }
                            out.actions.append(.healthDone(id, problem: nil))
                        } catch let e as TransactionAborted {
                            throw e
                        } catch {
                            out.actions.append(.healthDone(id, problem: "database: \(Self.describe(error))"))
                        }
                    case .replay(let conn, let cid, let afterSeq, let generation):
                        // The replay's end drops its entry: undone if the batch is.
                        if journal[conn] == nil { journal[conn] = .some(connections[conn]) }
                        try continueReplay(conn, cid, afterSeq: afterSeq, generation: generation, tx, &out)
                    case .sweep where readOnlyRun:
                        break  // it writes; the next second's sweep does it
                    case .sweep:
                        try runQueuedAdminCommands(tx, &out)
                        try collectImages(tx, &out)
                        // What a lost bus message did not ring for is found within a second,
                        // a lost sign-out within ten.
                        if shared {
                            try findNews(tx)
                            try checkSignIns(tx, &out)
                        }
                    case .conversationNews(let cid):
                        if followed[cid] != nil { pendingConversations.insert(cid) }
                    case .signedOutElsewhere(let device, let user):
                        if let device { signOut(device: device, &out, announce: false) }
                        if let user {
                            // the bus says whose, not why: the shared database does
                            let why: SignOutReason = switch try tx.accountStatus(userId: user) {
                            case .deleted?: .deleted
                            case .deactivated?: .deactivated
                            default: .device
                            }
                            signOut(user: user, why, &out, announce: false)
                        }
                    }
                }
                if shared {
                    takeLocalMessageEvents(&out)
                    try catchUpPending(tx, &out)
                }
            }
            limiters.commit()
            // Images of deleted messages go once that deletion is durable.
            for hash in out.unlinkedImages { blobs.remove(hash) }
            if out.deletedText { store.forgetDeletedSoon() }
            return out.actions
        } catch {
            limiters.undo()
            for (conn, state) in journal { connections[conn] = state ?? nil }
            for conn in signedOutInBatch where journal[conn] == nil { connections[conn]?.signedOut = false }
            cache = EngineCache()
            (followed, pendingConversations) = (followedBefore, pendingBefore)
            // Not when the database went unanswered: the connection is gone, and a second
            // run could only wait for another.
            if let again = error as? RunAgainIsolated, !isolateEveryRequest, !Self.isUnanswered(again.cause) {
                metrics.discardPending()
                throw again
            }
            let error = (error as? RunAgainIsolated)?.cause ?? error
            batchFailed = true
            batchFailure = error
            // A sign-out from another node needs no database: its closes go out anyway,
            // also when the batch failed before it ran (a database out of reach).
            var closes: [EngineAction] = []
            for case .signedOutElsewhere(let device, let user) in batch {
                for (conn, state) in connections
                where (device != nil && state.deviceId == device) || (user != nil && state.userId == user) {
                    connections[conn]?.signedOut = true
                    closes.append(.close(conn, code: 4003, reason: SignOutReason.device.rawValue))
                }
            }
            return closes + batch.compactMap { input in
                switch input {
                case .frame(let conn, let bytes):
                    let (id, _) = RequestParser.parse(bytes)
                    return .send(conn, Replies.error(id, ParlorError(.internalError, "the server could not store this; try again")))
                case .checkUploadToken(let id, _, _):
                    return .uploadAuthorized(id, .invalidToken)
                case .blobStored(let id, _, _, _, _):
                    return .uploadDone(id, status: 500, body: Array(#"{"code":"internal"}"#.utf8))
                case .opened(let conn, let address):
                    connections[conn] = ConnectionState(address: address)
                    return nil
                case .replay(let conn, _, _, _):
                    return .close(conn, code: 1011, reason: "the server could not read the history")
                case .health(let id):
                    return .healthDone(id, problem: "database: \(Self.describe(error))")
                case .closed, .sweep, .conversationNews, .signedOutElsewhere:
                    return nil
                }
            }
        }
    }

    /// Runs a send without a savepoint, a quarter of its cost: `send` refuses before its
    /// first write, so a refusal stored nothing. A failure after a write cannot be undone
    /// alone, so the whole batch is undone and run again (`RunAgainIsolated`).
    private func withoutSavepoint(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let e as ParlorError where e.code != .internalError {
            throw e
        } catch {
            // Also a TransactionAborted: PostgreSQL ends the transaction on any failed
            // statement outside a savepoint. The second run tells that apart.
            throw RunAgainIsolated(cause: error)
        }
    }

    /// The batch's transaction: read-only in the run after the disk was found full.
    private func inTransaction(_ body: (any StoreTransaction) throws -> Void) throws {
        if readOnlyRun { try store.readOnly(body) } else { try store.write(body) }
    }

    /// SQLite's SQLITE_FULL: the disk (or the database's size limit) is full. SQLite may
    /// roll the whole transaction back on it (then it is the cause of a TransactionAborted).
    static func isDiskFull(_ error: any Error) -> Bool {
        if let aborted = error as? TransactionAborted { return aborted.cause.map(isDiskFull) ?? false }
        return (error as? DatabaseError)?.resultCode == .SQLITE_FULL
    }

    /// PostgreSQL did not answer in time (or the node is stopping): the batch fails now.
    static func isUnanswered(_ error: any Error) -> Bool {
        if let aborted = error as? TransactionAborted { return aborted.cause.map(isUnanswered) ?? false }
        return (error as? PGError)?.unanswered ?? false
    }

    /// An error's cause for the log: SQLite's code and message, never SQL or arguments.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let e as DatabaseError: "SQLite error \(e.extendedResultCode.rawValue): \(e.message ?? "")"
        case let e as StoreFailure: e.logDescription
        case let e as TransactionAborted: "transaction rolled back by the database (\(e.cause.map(describe) ?? "no cause"))"
        default: String(describing: type(of: error))
        }
    }

    /// Answers one frame. Throws only `TransactionAborted`, which ends the batch.
    private func handleFrame(_ conn: ConnectionID, _ bytes: [UInt8], _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        let (id, parsed) = RequestParser.parse(bytes)
        let request: Request
        switch parsed {
        case .failure(let e):
            metrics.request("invalid", e.code.rawValue)
            out.reply(conn, id, e)
            return
        case .success(let r): request = r
        }
        var outcome = "ok"
        defer { metrics.request(request.typeName, outcome) }
        let state = connections[conn] ?? ConnectionState()
        if state.signedOut {
            outcome = ParlorError.Code.invalidToken.rawValue
            out.reply(conn, id, ParlorError(.invalidToken, "this device was signed out"))
            return
        }
        if let userId = state.userId {
            if request.isAuthentication {
                outcome = ParlorError.Code.alreadyAuthenticated.rawValue
                out.reply(conn, id, ParlorError(.alreadyAuthenticated, "this connection is already signed in"))
                return
            }
            do {
                if case .send = request, !isolateEveryRequest {
                    try withoutSavepoint { try handle(request, id: id, conn: conn, userId: userId, tx, &out) }
                } else {
                    try tx.isolated {
                        try handle(request, id: id, conn: conn, userId: userId, tx, &out)
                    }
                }
            } catch let e as TransactionAborted {
                throw e
            } catch let e as RunAgainIsolated {
                throw e
            } catch let e as ParlorError {
                // Refusals happen before any write the cache reflects; only an internal
                // failure may have rolled back something it holds.
                if e.code == .internalError { cache = EngineCache() }
                outcome = e.code.rawValue
                out.reply(conn, id, e)
            } catch where readOnlyRun || Self.isDiskFull(error) {
                outcome = ParlorError.Code.diskFull.rawValue
                cache = EngineCache()
                out.reply(conn, id, .diskFull)
            } catch {
                outcome = ParlorError.Code.internalError.rawValue
                cache = EngineCache()
                log.error("request failed", metadata: ["cause": "\(Self.describe(error))"])
                out.reply(conn, id, ParlorError(.internalError, "the server could not complete this request"))
            }
        } else {
            guard request.isAuthentication else {
                outcome = ParlorError.Code.notAuthenticated.rawValue
                out.reply(conn, id, ParlorError(.notAuthenticated, "send auth or register first"))
                return
            }
            do {
                try tx.isolated { try authenticate(request, id: id, conn: conn, tx, &out) }
            } catch let e as TransactionAborted {
                throw e
            } catch let e as ParlorError {
                outcome = e.code.rawValue
                out.reply(conn, id, e)
                if e.isSignInFailure {
                    var s = connections[conn] ?? ConnectionState()
                    s.failures += 1
                    connections[conn] = s
                    _ = limiters.signInFailures.take(s.address, now: now())
                    if s.failures >= Limits.authFailures {
                        out.actions.append(.close(conn, code: 4001, reason: "too many failed sign-ins"))
                    }
                }
            } catch where readOnlyRun {
                outcome = ParlorError.Code.diskFull.rawValue
                out.reply(conn, id, .diskFull)
            } catch {
                outcome = ParlorError.Code.internalError.rawValue
                out.reply(conn, id, ParlorError(.internalError, "the server could not complete this request"))
            }
        }
        countRefusal(conn, rateLimited: outcome == ParlorError.Code.rateLimited.rawValue, &out)
    }
}

struct EngineCache {
    /// (conversation, user) pairs known to be members (a removal drops its pair).
    var members: Set<MemberKey> = []
    var lastSeq: [String: Int] = [:]
    /// (user, app) -> participant id, only ids read back from the database (a new one
    /// could still be rolled back with its request).
    var participants: [IdPair: String] = [:]
    /// (conversation, session) -> the session's head after the last committed update.
    var sessions: [IdPair: SessionHead] = [:]
    /// Blobs known to be stored: whether each is a voice recording and an image's size
    /// (a deletion drops its hash).
    var blobs: [String: StoredBlob] = [:]
    /// (user, hash): images the user was found to upload or be shown.
    var imageShowers: Set<IdPair> = []
    /// Conversation -> its direct pair ([] for a group): fixed once made.
    var directPairs: [String: [String]] = [:]

    var entries: Int {
        members.count + lastSeq.count + participants.count + sessions.count + blobs.count + imageShowers.count
            + directPairs.count
    }
}

/// What `EngineCache.blobs` knows of a stored blob.
struct StoredBlob {
    var isAudio: Bool
    var size: ImageSize?
}

/// The actions of one batch, with helpers for the common replies.
struct Outbox {
    var actions: [EngineAction] = []
    /// Image files to delete once the batch has committed.
    var unlinkedImages: [String] = []
    /// A message's text or an account's name was deleted: the store's files forget it.
    var deletedText = false
    /// Cluster mode: where the actions not yet sorted by Engine+Cluster begin.
    var catchUpEnd = 0

    mutating func reply(_ conn: ConnectionID, _ id: String?, _ error: ParlorError) {
        actions.append(.send(conn, Replies.error(id, error)))
    }

    mutating func result(_ conn: ConnectionID, _ id: String?, _ body: (inout JSONWriter) -> Void) {
        actions.append(.send(conn, Replies.result(id, body)))
    }
}

enum Replies {
    static func error(_ id: String?, _ e: ParlorError) -> Payload {
        Payload { w in
            w.field("type", "error")
            w.field("re", id)
            w.field("code", e.code.rawValue)
            w.field("message", e.message)
            w.field("field", e.field)
            if let current = e.current { w.key("current"); w.raw(current) }
            w.field("retryAfterMs", e.retryAfterMs)
        }
    }

    static func result(_ id: String?, _ body: (inout JSONWriter) -> Void) -> Payload {
        Payload { w in
            w.field("type", "result")
            w.field("re", id)
            w.key("result")
            w.beginObject()
            body(&w)
            w.endObject()
        }
    }
}

/// A request that ran without its own savepoint failed after writing: the batch is
/// rolled back and run again with a savepoint per request.
struct RunAgainIsolated: Error {
    var cause: any Error
}
