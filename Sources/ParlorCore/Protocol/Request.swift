/// One client frame, validated: what the client asked for and the id to answer with.
public struct ClientFrame: Equatable, Sendable {
    public var id: String?
    public var request: Request
}

public enum Request: Equatable, Sendable {
    /// `invite`: a conversation invite or registration link code (see `--registration`).
    case register(name: String, invite: String?, deviceName: String?)
    case auth(token: String)
    /// Sign in with a device link's token or short code.
    case linkDevice(code: String, deviceName: String?)
    case recover(recoveryKey: String, deviceName: String?, revokeOthers: Bool)
    case listDevices
    case renameDevice(deviceId: String, name: String)
    case revokeDevice(deviceId: String)
    /// Sign out everywhere (`keepThis`: but here).
    case revokeAllDevices(keepThis: Bool)
    case createDeviceLink
    case createRecoveryKey
    /// The person deletes their own account; `confirm` is its name, typed again.
    case deleteAccount(confirm: String)
    case admin(AdminRequest)
    case rename(name: String)
    case listConversations
    case createConversation(title: String)
    case createInvite(conversationId: String, maxUses: Int?, expiresInSeconds: Int?)
    case listInvites(conversationId: String)
    case revokeInvite(inviteId: String)
    case leaveConversation(conversationId: String)
    case removeMember(conversationId: String, userId: String)
    case renameConversation(conversationId: String, title: String)
    case deleteMessage(conversationId: String, seq: Int)
    /// The sender replaces the text of their text message `seq`.
    case editMessage(conversationId: String, seq: Int, text: String, mentions: [String]?)
    /// A member tells the server's admins about someone else's message (Engine+Reports.swift).
    case reportMessage(conversationId: String, seq: Int, reason: String?)
    /// The one direct conversation with `userId`, made if need be (Engine+Direct.swift).
    case openDirect(userId: String)
    case block(userId: String)
    case unblock(userId: String)
    case join(invite: String)
    /// What an invite leads to (title, member count), so the client can ask before joining.
    case peekInvite(invite: String)
    /// `afterClientId`: the clientId of the message the client holds at `afterSeq`.
    case subscribe(conversationId: String, afterSeq: Int, afterClientId: String?)
    case unsubscribe(conversationId: String)
    /// Answered at once with `{}`: a page's check that its connection is alive (a
    /// half-open socket, on a weak signal, looks open and carries nothing).
    case ping
    case send(conversationId: String, clientId: String, content: MessageContent)
    /// Older messages (`beforeSeq`, or the newest) or, with `afterSeq`, newer ones.
    case history(conversationId: String, beforeSeq: Int?, afterSeq: Int?, limit: Int)
    /// The messages that say `query`'s words, newest first, before `beforeSeq` (or the
    /// newest): a bounded scan that says where it stopped (Engine+Search.swift).
    case searchMessages(conversationId: String, query: String, beforeSeq: Int?)
    case installApp(appId: String)
    case uninstallApp(appId: String)
    case participants(conversationId: String, appId: String)
    case members(conversationId: String, userIds: [String])
    case getAppData(appId: String)
    /// `value` nil removes the key.
    case setAppData(appId: String, key: String, value: JSONValue?)
    /// This connection opened (`playing`) or closed a session in the expanded pane.
    case playing(conversationId: String, sessionId: String, playing: Bool)
    /// The user has read the conversation up to `seq`: their other devices follow.
    case markRead(conversationId: String, seq: Int)
    /// The user is writing in the conversation (`typing`), or stopped without sending.
    case typing(conversationId: String, typing: Bool)
    /// The user's notification level in the conversation, for all their devices.
    case setNotify(conversationId: String, notify: NotifyLevel)

    /// The frame type it came as, for metrics.
    public var typeName: String {
        switch self {
        case .register: "register"
        case .auth: "auth"
        case .linkDevice: "device.link"
        case .recover: "recover"
        case .listDevices: "devices.list"
        case .renameDevice: "devices.rename"
        case .revokeDevice: "devices.revoke"
        case .revokeAllDevices: "devices.revokeAll"
        case .createDeviceLink: "devices.createLink"
        case .createRecoveryKey: "recovery.create"
        case .deleteAccount: "account.delete"
        case .admin(let a): a.typeName
        case .rename: "rename"
        case .listConversations: "conversations.list"
        case .createConversation: "conversations.create"
        case .createInvite: "invites.create"
        case .listInvites: "invites.list"
        case .revokeInvite: "invites.revoke"
        case .leaveConversation: "conversations.leave"
        case .removeMember: "conversations.removeMember"
        case .renameConversation: "conversations.rename"
        case .deleteMessage: "messages.delete"
        case .editMessage: "messages.edit"
        case .reportMessage: "messages.report"
        case .openDirect: "conversations.direct"
        case .block: "users.block"
        case .unblock: "users.unblock"
        case .join: "conversations.join"
        case .peekInvite: "invites.peek"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .ping: "ping"
        case .send: "send"
        case .history: "history"
        case .searchMessages: "messages.search"
        case .installApp: "apps.install"
        case .uninstallApp: "apps.uninstall"
        case .participants: "participants"
        case .members: "members"
        case .getAppData: "appdata.get"
        case .setAppData: "appdata.set"
        case .playing: "playing"
        case .markRead: "read"
        case .typing: "typing"
        case .setNotify: "conversations.setNotify"
        }
    }

    /// Requests allowed before the connection has authenticated.
    public var isAuthentication: Bool {
        switch self {
        case .register, .auth, .linkDevice, .recover: true
        default: false
        }
    }
}
