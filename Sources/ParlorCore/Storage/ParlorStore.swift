/// Where Parlor keeps its state: SQLite (one process) or PostgreSQL (ParlorPostgres,
/// several nodes). The operations are plain enough for both.
///
/// Everything runs inside `write`: one transaction per batch of requests, committed
/// once (group commit). `isolated` wraps one request so that its failure undoes only
/// its own writes.
public protocol ParlorStore: AnyObject {
    func write<T>(_ body: (any StoreTransaction) throws -> T) throws -> T
    /// Other processes write the same database (cluster mode): what the engine caches
    /// between batches may be stale, and `lastSeq` locks the conversation's row.
    var sharedWithOtherNodes: Bool { get }
    /// The store's commits do not wait for the disk: `syncCommitted` makes everything
    /// committed so far durable, and nothing of a batch may be acknowledged before it.
    var syncsSeparately: Bool { get }
    /// Makes every transaction committed so far durable (any thread).
    func syncCommitted() throws
    /// Can run a batch with every write refused (`readOnly`): what a full disk leaves.
    var runsReadOnly: Bool { get }
    /// A transaction in which any write fails, and which commits nothing.
    func readOnly(_ body: (any StoreTransaction) throws -> Void) throws
    /// Text was deleted in what just committed: soon, no file of the store holds it.
    /// (`parlor admin` with no server running needs none: SQLite empties the WAL
    /// when the last connection closes.)
    func forgetDeletedSoon()
}

extension ParlorStore {
    public var sharedWithOtherNodes: Bool { false }
    public var syncsSeparately: Bool { false }
    public func syncCommitted() throws {}
    public var runsReadOnly: Bool { false }
    public func readOnly(_ body: (any StoreTransaction) throws -> Void) throws {
        throw StoreError("this store has no read-only transactions")
    }
    public func forgetDeletedSoon() {}
}

extension StoreTransaction {
    public func lockConversations(_ ids: [String]) throws {}
    public func lockDirectPairs() throws {}

    public func lastSeqs(of conversationIds: [String]) throws -> [String: Int] {
        var seqs: [String: Int] = [:]
        for id in conversationIds { seqs[id] = try conversation(id: id)?.lastSeq }
        return seqs
    }
}

/// A store's error that can say what went wrong for the log (a code and the
/// database's message, never a statement or its values).
public protocol StoreFailure: Error {
    var logDescription: String { get }
}

public protocol StoreTransaction {
    func isolated<T>(_ body: () throws -> T) throws -> T
    /// A write that proves the database takes writes (the health check).
    func recordHealthCheck(at: Int) throws

    // Users
    func createUser(_ user: User, recoveryHash: [UInt8], at: Int) throws
    func userCount() throws -> Int
    /// The device a token belongs to and its user, unless the user is deactivated.
    func device(tokenHash: [UInt8]) throws -> (device: Device, user: User)?
    func user(recoveryHash: [UInt8]) throws -> User?
    func setRecoveryHash(userId: String, _ hash: [UInt8]) throws
    func user(id: String) throws -> User?
    func renameUser(id: String, name: String) throws
    func isAdmin(userId: String) throws -> Bool

    // Stored images
    /// The first upload of an image owns it; a later one only refreshes its age. Every
    /// uploader is recorded as one who may show it.
    func recordBlob(hash: String, size: Int, by userId: String, at: Int) throws
    /// May this user put the image in a message: they uploaded it, or a message of a
    /// conversation they are in shows it (a guess on a drawing, a sticker from a sundae).
    func mayShowImage(hash: String, userId: String) throws -> Bool
    func storedImageBytes(of userId: String) throws -> Int
    /// Images no message shows, uploaded (last) before `before`, oldest first.
    func unreferencedBlobs(before: Int, limit: Int) throws -> [String]
    /// The image's file is being deleted: it no longer counts for anyone.
    func forgetBlob(hash: String) throws
    /// Whether a row names this image: its upload recorded, or a message showing it.
    func blobIsKnown(hash: String) throws -> Bool

    // Administration
    /// Users by id, after `after`, at most `limit`.
    func users(after: String?, limit: Int) throws -> [UserSummary]
    func setAdmin(userId: String, _ admin: Bool) throws -> Bool
    /// Deletes the user's devices, links and recovery key; they can no longer sign in.
    func deactivate(userId: String, at: Int) throws -> Bool
    /// Clears a deactivation; false if the user was not deactivated, or deleted.
    func reactivate(userId: String) throws -> Bool
    /// Admins who can still sign in.
    func activeAdminCount() throws -> Int
    /// Whether the account can still sign in; nil for an id no account has.
    func accountStatus(userId: String) throws -> AccountStatus?
    /// What `deactivate` does, and the account keeps nothing of its person but its id
    /// and `name` (a stand-in): no admin right, apps or apps' storage; it stays deleted.
    func deleteAccount(userId: String, name: String, at: Int) throws
    /// Every usable invite and registration link, or one conversation's, with the
    /// conversation's title and the maker's name.
    func listedInvites(conversationId: String?, at: Int, limit: Int) throws -> [ListedInvite]
    /// The messages that show this image.
    func messagesShowing(image hash: String) throws -> [(conversationId: String, seq: Int)]
    /// `parlor admin` requests a running server has not answered yet.
    func pendingAdminCommands(limit: Int) throws -> [(id: Int, request: [UInt8])]
    func answerAdminCommand(id: Int, reply: [UInt8], at: Int) throws
    /// Admins who can still sign in (each is told of reports).
    func adminIds() throws -> [String]

    // Reports (Engine+Reports.swift)
    func insertReport(_ report: NewReport) throws
    func hasOpenReport(reporter: String, conversationId: String, seq: Int) throws -> Bool
    /// Open reports made by `reporter`, or by anyone (nil).
    func openReportCount(reporter: String?) throws -> Int
    /// Open reports with ids below `before` (nil: all), newest first.
    func openReports(before: Int?, limit: Int) throws -> [OpenReport]
    func report(id: Int) throws -> (conversationId: String, seq: Int, resolvedAt: Int?)?
    /// Closes every open report of the message, dropping copies and reasons; returns how many.
    func resolveReports(conversationId: String, seq: Int, by: String?, at: Int) throws -> Int
    /// Deletes reports resolved before `before`; returns how many.
    func pruneResolvedReports(before: Int) throws -> Int

    // Direct conversations and blocks (Engine+Direct.swift)
    /// The direct conversation of the two, in either order, if one was made.
    func directConversationId(_ a: String, _ b: String) throws -> String?
    /// Records `conversationId` as the two's direct conversation unless they have one
    /// (a uniqueness of the database: two askers at once, on two nodes, get one); false if they had.
    func claimDirect(_ a: String, _ b: String, conversationId: String) throws -> Bool
    /// The two people of a direct conversation; nil for a group.
    func directPair(conversationId: String) throws -> [String]?
    /// The two with their names now (also one who left or deleted their account); nil for a group.
    func directPeople(conversationId: String) throws -> [Member]?
    /// Whether the two are both members of some conversation now.
    func shareAConversation(_ a: String, _ b: String) throws -> Bool
    func isBlocked(blocker: String, blocked: String) throws -> Bool
    /// False if already blocked.
    func block(blocker: String, blocked: String, at: Int) throws -> Bool
    /// False if not blocked.
    func unblock(blocker: String, blocked: String) throws -> Bool
    func blockCount(blocker: String) throws -> Int
    /// Whom `blocker` blocked, with their names, oldest block first.
    func blocked(by blocker: String) throws -> [Member]
    /// A deleted account keeps no blocks.
    func deleteBlocks(by blocker: String) throws
    /// Shared store: one batch at a time, cluster-wide, makes direct conversations, until
    /// the transaction ends (two batches claiming two pairs in opposite orders deadlocked).
    func lockDirectPairs() throws

    // Devices and links
    func createDevice(_ device: Device, tokenHash: [UInt8]) throws
    func devices(of userId: String) throws -> [Device]
    /// Those of `ids` that still sign in: not revoked, their account active.
    func activeDevices(among ids: [String]) throws -> Set<String>
    func touchDevice(id: String, at: Int) throws
    /// Returns false if the user has no such device.
    func renameDevice(id: String, userId: String, name: String) throws -> Bool
    /// Deletes the user's devices (all of them, or one, or all but one); returns their ids.
    func deleteDevices(userId: String, only: String?, except: String?) throws -> [String]
    func createDeviceLink(_ link: DeviceLink, tokenHash: [UInt8], codeHash: [UInt8]) throws
    /// The link whose token or short code has this hash.
    func deviceLink(hash: [UInt8]) throws -> DeviceLink?
    func useDeviceLink(id: String, at: Int) throws

    // Conversations and membership
    func createConversation(id: String, title: String, by userId: String, at: Int) throws
    func conversation(id: String) throws -> Conversation?
    /// With the user's read mark (`lastReadSeq`) and notification level in each.
    func conversations(of userId: String) throws -> [Conversation]
    func conversationIds(of userId: String) throws -> [String]
    /// Those of `userIds` who are members, with their names.
    func members(conversationId: String, userIds: [String]) throws -> [Member]
    /// Those of `userIds` who were members and left or were removed, with their names.
    func formerMembers(conversationId: String, userIds: [String]) throws -> [Member]
    func isMember(conversationId: String, userId: String) throws -> Bool
    /// Returns false if the user was already a member.
    func addMember(conversationId: String, userId: String, at: Int) throws -> Bool
    /// Returns false if the user was not a member; else they are a former member.
    /// `removedAt`: when a moderator removed them (nil: they left); invites made before
    /// it no longer let them back (`removedAt(conversationId:userId:)`).
    func removeMember(conversationId: String, userId: String, removedAt: Int?) throws -> Bool
    func removedAt(conversationId: String, userId: String) throws -> Int?
    /// Raises the member's read mark to `seq`, or to the conversation's last seq if
    /// `seq` is past it; returns the new mark, or nil when it did not rise (lower or
    /// equal, or not a member). The mark is the membership's: it goes when they leave.
    func markRead(conversationId: String, userId: String, seq: Int) throws -> Int?
    /// Sets the member's notification level; true when it changed (false: the same, or
    /// not a member).
    func setNotify(conversationId: String, userId: String, level: NotifyLevel) throws -> Bool
    /// The member's notification level; nil when not a member.
    func notifyLevel(conversationId: String, userId: String) throws -> NotifyLevel?
    func renameConversation(id: String, title: String) throws
    func createInvite(_ invite: Invite, codeHash: [UInt8]) throws
    func invite(codeHash: [UInt8]) throws -> Invite?
    func invite(id: String) throws -> Invite?
    /// Unrevoked, unexpired invites: of one conversation, or registration links (nil).
    func invites(conversationId: String?, createdBy: String?, at: Int, limit: Int) throws -> [Invite]
    func countInviteUse(id: String) throws
    func revokeInvite(id: String, at: Int) throws
    /// Deletes invites that can no longer be used (revoked, expired or used up) since
    /// before `before`; returns how many.
    func pruneInvites(before: Int) throws -> Int

    // Messages and sessions
    /// In a shared store this also locks the conversation until the transaction ends:
    /// the next seq is taken by one node at a time.
    func lastSeq(conversationId: String) throws -> Int?
    /// The last seq of each of these conversations that exists, without locking them
    /// (cluster mode's sweep: which followed conversations have news).
    func lastSeqs(of conversationIds: [String]) throws -> [String: Int]
    /// Shared store: locks these conversations' rows, in id order, until the transaction
    /// ends, so that nodes whose batches touch the same conversations never take their
    /// locks in opposite orders (a deadlock). Nothing to do for a single writer.
    func lockConversations(_ ids: [String]) throws
    /// False, storing nothing, when the sender already used this clientId (a retry).
    @discardableResult
    func insert(_ message: StoredMessage) throws -> Bool
    func message(conversationId: String, seq: Int) throws -> StoredMessage?
    /// Where a sender's clientId was used: the idempotency check.
    func clientIdUse(sender: String, clientId: String) throws -> (conversationId: String, seq: Int)?
    func messages(conversationId: String, afterSeq: Int, limit: Int) throws -> [StoredMessage]
    func messages(conversationId: String, beforeSeq: Int, limit: Int) throws -> [StoredMessage]
    /// A search's scan: the seq and stored body of up to `limit` messages before
    /// `beforeSeq`, newest first, each shown to `visit` until it returns false. Only
    /// those two columns, read a few hundred rows at a time at most.
    func scanBodies(conversationId: String, beforeSeq: Int, limit: Int,
                    _ visit: (_ seq: Int, _ body: UnsafeBufferPointer<UInt8>) throws -> Bool) throws
    func message(conversationId: String, sessionId: String, version: Int) throws -> StoredMessage?
    /// The line that stands in a session message's place once it is superseded (kept
    /// with each session message when stored; set later for a deleted head, and for heads
    /// stored before summaries were kept with every message).
    func setSummary(conversationId: String, seq: Int, summary: String) throws
    /// Replaces the body with a tombstone: its text, URL and images are gone.
    func markDeleted(conversationId: String, seq: Int, at: Int) throws
    /// Replaces the body (an edited text; an edit record scrubbed of its text).
    func setBody(conversationId: String, seq: Int, body: [UInt8]) throws
    func addImageRefs(_ hashes: [String], conversationId: String, seq: Int) throws
    /// Forgets the message's images; returns those no other message shows.
    func removeImageRefs(conversationId: String, seq: Int) throws -> [String]
    func session(conversationId: String, id: String) throws -> SessionHead?
    /// Records the session's new head, whose message is inserted next in the same
    /// transaction (a store may derive the head from that message instead).
    func setSession(conversationId: String, id: String, head: SessionHead) throws

    // Apps and participant identifiers
    func installedApps(of userId: String) throws -> [String]
    func install(appId: String, for userId: String) throws
    func uninstall(appId: String, for userId: String) throws
    func participantId(userId: String, appId: String) throws -> String?
    func setParticipantId(_ id: String, userId: String, appId: String) throws

    // Per-user app storage: JSON values by key, for one (user, app) pair
    func appData(userId: String, appId: String) throws -> [(key: String, value: [UInt8])]
    /// `value` nil removes the key.
    func setAppData(userId: String, appId: String, key: String, value: [UInt8]?) throws
    /// How many keys, and bytes of keys and values, one app's storage holds besides `except`.
    func appDataUsage(userId: String, appId: String, except key: String) throws -> (keys: Int, bytes: Int)
}

/// The batch's transaction is gone (SQLite rolled it back on a full disk or an I/O
/// error): nothing of the batch was stored, and nothing more may run in it.
public struct TransactionAborted: Error {
    public var cause: (any Error)?
    public init(cause: (any Error)? = nil) { self.cause = cause }
}

/// A store that cannot be opened as it is: the message says what to do.
public struct StoreError: Error, CustomStringConvertible {
    public let description: String
    /// The database is of another version than this build: starting again cannot help
    /// (a service manager should stop restarting it).
    public var wrongVersion = false
    public init(_ description: String) { self.description = description }

    /// `parlor admin` never updates a database: an older server may be running on it.
    static func olderDatabase(_ pending: String) -> StoreError {
        var e = StoreError("the database is older than this parlor (it would need \(pending)): start this version's "
                           + "`parlor serve` once to update it (take a backup first), or use the parlor that wrote it")
        e.wrongVersion = true
        return e
    }

    static func newerDatabase(_ versions: String) -> StoreError {
        var e = StoreError("the database was written by a newer version of Parlor\(versions): run that version (or newer; "
                           + "in a cluster, on every node), or roll back by restoring the backup taken before the upgrade "
                           + "(parlor-restore)")
        e.wrongVersion = true
        return e
    }
}

/// A direct conversation's two users as `direct_pairs` keeps them (user_a < user_b), so
/// a pair is one row whoever asks.
func directPairOrder(_ a: String, _ b: String) -> (String, String) { a < b ? (a, b) : (b, a) }
