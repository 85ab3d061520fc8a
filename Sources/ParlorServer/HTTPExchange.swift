/// One HTTP request/response on the service thread: an upload being received, or a
/// response waiting for the socket (headers first, then the body).
final class HTTPExchange {
    let id: UInt64
    let wsi: OpaquePointer
    var token: String?
    var body: [UInt8] = []
    var tooLarge = false
    var response: (status: Int, type: String, body: [UInt8], headers: [(String, String)])?
    var headersSent = false
    var closeAfter = false

    init(id: UInt64, wsi: OpaquePointer) {
        self.id = id
        self.wsi = wsi
    }
}
