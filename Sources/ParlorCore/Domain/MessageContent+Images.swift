extension MessageContent {
    /// The stored images the message shows, with the field each is in.
    var images: [(hash: String, field: String)] {
        switch self {
        case .text, .reaction: []
        case .app(let a): a.layout.image.map { [($0, "message.layout.image")] } ?? []
        case .sticker(let s): [(s.image, "message.image")]
        case .attachment(let image, _, _): [(image, "message.image")]
        }
    }

    /// The same, read back from a stored body (`bodyJSON`): `image` or `layout.image`.
    static func imageHashes(ofBody body: [UInt8]) -> [String] {
        guard let v = try? JSONParser.parse(body) else { return [] }
        var out: [String] = []
        if case .string(let h)? = v["image"], Validators.isBlobHash(h) { out.append(h) }
        if case .string(let h)? = v["layout"]?["image"], Validators.isBlobHash(h) { out.append(h) }
        return out
    }
}
