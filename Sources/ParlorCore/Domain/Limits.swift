/// Every size limit the server enforces, in one place (docs/PROTOCOL.md lists them).
public enum Limits {
    public static let frameBytes = 64 * 1024
    public static let nameChars = 64
    public static let titleChars = 100
    public static let textChars = 10_000
    /// Text is also limited in UTF-8 bytes (10,000 characters of CJK fit; 10,000 emoji
    /// with combining marks, 30,000 code points, do not): a message's size is its cost.
    public static let textBytes = 32 * 1024
    /// How many times a text message can be edited (`messages.edit`), as in Messages.
    public static let editsPerMessage = 5
    /// Members one text may mention (`message.mentions`).
    public static let mentionsPerMessage = 20
    public static let urlChars = 5_000
    public static let layoutFieldChars = 300
    public static let idChars = 64
    public static let replayMessages = 500
    /// A resume replay goes out in pieces of about this size, the next one only once the
    /// connection has written the last: however long the missed messages, a replay
    /// never fills the outbound queue (which would close the connection as slow, on
    /// every resume, for ever).
    public static let replayPieceBytes = 128 * 1024
    public static let replayPieceMessages = 100
    /// A history page stops short of `limit` messages once it holds this many bytes.
    public static let historyPageBytes = 512 * 1024
    public static let historyPage = 200
    public static let historyDefault = 50
    /// A search (`messages.search`) reads at most this many messages, newest first, and
    /// at most `searchScanBytes` of their stored bodies, then says where it stopped: one
    /// search costs the engine (one thread, everyone's sends wait) a few milliseconds
    /// at most (docs/BENCHMARKS.md, "Search"), however long the conversation or its texts:
    /// 5,000 messages cost 5 ms of CPU on the 2-core test host, 2,000 about 2.
    public static let searchScanMessages = 2_000
    public static let searchScanBytes = 512 * 1024
    /// Matches in one answer (it stops there and says where to go on from).
    public static let searchResults = 20
    /// A query's characters, once trimmed.
    public static let searchQueryChars = 100
    /// Rows read from the store at a time while searching: a bound on what one read holds.
    public static let searchChunk = 250
    public static let blobBytes = 5 * 1024 * 1024
    /// A voice recording's file, and its length: 2 minutes of the 64 kbit/s Opus or AAC
    /// the web client asks for is about 1 MiB; 2 MiB leaves room for a recorder that
    /// keeps its own default (128 kbit/s: 1.9 MB) and for the container.
    public static let audioBytes = 2 * 1024 * 1024
    public static let audioMs = 120_000
    /// An image's width and height, each, and its pixels: a small file of huge
    /// dimensions would cost every viewer's renderer gigabytes.
    public static let imageSide = 10_000
    public static let imagePixels = 25_000_000
    /// Uploads in progress, in all and per client address.
    public static let uploadsInFlight = 32
    public static let uploadsPerAddress = 4
    /// An upload must finish within this time and, after a grace period, keep up an
    /// average rate: a client trickling bytes cannot hold a slot for ever.
    public static let uploadSeconds = 120
    public static let uploadGraceSeconds = 10
    public static let uploadMinBytesPerSecond = 2048
    /// Files being sent (the client's, images), in all and per client address: each
    /// holds an open file while its client reads, so all of them fit in the file
    /// descriptors kept aside from connections (`PeerLimits.processCapacity`). A browser
    /// fetches at most 6 at once; an address may be several people's.
    public static let downloadsInFlight = 128
    public static let downloadsPerAddress = 32
    /// A download must be over within `uploadSeconds` plus a second per this many bytes
    /// (5 MiB: 22 min): a client reading a byte now and then cannot hold a file for ever.
    public static let downloadMinBytesPerSecond = 4096
    public static let authSeconds = 5
    /// A silent connection is pinged after this, and closed after twice this.
    public static let keepaliveSeconds = 20
    /// Sends are refused as `server_busy` while the oldest request the engine has not
    /// answered has waited longer than this (a server past its capacity; 0: never).
    public static let busyAfterMs = 1000
    /// A write refused because the disk is full says to try again after this: its
    /// operator has to free space, which takes a while.
    public static let diskFullRetryMs = 30_000
    /// While batches keep failing, the log says so once, then a count this often.
    public static let failureLogSeconds = 10
    public static let authFailures = 3
    public static let presenceRoomSize = 200
    /// Cluster mode: each node repeats the presence it holds this often, and drops
    /// another node's after this many repeats missed (a node killed with -9 stops
    /// repeating: its users go offline elsewhere within 3 × 3 s and a sweep).
    public static let presenceRefreshSeconds = 3
    public static let presenceMissedRefreshes = 3
    /// Other nodes whose presence one conversation holds at once.
    public static let presenceNodes = 32
    /// Sessions one connection may mark as open in its pane at once (`playing`), and how
    /// long a mark lasts unless the client repeats it (a tab left open on a game).
    public static let playingPerConnection = 4
    public static let playingSeconds = 300
    /// Members listed in a conversation object: a 10,000-member room must not send
    /// 10,000 names with every join and subscribe. `members` looks up the others.
    public static let listedMembers = 200
    /// A connection this far behind at two sweeps in a row (1-2 s) is closed as a slow
    /// consumer (4008); twice this far, at once (`FrameQueue`). The bytes bound the
    /// memory it keeps (payloads are shared, a queued frame is a 32-byte slot). Until the
    /// chat burst benchmark (32 clients with 1,024 messages in flight each: up to 32,768
    /// frames on their way to every one of them) it was 4,096 frames and at once, which
    /// a pause of a few tens of milliseconds in its load generator passed.
    public static let outboundFrames = 16_384
    public static let outboundBytes = 4 * 1024 * 1024
    /// Bytes waiting to be written to all of one account's connections together: past
    /// it, the connection that grows is closed as a slow consumer. Without it one
    /// member's connections that ask for history and never read held 8 MiB each
    /// (64 connections from one address: 800 MiB, never given back).
    public static let outboundBytesPerUser = 24 * 1024 * 1024
    /// Seconds a connection being closed has to take its close frame (after what is
    /// queued before it): a peer that stopped reading never does, and its socket, with
    /// what lws holds of it, stayed open until the peer left. As lws's own close-send wait.
    public static let closeGraceSeconds: Int32 = 5
    /// The same for all connections from one address, whatever their accounts, at two
    /// sweeps in a row (1-2 s; LiveState.checkAddressBacklogs): 64 accounts'
    /// connections from one address (the connection limit) could otherwise hold just
    /// under 4 MiB each for good, 256 MiB. 32 connections' own bounds: fewer cannot
    /// pass it without passing their own, so people behind one NAT reading hard at
    /// once (the chat burst benchmark: 32 clients from one address) are never closed
    /// by it; only more, holding their backlogs, are.
    public static let outboundBytesPerAddress = 32 * outboundBytes
    public static let appDataKeyChars = 128
    public static let appDataValueBytes = 16 * 1024
    public static let appDataTotalBytes = 256 * 1024
    public static let appDataKeys = 1024
    /// An invite's use limit and lifetime, at most (the server's default lifetime,
    /// `--invite-days`, applies when none is asked for).
    public static let inviteUses = 10_000
    public static let inviteSeconds = 365 * 86_400
    /// Invites and registration links listed at once.
    public static let listedInvites = 500
    /// Invites a conversation may have open at once: each is listed to its moderators,
    /// and a member's list read them all (100,000 made by a few accounts over a week
    /// cost 0.5-0.9 s a list; an outside review).
    public static let openInvitesPerConversation = 1000
    /// Users an admin lists at once (page with `after`).
    public static let listedUsers = 500
    /// Unused images deleted per sweep, and the longest time between two sweeps: a
    /// backlog is worked off in small transactions.
    public static let imagesCollectedPerSweep = 100
    public static let imageSweepSeconds = 60
    /// Invites that can no longer be used are deleted this long after (an outside soak
    /// run: every invite ever made stayed), looked for once an hour.
    public static let deadInviteDays = 30
    public static let inviteSweepSeconds = 3600
    /// Signed-in devices one account may have.
    public static let devicesPerUser = 50
    /// Characters of a device link's short code and of a recovery key (each from an
    /// alphabet of 30: about 39 and 118 bits).
    public static let linkCodeChars = 8
    public static let recoveryKeyChars = 24
}
