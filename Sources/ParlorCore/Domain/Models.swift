public struct User: Equatable, Sendable {
    public var id: String
    public var name: String
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
}

/// A session's head: which message currently stands for it, and its version.
public struct SessionHead: Equatable, Sendable {
    public var appId: String
    public var version: Int
    public var currentSeq: Int
    /// The head message's summaryText, when the engine saw it sent (not stored: read
    /// back from the database a head has none, and its message is read when superseded).
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
}
