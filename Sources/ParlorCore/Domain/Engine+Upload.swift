/// `POST /blobs`: the uploader must hold a valid token; the bytes must be an image.
extension Engine {
    func handleUpload(_ id: UploadID, _ token: String?, _ body: [UInt8], _ tx: any StoreTransaction,
                      _ out: inout Outbox) {
        func answer(_ status: Int, _ json: [UInt8]) {
            out.actions.append(.uploadDone(id, status: status, body: json))
        }
        func fail(_ status: Int, _ code: String, _ message: String) {
            answer(status, JSONWriter.object { w in w.field("code", code); w.field("message", message) })
        }
        do {
            guard let token, try tx.user(tokenHash: Secrets.tokenHash(token)) != nil else {
                return fail(401, "invalid_token", "send Authorization: Bearer <token>")
            }
        } catch {
            return fail(500, "internal", "the server could not check the token")
        }
        guard body.count <= Limits.blobBytes else { return fail(413, "too_large", "images are limited to 5 MiB") }
        guard let type = ImageType.detect(body) else {
            return fail(415, "not_an_image", "only PNG, JPEG, GIF and WebP images are accepted")
        }
        do {
            let hash = try blobs.put(body, type: type)
            answer(201, JSONWriter.object { w in
                w.field("hash", hash)
                w.field("type", type.mime)
                w.field("size", body.count)
            })
        } catch {
            fail(500, "internal", "the server could not store the image")
        }
    }
}
