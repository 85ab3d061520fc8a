/// What a sender puts in a message, validated. The server stores it and relays it;
/// it never interprets an app's URL.
public enum MessageContent: Equatable, Sendable {
    /// `replyTo` (here, in a sticker and in an attachment): the seq of the message this
    /// one answers, shown as a quote above it (an inline reply).
    /// `mentions`: the members it names as `@Name` (Engine+Mentions.swift).
    case text(String, replyTo: Int? = nil, mentions: [String] = [])
    case app(AppContent)
    case sticker(Sticker)
    /// `size`: the stored image's, set by the server as it is sent (`Engine.send`), never
    /// the sender's word, so that a bubble has its shape before the picture arrives.
    case attachment(image: String, name: String?, replyTo: Int? = nil, size: ImageSize? = nil)
    /// A voice message: the recording's blob hash and its length (1 ms … 2 minutes).
    case audio(audio: String, durationMs: Int, replyTo: Int? = nil)
    /// A tapback on message `to`: one of `Reaction.emoji`, or "" to take one's back.
    case reaction(to: Int, emoji: String)

    public var kind: String {
        switch self {
        case .text: "text"
        case .app: "app"
        case .sticker: "sticker"
        case .attachment: "attachment"
        case .audio: "audio"
        case .reaction: "reaction"
        }
    }

    /// The message this one replies to, if any.
    public var replyTo: Int? {
        switch self {
        case .text(_, let r, _), .attachment(_, _, let r, _): r
        case .audio(_, _, let r): r
        case .sticker(let s): s.replyTo
        case .app, .reaction: nil
        }
    }
}

/// iMessage's six tapbacks. A person's reaction to a message is their newest reaction
/// message to it (highest seq); an empty emoji means none.
public enum Reaction {
    /// Love, Like, Dislike, Laugh, Emphasize, Question, as stored and sent.
    public static let emoji = ["\u{2764}\u{FE0F}", "\u{1F44D}", "\u{1F44E}", "\u{1F602}", "\u{203C}\u{FE0F}", "\u{2753}"]

    /// The stored form of what a client sent: one of `emoji` (❤ and ‼ without their
    /// U+FE0F, as some keyboards write them, become the form with it), "" as it is, or nil.
    public static func normalised(_ s: String) -> String? {
        if s.isEmpty { return s }
        let scalars = Array(s.unicodeScalars)
        if let e = emoji.first(where: { Array($0.unicodeScalars) == scalars }) { return e }
        if scalars.count == 1, let e = emoji.first(where: { $0.unicodeScalars.first == scalars[0] }) { return e }
        return nil
    }

    static let refusal = "must be one of \u{2764}\u{FE0F} \u{1F44D} \u{1F44E} \u{1F602} \u{203C}\u{FE0F} \u{2753}, or empty to take the reaction back"
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
    /// `"field":` for each of `textFields`, as `bodyJSON` writes it.
    static let textKeys: [StaticString] = [
        #""imageTitle":"#, #""imageSubtitle":"#, #""caption":"#, #""subcaption":"#, #""trailingCaption":"#,
        #""trailingSubcaption":"#,
    ]
    public var image: String?
    /// The stored image's size, set by the server as for an attachment.
    public var imageSize: ImageSize?
    public var texts = Texts()
    public var isEmpty: Bool { image == nil && texts.isEmpty }

    /// The text fields, by name (one of `textFields`) or by index in `textFields`: a
    /// slot each instead of a dictionary, which cost a hash per field per message.
    public struct Texts: Equatable, Sendable {
        private var imageTitle, imageSubtitle, caption, subcaption, trailingCaption, trailingSubcaption: String?

        public init() {}

        public var isEmpty: Bool {
            imageTitle == nil && imageSubtitle == nil && caption == nil && subcaption == nil
                && trailingCaption == nil && trailingSubcaption == nil
        }

        public subscript(index index: Int) -> String? {
            get {
                switch index {
                case 0: imageTitle
                case 1: imageSubtitle
                case 2: caption
                case 3: subcaption
                case 4: trailingCaption
                case 5: trailingSubcaption
                default: nil
                }
            }
            set {
                switch index {
                case 0: imageTitle = newValue
                case 1: imageSubtitle = newValue
                case 2: caption = newValue
                case 3: subcaption = newValue
                case 4: trailingCaption = newValue
                case 5: trailingSubcaption = newValue
                default: preconditionFailure("no layout text field \(index)")
                }
            }
        }

        public subscript(name: String) -> String? {
            get { TemplateLayout.textFields.firstIndex(of: name).flatMap { self[index: $0] } }
            set {
                guard let i = TemplateLayout.textFields.firstIndex(of: name) else {
                    preconditionFailure("no layout text field \(name)")
                }
                self[index: i] = newValue
            }
        }
    }
}

public struct Sticker: Equatable, Sendable {
    public var image: String
    public var description: String?
    public var stuckTo: StuckTo?
    /// Never with `stuckTo`: a sticker on a bubble answers nothing.
    public var replyTo: Int? = nil
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
        // What `JSONWriter` wrote field by field, with the keys and punctuation as
        // constant bytes: the same bytes, without a String per key.
        var out: [UInt8] = []
        switch self {
        case .text(let t, let replyTo, let mentions):
            out.reserveCapacity(t.utf8.count + 26)
            out.append(#"{"kind":"text","text":"#)
            JSONWriter.appendString(t, to: &out)
            if !mentions.isEmpty {
                out.append(#","mentions":["#)
                for (i, m) in mentions.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    JSONWriter.appendString(m, to: &out)
                }
                out.append(UInt8(ascii: "]"))
            }
            if let replyTo { out.appendReplyTo(replyTo) }
        case .app(let a):
            out.reserveCapacity(a.url.utf8.count + 160)
            out.append(#"{"kind":"app","appId":"#)
            JSONWriter.appendString(a.appId, to: &out)
            out.append(#","url":"#)
            JSONWriter.appendString(a.url, to: &out)
            if !a.layout.isEmpty {
                out.append(#","layout":{"#)
                var comma = false
                if let image = a.layout.image {
                    out.append(#""image":"#)
                    JSONWriter.appendString(image, to: &out)
                    if let size = a.layout.imageSize { out.appendSize(size, #","imageWidth":"#, #","imageHeight":"#) }
                    comma = true
                }
                for (i, key) in TemplateLayout.textKeys.enumerated() {
                    guard let v = a.layout.texts[index: i] else { continue }
                    if comma { out.append(UInt8(ascii: ",")) }
                    out.append(key)
                    JSONWriter.appendString(v, to: &out)
                    comma = true
                }
                out.append(UInt8(ascii: "}"))
            }
            if let s = a.summaryText {
                out.append(#","summaryText":"#)
                JSONWriter.appendString(s, to: &out)
            }
            out.append(a.live ? #","live":true"# : #","live":false"#)
        case .sticker(let s):
            out.reserveCapacity(192)
            out.append(#"{"kind":"sticker","image":"#)
            JSONWriter.appendString(s.image, to: &out)
            if let d = s.description {
                out.append(#","description":"#)
                JSONWriter.appendString(d, to: &out)
            }
            if let t = s.stuckTo {
                // JSONWriter's int and double: Swift's own descriptions.
                out.append(#","stuckTo":{"seq":"#)
                out.append(contentsOf: String(t.seq).utf8)
                out.append(#","x":"#)
                out.append(contentsOf: (t.x.isFinite ? String(t.x) : "0").utf8)
                out.append(#","y":"#)
                out.append(contentsOf: (t.y.isFinite ? String(t.y) : "0").utf8)
                out.append(UInt8(ascii: "}"))
            }
            if let r = s.replyTo { out.appendReplyTo(r) }
        case .attachment(let image, let name, let replyTo, let size):
            out.reserveCapacity(160)
            out.append(#"{"kind":"attachment","image":"#)
            JSONWriter.appendString(image, to: &out)
            if let size { out.appendSize(size, #","width":"#, #","height":"#) }
            if let name {
                out.append(#","name":"#)
                JSONWriter.appendString(name, to: &out)
            }
            if let replyTo { out.appendReplyTo(replyTo) }
        case .audio(let audio, let durationMs, let replyTo):
            out.reserveCapacity(128)
            out.append(#"{"kind":"audio","audio":"#)
            JSONWriter.appendString(audio, to: &out)
            out.append(#","durationMs":"#)
            out.append(contentsOf: String(durationMs).utf8)
            if let replyTo { out.appendReplyTo(replyTo) }
        case .reaction(let to, let emoji):
            out.reserveCapacity(56)
            out.append(#"{"kind":"reaction","to":"#)
            out.append(contentsOf: String(to).utf8)
            out.append(#","emoji":"#)
            JSONWriter.appendString(emoji, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    public var appId: String? { if case .app(let a) = self { a.appId } else { nil } }
    public var session: SessionRef? { if case .app(let a) = self { a.session } else { nil } }
    public var summaryText: String? { if case .app(let a) = self { a.summaryText } else { nil } }
}

fileprivate extension [UInt8] {
    /// Appends constant ASCII.
    @inline(__always)
    mutating func append(_ s: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// A picture's size under the kind's two keys (each written with its comma and colon).
    mutating func appendSize(_ size: ImageSize, _ widthKey: StaticString, _ heightKey: StaticString) {
        append(widthKey)
        append(contentsOf: String(size.width).utf8)
        append(heightKey)
        append(contentsOf: String(size.height).utf8)
    }

    /// `,"replyTo":N`, after the kind's own fields.
    mutating func appendReplyTo(_ seq: Int) {
        append(#","replyTo":"#)
        append(contentsOf: String(seq).utf8)
    }
}
