/// How much of a conversation's news a member wants told (`conversations.setNotify`):
/// kept on the server in their membership row, so every device of theirs follows.
/// The server only stores and relays it; each client decides what to notify by it.
public enum NotifyLevel: String, Equatable, Sendable, CaseIterable {
    case all, mentions, none

    /// As stored (the column's default, 0, is `all`).
    public var code: Int {
        switch self {
        case .all: 0
        case .mentions: 1
        case .none: 2
        }
    }

    public init(code: Int) {
        self = code == 1 ? .mentions : code == 2 ? .none : .all
    }
}
