/// What a server's operator decides about its community (`parlor serve` flags); the
/// defaults suit a community of a few hundred people.
public struct EngineSettings: Sendable {
    /// How long an invite lasts when its creator asks for no shorter time.
    public var inviteSeconds = 7 * 86_400

    public init() {}
}
