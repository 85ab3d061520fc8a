/// Every size limit the server enforces, in one place (docs/PROTOCOL.md lists them).
public enum Limits {
    public static let frameBytes = 64 * 1024
    public static let nameChars = 64
    public static let titleChars = 100
    public static let textChars = 10_000
    public static let urlChars = 5_000
    public static let layoutFieldChars = 300
    public static let idChars = 64
    public static let replayMessages = 500
    public static let historyPage = 200
    public static let historyDefault = 50
    public static let blobBytes = 5 * 1024 * 1024
    public static let authSeconds = 5
    public static let authFailures = 3
    public static let presenceRoomSize = 200
    /// Members listed in a conversation object: a 10,000-member room must not send
    /// 10,000 names with every join and subscribe. `members` looks up the others.
    public static let listedMembers = 200
    public static let outboundFrames = 4096
    public static let outboundBytes = 4 * 1024 * 1024
    public static let appDataKeyChars = 128
    public static let appDataValueBytes = 16 * 1024
    public static let appDataTotalBytes = 256 * 1024
}
