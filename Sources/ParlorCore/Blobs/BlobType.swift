/// What a stored blob is: an image or a voice recording. Told by the file's first bytes
/// on upload, and by its name's extension in the store (`<hash>.<fileExtension>`).
public enum BlobType: Equatable, Sendable {
    case image(ImageType)
    case audio(AudioType)

    public static let allCases: [BlobType] = ImageType.allCases.map(BlobType.image) + AudioType.allCases.map(BlobType.audio)

    public var mime: String {
        switch self {
        case .image(let t): t.mime
        case .audio(let t): t.mime
        }
    }

    public var fileExtension: String {
        switch self {
        case .image(let t): t.rawValue
        case .audio(let t): t.rawValue
        }
    }

    public var isAudio: Bool { if case .audio = self { true } else { false } }

    public init?(fileExtension: String) {
        guard let t = Self.allCases.first(where: { $0.fileExtension == fileExtension }) else { return nil }
        self = t
    }

    public static func detect<C: Collection>(_ bytes: C) -> BlobType? where C.Element == UInt8 {
        if let t = ImageType.detect(bytes) { return .image(t) }
        if let t = AudioType.detect(bytes) { return .audio(t) }
        return nil
    }
}
