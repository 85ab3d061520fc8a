/// A member's report of someone else's message to the server's admins
/// (`messages.report`), with a copy of the message as it was when reported, so the
/// admins can judge it even once its sender deleted it. Resolving it drops the copy and
/// the reason; who resolved it and when stay (for `Limits.resolvedReportDays`).
public struct NewReport: Sendable {
    public var conversationId: String
    public var seq: Int
    public var reporter: String
    public var sender: String
    public var reason: String?
    /// The message's words as they were: `Engine.reportCopy`.
    public var copy: [UInt8]
    public var messageCreatedAt: Int
    public var createdAt: Int
}

/// An open report as `admin.reports.list` shows it.
public struct OpenReport: Sendable {
    public var id: Int
    public var conversationId: String
    /// nil: the conversation is gone (none is ever deleted today).
    public var conversationTitle: String?
    public var seq: Int
    public var copy: [UInt8]
    public var sender: String
    public var senderName: String?
    public var messageCreatedAt: Int
    public var reporter: String
    public var reporterName: String?
    public var reason: String?
    public var createdAt: Int
    /// Open reports of the same message, this one included.
    public var reporters: Int
    /// When the message was deleted since, if it was.
    public var messageDeletedAt: Int?
}

extension Limits {
    /// Reports one person may have open (not yet resolved by an admin): past it,
    /// `too_many_reports`. A report stores a copy of a message (up to 32 KiB).
    public static let openReportsPerUser = 100
    /// A report's optional reason, as long as a caption.
    public static let reportReasonChars = 300
    /// `admin.reports.list` answers at most this many a page.
    public static let listedReports = 100
    /// Resolved reports (ids and times only, no copy) are deleted after this long.
    public static let resolvedReportDays = 90
}
