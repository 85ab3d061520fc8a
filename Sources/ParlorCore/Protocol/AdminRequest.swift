/// What an admin may do, over the protocol (`admin.*` frames, from admins only) and from
/// the shell (`parlor admin`, which sends the same frames).
public enum AdminRequest: Equatable, Sendable {
    case listUsers(after: String?, limit: Int)
    case setAdmin(userId: String, admin: Bool)
    /// Revokes every device (closing their connections) and the recovery key.
    case deactivateUser(userId: String)
    /// Undoes a deactivation: the account may sign in again, through a one-time device
    /// link the admin hands to its person (its devices and recovery key stay revoked).
    case reactivateUser(userId: String)
    /// Deletes an account for its person (who asked to be removed), as `account.delete`:
    /// the name goes from every conversation; what they sent stays, under "Deleted account".
    case deleteUser(userId: String)
    case createRegistrationLink(maxUses: Int?, expiresInSeconds: Int?)
    /// Every usable invite, or one conversation's.
    case listInvites(conversationId: String?)
    case revokeInvite(inviteId: String)
    case deleteMessage(conversationId: String, seq: Int)
    /// Deletes every message that shows the image, and the image.
    case deleteImage(hash: String)
    /// Open reports, newest first (`after`: the last report id of the page before).
    case listReports(after: String?, limit: Int)
    /// Closes the report and every other open report of the same message.
    case resolveReport(reportId: String)

    var typeName: String {
        switch self {
        case .listUsers: "admin.users.list"
        case .setAdmin: "admin.users.setAdmin"
        case .deactivateUser: "admin.users.deactivate"
        case .reactivateUser: "admin.users.reactivate"
        case .deleteUser: "admin.users.delete"
        case .createRegistrationLink: "admin.registrationLinks.create"
        case .listInvites: "admin.invites.list"
        case .revokeInvite: "admin.invites.revoke"
        case .deleteMessage: "admin.messages.delete"
        case .deleteImage: "admin.images.delete"
        case .listReports: "admin.reports.list"
        case .resolveReport: "admin.reports.resolve"
        }
    }

    static func parse(_ type: String, _ f: Fields) throws(ParlorError) -> AdminRequest? {
        switch type {
        case "admin.users.list":
            return .listUsers(after: try f.optionalIdentifier("after", max: Limits.idChars),
                              limit: try f.optionalInt("limit", min: 1, max: Limits.listedUsers) ?? Limits.listedUsers)
        case "admin.users.setAdmin":
            guard let admin = try f.optionalBool("admin") else { throw .invalid("admin") }
            return .setAdmin(userId: try f.id("userId"), admin: admin)
        case "admin.users.deactivate": return .deactivateUser(userId: try f.id("userId"))
        case "admin.users.reactivate": return .reactivateUser(userId: try f.id("userId"))
        case "admin.users.delete": return .deleteUser(userId: try f.id("userId"))
        case "admin.registrationLinks.create":
            return .createRegistrationLink(
                maxUses: try f.optionalInt("maxUses", min: 1, max: Limits.inviteUses),
                expiresInSeconds: try f.optionalInt("expiresInSeconds", min: 1, max: Limits.inviteSeconds))
        case "admin.invites.list":
            return .listInvites(conversationId: try f.optionalIdentifier("conversationId", max: Limits.idChars))
        case "admin.invites.revoke": return .revokeInvite(inviteId: try f.id("inviteId"))
        case "admin.messages.delete":
            guard let seq = try f.optionalInt("seq", min: 1) else { throw .invalid("seq") }
            return .deleteMessage(conversationId: try f.id("conversationId"), seq: seq)
        case "admin.images.delete": return .deleteImage(hash: try f.blobHash("hash"))
        case "admin.reports.list":
            return .listReports(after: try f.optionalIdentifier("after", max: Limits.idChars),
                                limit: try f.optionalInt("limit", min: 1, max: Limits.listedReports) ?? Limits.listedReports)
        case "admin.reports.resolve": return .resolveReport(reportId: try f.id("reportId"))
        default: return nil
        }
    }
}
