/// What a server's operator decides about its community (`parlor serve` flags); the
/// defaults suit a community of a few hundred people.
public struct EngineSettings: Sendable {
    /// How long an invite lasts when its creator asks for no shorter time.
    public var inviteSeconds = 7 * 86_400
    /// How long a device link (and its short code) can be used.
    public var deviceLinkSeconds = 600
    public var registration = Registration.invite

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
