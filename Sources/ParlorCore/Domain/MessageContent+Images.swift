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
        case .attachment(let image, _, _, _): [(image, "message.image")]
        case .audio(let audio, _, _): [(audio, Self.audioField)]
        }
    }

    /// Whether it shows a picture whose size goes with it (`withImageSizes`): asked of
    /// every send, without making `images`' array.
    var showsSizedImage: Bool {
        switch self {
        case .attachment: true
        case .app(let a): a.layout.image != nil
        default: false
        }
    }

    /// With each shown image's size as `size` says it (nil: none): an attachment's
    /// and an app layout's picture. Stickers are drawn at one size whatever theirs.
    func withImageSizes(_ size: (String) -> ImageSize?) -> MessageContent {
        switch self {
        case .attachment(let image, let name, let replyTo, _):
            return .attachment(image: image, name: name, replyTo: replyTo, size: size(image))
        case .app(var a) where a.layout.image != nil:
            a.layout.imageSize = a.layout.image.flatMap(size)
            return .app(a)
        default:
            return self
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
