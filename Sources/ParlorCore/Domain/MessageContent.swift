/// What a sender puts in a message, validated. The server stores it and relays it;
/// it never interprets an app's URL.
public enum MessageContent: Equatable, Sendable {
    case text(String)
    case app(AppContent)
    case sticker(Sticker)
    case attachment(image: String, name: String?)

    public var kind: String {
        switch self {
        case .text: "text"
        case .app: "app"
        case .sticker: "sticker"
        case .attachment: "attachment"
        }
    }
}

public struct AppContent: Equatable, Sendable {
    public var appId: String
    public var url: String
    public var layout: TemplateLayout
    public var summaryText: String?
    public var session: SessionRef?
    public var live: Bool
}

public struct SessionRef: Equatable, Sendable {
    public var id: String
    public var baseVersion: Int
}

/// The fields of MSMessageTemplateLayout; `image` is a blob hash.
public struct TemplateLayout: Equatable, Sendable {
    public static let textFields = [
        "imageTitle", "imageSubtitle", "caption", "subcaption", "trailingCaption", "trailingSubcaption",
    ]
    public var image: String?
    public var texts: [String: String] = [:]
    public var isEmpty: Bool { image == nil && texts.isEmpty }
}

public struct Sticker: Equatable, Sendable {
    public var image: String
    public var description: String?
    public var stuckTo: StuckTo?
}

public struct StuckTo: Equatable, Sendable {
    public var seq: Int
    public var x: Double
    public var y: Double
}

extension MessageContent {
    /// The stored body: the kind-specific fields as one JSON object, in a fixed order,
    /// so that equal content always serializes to equal bytes (idempotent retries
    /// compare these).
    public var bodyJSON: [UInt8] {
        JSONWriter.object { w in
            w.field("kind", kind)
            switch self {
            case .text(let t):
                w.field("text", t)
            case .app(let a):
                w.field("appId", a.appId)
                w.field("url", a.url)
                if !a.layout.isEmpty {
                    w.key("layout")
                    w.beginObject()
                    w.field("image", a.layout.image)
                    for f in TemplateLayout.textFields { w.field(f, a.layout.texts[f]) }
                    w.endObject()
                }
                w.field("summaryText", a.summaryText)
                w.field("live", a.live)
            case .sticker(let s):
                w.field("image", s.image)
                w.field("description", s.description)
                if let t = s.stuckTo {
                    w.key("stuckTo")
                    w.beginObject()
                    w.field("seq", t.seq)
                    w.key("x"); w.double(t.x)
                    w.key("y"); w.double(t.y)
                    w.endObject()
                }
            case .attachment(let image, let name):
                w.field("image", image)
                w.field("name", name)
            }
        }
    }

    public var appId: String? { if case .app(let a) = self { a.appId } else { nil } }
    public var session: SessionRef? { if case .app(let a) = self { a.session } else { nil } }
    public var summaryText: String? { if case .app(let a) = self { a.summaryText } else { nil } }
}
