/// An image upload in progress: its body streams into a temporary file (never into
/// memory), and it is stored only once the token proved valid and every byte arrived.
final class Upload {
    let id: UInt64
    let wsi: OpaquePointer
    let address: String
    let expected: Int
    let startedAt: ContinuousClock.Instant
    var fd: Int32
    let path: String
    var received = 0
    /// nil until the engine has checked the token.
    var authorized: Bool?
    /// Whose upload it is, once the token is checked.
    var userId: String?
    var bodyDone = false
    var committing = false

    init(id: UInt64, wsi: OpaquePointer, address: String, expected: Int, fd: Int32, path: String) {
        self.id = id
        self.wsi = wsi
        self.address = address
        self.expected = expected
        self.fd = fd
        self.path = path
        startedAt = .now
    }
}
