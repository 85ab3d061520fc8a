/// An error a client sees: a stable code, a readable message, and the field at fault.
/// Messages never contain tokens, SQL or message bodies.
public struct ParlorError: Error, Equatable, Sendable {
    public enum Code: String, Sendable {
        case badJSON = "bad_json"
        case unknownType = "unknown_type"
        case invalidField = "invalid_field"
        case tooLong = "too_long"
        case notAuthenticated = "not_authenticated"
        case alreadyAuthenticated = "already_authenticated"
        case invalidToken = "invalid_token"
        case invalidLink = "invalid_link"
        case invalidRecoveryKey = "invalid_recovery_key"
        case registrationClosed = "registration_closed"
        case tooManyDevices = "too_many_devices"
        case notMember = "not_member"
        case invalidInvite = "invalid_invite"
        case unknownApp = "unknown_app"
        case clientIdReused = "client_id_reused"
        case sessionConflict = "session_conflict"
        case sessionAppMismatch = "session_app_mismatch"
        case notFound = "not_found"
        case storageFull = "storage_full"
        case forbidden = "forbidden"
        case rateLimited = "rate_limited"
        case serverBusy = "server_busy"
        case diskFull = "disk_full"
        case tooManySessions = "too_many_sessions"
        case tooManyInvites = "too_many_invites"
        case tooManyReports = "too_many_reports"
        case tooManyBlocks = "too_many_blocks"
        case internalError = "internal"
    }

    public var code: Code
    public var message: String
    public var field: String?
    /// For `session_conflict`: the session's current message, serialized.
    public var current: [UInt8]?
    /// For `rate_limited` and `server_busy`: when to try again.
    public var retryAfterMs: Int?

    public init(_ code: Code, _ message: String, field: String? = nil, current: [UInt8]? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.current = current
    }

    public static func invalid(_ field: String, _ why: String = "is missing or has the wrong type") -> ParlorError {
        ParlorError(.invalidField, "\(field) \(why)", field: field)
    }

    public static func tooLong(_ field: String, max: Int) -> ParlorError {
        ParlorError(.tooLong, "\(field) is longer than \(max) characters (or \(max * Validators.bytesPerCharacter) bytes)", field: field)
    }

    /// A wrong credential: counted against the connection (and its address).
    public var isSignInFailure: Bool { [.invalidToken, .invalidLink, .invalidRecoveryKey].contains(code) }

    public static func rateLimited(_ what: String, retryAfterMs: Int) -> ParlorError {
        var e = ParlorError(.rateLimited, "too many \(what); try again in \((retryAfterMs + 999) / 1000) s")
        e.retryAfterMs = retryAfterMs
        return e
    }

    /// The server's disk is full: nothing was stored. Reads are still answered.
    public static var diskFull: ParlorError {
        var e = ParlorError(.diskFull, "the server is out of disk space: nothing was stored; try again later")
        e.retryAfterMs = Limits.diskFullRetryMs
        return e
    }

    public static func serverBusy(retryAfterMs: Int) -> ParlorError {
        var e = ParlorError(.serverBusy, "the server is busy; try again in \((retryAfterMs + 999) / 1000) s")
        e.retryAfterMs = retryAfterMs
        return e
    }

    public static let notMember = ParlorError(.notMember, "you are not a member of this conversation")
}
