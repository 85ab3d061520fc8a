extension MessageContent {
    /// The field naming a voice message's recording: the one blob field that must hold audio.
    static let audioField = "message.audio"

    /// The stored blobs (images, and a voice message's recording) the message shows,
    /// with the field each is in: each is checked, counted and released alike.
    var images: [(hash: String, field: String)] {
        switch self {
        case .text, .reaction: []
        case .app(let a): a.layout.image.map { [($0, "message.layout.image")] } ?? []
        case .sticker(let s): [(s.image, "message.image")]
        case .attachment(let image, _, _): [(image, "message.image")]
        case .audio(let audio, _, _): [(audio, Self.audioField)]
        }
    }

    /// The same, read back from a stored body (`bodyJSON`): `image`, `layout.image` or `audio`.
    static func imageHashes(ofBody body: [UInt8]) -> [String] {
        guard let v = try? JSONParser.parse(body) else { return [] }
        var out: [String] = []
        if case .string(let h)? = v["image"], Validators.isBlobHash(h) { out.append(h) }
        if case .string(let h)? = v["layout"]?["image"], Validators.isBlobHash(h) { out.append(h) }
        if case .string(let h)? = v["audio"], Validators.isBlobHash(h) { out.append(h) }
        return out
    }
}
