/// What a server's operator decides about its community (`parlor serve` flags); the
/// defaults suit a community of a few hundred people.
public struct EngineSettings: Sendable {
    /// How long an invite lasts when its creator asks for no shorter time.
    public var inviteSeconds = 7 * 86_400
    /// How long a device link (and its short code) can be used.
    public var deviceLinkSeconds = 600
    /// How long after it was sent its sender may edit a text message (`messages.edit`).
    public var editSeconds = 900
    public var registration = Registration.invite

    // Limits (`--limit-*`): what one address or one account may make the server do.
    public var registrationsPerAddress = Rate(10, per: 3600)
    /// Wrong tokens, links and recovery keys; past it every sign-in from there waits.
    public var signInFailuresPerAddress = Rate(20, per: 3600)
    public var sendsPerUser = Rate(5, per: 1, burst: 30)
    public var conversationsPerUser = Rate(20, per: 3600)
    /// Invites, registration links and device links made.
    public var invitesPerUser = Rate(60, per: 3600)
    public var uploadBytesPerUser = Rate(200 << 20, per: 86_400)
    /// `playing` marks: each one is news for everyone in the room, so toggling a pane
    /// in a loop must not make the server fan out without end.
    public var playingPerUser = Rate(60, per: 60, burst: 30)
    /// Renames (of the account, a conversation, a device) and new recovery keys: each
    /// a write, and a rename news for every room the user is in, so a loop of them must
    /// not flood the others' connections (seen: 100,000 renames in 10 s closed a
    /// member's connection as a slow consumer).
    public var changesPerUser = Rate(5, per: 1, burst: 30)
    /// Apps' storage writes (`appdata.set`): generous, as an app may save as the user
    /// types (the web client sends one write per key at a time, the latest value).
    public var appDataWritesPerUser = Rate(20, per: 1, burst: 60)
    /// Read marks (`read`): the web client sends at most about one a second per
    /// conversation it shows, so a normal client never meets this; each is a write and
    /// a frame to every other connection of the user.
    public var readMarksPerUser = Rate(10, per: 1, burst: 60)
    /// `typing` notices: news for everyone in the room, as `playing` marks are; the web
    /// client sends one every 3 s at most while its person types in a conversation.
    public var typingPerUser = Rate(60, per: 60, burst: 30)
    /// Bytes of history pages one user may be answered (a page is up to 512 KiB): a
    /// client that asks for pages and never reads them made the server build hundreds
    /// of megabytes before its connections were closed as slow consumers.
    public var historyBytesPerUser = Rate(16 << 20, per: 1, burst: 32 << 20)
    /// Searches (`messages.search`): each reads up to 2,000 messages (a few ms of the
    /// engine's one thread), so a loop of them must not take the engine from everyone.
    public var searchesPerUser = Rate(2, per: 1, burst: 10)
    /// Reports to the admins (`messages.report`): each stores a copy of a message and
    /// tells every admin; ten at once, then one every three minutes.
    public var reportsPerUser = Rate(20, per: 3600, burst: 10)
    /// Blocks and unblocks (`users.block`/`.unblock`): each writes a row and sends the
    /// whole list to every device of the blocker.
    public var blocksPerUser = Rate(30, per: 3600, burst: 20)
    /// Bytes of images a user's uploads may keep stored (0: no limit).
    public var storedImageBytesPerUser = 1 << 30
    /// How long an uploaded image no message shows is kept (it may be about to be sent).
    public var imageGraceSeconds = 86_400
    /// Entries the engine's cache of what it read (members, last seqs, sessions' heads,
    /// participants, images) may hold before it starts afresh: it held everything touched
    /// since the server started, a little more each day (an outside soak run, months).
    public var cacheEntries = 100_000
    /// Refusals in a row (rate limited) after which a connection is closed with 1008.
    public var refusalsBeforeClose = 10
    /// Cluster mode: seconds without a batch stored while batches fail, after which the
    /// node sends its connections to the other nodes and refuses new ones until it
    /// reaches the database again (`DatabaseWatch`); 0: never.
    public var databaseLostSeconds = 15

    /// Who may create an account (`--registration`).
    public enum Registration: String, Sendable, CaseIterable {
        /// Anyone who reaches the server.
        case open
        /// With a conversation invite or an admin's registration link.
        case invite
        /// Only with an admin's registration link.
        case closed
    }

    public init() {}
}
