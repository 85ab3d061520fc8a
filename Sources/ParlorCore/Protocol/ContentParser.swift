/// Validates a `send` frame's `message` object into `MessageContent`.
enum ContentParser {
    static func parse(_ m: Fields) throws(ParlorError) -> MessageContent {
        guard let k = m.raw("kind"), k.kind == .string else { throw .invalid("message.kind") }
        // The kinds told apart without a String when written plainly.
        if m.scan.isPlainString(k, "app") { return .app(try app(m)) }
        if m.scan.isPlainString(k, "text") { return try text(m) }
        switch m.scan.string(k) {
        case "text":
            return try text(m)
        case "app":
            return .app(try app(m))
        case "sticker":
            var stuck: StuckTo?
            if let s = try m.object("stuckTo") {
                guard let seq = try s.optionalInt("seq", min: 1) else { throw .invalid("message.stuckTo.seq") }
                stuck = StuckTo(seq: seq, x: try s.double("x", in: 0...1), y: try s.double("y", in: 0...1))
            }
            let replyTo = try m.optionalInt("replyTo", min: 1)
            if stuck != nil, replyTo != nil {
                throw .invalid("message.replyTo", "a sticker stuck on a bubble replies to nothing")
            }
            return .sticker(Sticker(
                image: try m.blobHash("image"),
                description: try shown(m, "description"),
                stuckTo: stuck, replyTo: replyTo))
        case "attachment":
            return .attachment(
                image: try m.blobHash("image"),
                name: try shown(m, "name"),
                replyTo: try m.optionalInt("replyTo", min: 1))
        case "audio":
            guard let ms = try m.optionalInt("durationMs", min: 1, max: Limits.audioMs) else {
                throw .invalid("message.durationMs")
            }
            return .audio(audio: try m.blobHash("audio"), durationMs: ms, replyTo: try m.optionalInt("replyTo", min: 1))
        case "reaction":
            guard let to = try m.optionalInt("to", min: 1) else { throw .invalid("message.to") }
            guard let sent = try? m.optionalString("emoji", max: 8), let emoji = Reaction.normalised(sent) else {
                throw .invalid("message.emoji", Reaction.refusal)
            }
            return .reaction(to: to, emoji: emoji)
        default:
            throw .invalid("message.kind", "must be text, app, sticker, attachment, audio or reaction")
        }
    }

    private static func text(_ m: Fields) throws(ParlorError) -> MessageContent {
        let text = try m.string("text", max: Limits.textChars)
        guard text.utf8.count <= Limits.textBytes else {
            throw ParlorError(.tooLong, "message.text is longer than \(Limits.textBytes) bytes of UTF-8",
                              field: "message.text")
        }
        try checkText(text)
        return .text(text, replyTo: try m.optionalInt("replyTo", min: 1),
                     mentions: try MentionParser.parse(m, "mentions") ?? [])
    }

    /// What others are shown as a message: no control character but line breaks and
    /// tabs (a NUL or a terminal's escape drew as boxes), and not blank (a bubble of
    /// nothing, which the web composer never sends but any client could).
    static func checkText(_ text: String) throws(ParlorError) {
        guard !Validators.hasControl(text, inText: true) else {
            throw .invalid("message.text", "contains control characters")
        }
        guard !Validators.looksBlank(text) else { throw .invalid("message.text", "is empty") }
    }

    /// An optional line others are shown (a caption, a summary, a file's name): the
    /// length bound of layout fields and, as in a text, no control character but line
    /// breaks and tabs (an ESC or a NUL drew as boxes in bubbles and notifications).
    private static func shown(_ f: Fields, _ k: StaticString) throws(ParlorError) -> String? {
        guard let s = try f.optionalString(k, max: Limits.layoutFieldChars) else { return nil }
        guard !Validators.hasControl(s, inText: true) else {
            throw .invalid(f.path(k), "contains control characters")
        }
        return s
    }

    /// `TemplateLayout.textFields`, as keys to look up.
    static let layoutTextKeys: [StaticString] = [
        "imageTitle", "imageSubtitle", "caption", "subcaption", "trailingCaption", "trailingSubcaption",
    ]

    private static func app(_ m: Fields) throws(ParlorError) -> AppContent {
        let url = try m.string("url", max: Limits.urlChars)
        guard Validators.isMessageURL(url) else {
            throw .invalid("message.url", "must be an http(s) URL or a ?query")
        }
        var layout = TemplateLayout()
        if let l = try m.object("layout") {
            if l.has("image") { layout.image = try l.blobHash("image") }
            for (i, key) in layoutTextKeys.enumerated() {
                if let s = try shown(l, key) { layout.texts[index: i] = s }
            }
        }
        var session: SessionRef?
        if let s = try m.object("session") {
            session = SessionRef(
                id: try s.string("id", max: Limits.idChars),
                baseVersion: try s.optionalInt("baseVersion", min: 0) ?? 0)
        }
        return AppContent(
            appId: try m.appId("appId"),
            url: url,
            layout: layout,
            summaryText: try shown(m, "summaryText"),
            session: session,
            live: try m.optionalBool("live") ?? false)
    }
}
