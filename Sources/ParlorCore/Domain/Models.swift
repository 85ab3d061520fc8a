public struct User: Equatable, Sendable {
    public var id: String
    public var name: String
    /// A server admin: may moderate every conversation and use `admin.*`.
    public var admin = false
}

/// One signed-in browser of a user, with its own token (only the hash is stored).
public struct Device: Equatable, Sendable {
    public var id: String
    public var userId: String
    public var name: String
    public var createdAt: Int
    public var lastSeenAt: Int
}

/// A one-time sign-in for another device: a long token (for a link) and a short code
/// (to type), both hashed, valid for minutes and used once.
public struct DeviceLink: Equatable, Sendable {
    public var id: String
    public var userId: String
    public var createdAt: Int
    public var expiresAt: Int
    public var usedAt: Int?
}

public struct Member: Equatable, Sendable {
    public var userId: String
    public var name: String
}

public struct Conversation: Equatable, Sendable {
    public var id: String
    public var title: String
    public var createdAt: Int
    public var lastSeq: Int
    /// The first members by join order, at most `Limits.listedMembers`; `memberCount` has them all.
    public var members: [Member]
    public var memberCount: Int
    /// A direct conversation's two people (Engine+Direct.swift), whoever of them left; nil for a group.
    public var directUserIds: [String]? = nil
    /// Their names now, in the same order: the one who left is still named (it is theirs).
    public var directNames: [String]? = nil
    /// Who may rename it and remove members (with the server's admins); nil for
    /// conversations older than that rule whose first member is gone.
    public var createdBy: String?
    /// The asking user's read mark (`conversations.list` only): the highest seq they
    /// told the server they read, on any of their devices.
    public var lastReadSeq: Int? = nil
    /// The asking user's notification level here (their own views of it only).
    public var notify: NotifyLevel? = nil
}

/// A code that lets its holder join a conversation, or, without one, create an
/// account (a registration link). Only its hash is stored.
public struct Invite: Equatable, Sendable {
    public var id: String
    public var conversationId: String?
    public var createdBy: String
    public var createdAt: Int
    public var expiresAt: Int
    public var maxUses: Int?
    public var uses = 0
    public var revokedAt: Int?

    public func isUsable(at now: Int) -> Bool {
        revokedAt == nil && now < expiresAt && (maxUses.map { uses < $0 } ?? true)
    }
}

/// An invite as an admin's list shows it: which conversation and whose, by name, for
/// an admin who is neither in it nor knows its id.
public struct ListedInvite: Equatable, Sendable {
    public var invite: Invite
    /// nil: a registration link.
    public var conversationTitle: String?
    /// nil: a link made with `parlor admin` at the server's shell.
    public var makerName: String?
}

/// A session's head: which message currently stands for it, and its version.
public struct SessionHead: Equatable, Sendable {
    public var appId: String
    public var version: Int
    public var currentSeq: Int
    /// The head message's summary, when the engine saw it sent (read back from the
    /// database a head has none, and its row's summary is read when superseded).
    public var summary: String? = nil

    public init(appId: String, version: Int, currentSeq: Int, summary: String? = nil) {
        self.appId = appId
        self.version = version
        self.currentSeq = currentSeq
        self.summary = summary
    }
}

/// A message as stored: the envelope the server assigns, plus the sender's body.
public struct StoredMessage: Equatable, Sendable {
    public var conversationId: String
    public var seq: Int
    public var clientId: String
    public var sender: String
    public var createdAt: Int
    /// The kind-specific fields, one JSON object (`MessageContent.bodyJSON`).
    public var body: [UInt8]
    public var senderParticipantId: String?
    public var sessionId: String?
    public var sessionVersion: Int?
    public var supersededBy: Int?
    public var summary: String?
    /// Set once deleted: the body is then `{"kind":"deleted"}`.
    public var deletedAt: Int?
}

/// Whether an account can still sign in.
public enum AccountStatus: Sendable {
    case active, deactivated, deleted

    init(deactivated: Bool, deleted: Bool) {
        self = deleted ? .deleted : deactivated ? .deactivated : .active
    }
}

/// A user as an admin sees them.
public struct UserSummary: Equatable, Sendable {
    public var user: User
    public var createdAt: Int
    public var deactivatedAt: Int?
    /// Its person deleted it (`account.delete`): it cannot be reactivated.
    public var deletedAt: Int?
    public var devices: Int
}
