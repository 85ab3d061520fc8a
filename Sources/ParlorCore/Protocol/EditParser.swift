/// `messages.edit`: the new text is checked as a text message's is (`ContentParser`),
/// its errors naming the frame's own `text` field; `mentions` absent (nil) keeps those
/// of the message its new text still names.
extension RequestParser {
    static func edit(_ f: Fields) throws(ParlorError) -> Request {
        guard let seq = try f.optionalInt("seq", min: 1) else { throw .invalid("seq") }
        let cid = try f.id("conversationId")
        let text = try f.string("text", max: Limits.textChars)
        guard text.utf8.count <= Limits.textBytes else {
            throw ParlorError(.tooLong, "text is longer than \(Limits.textBytes) bytes of UTF-8", field: "text")
        }
        do {
            try ContentParser.checkText(text)
        } catch {
            let why = error.message.hasPrefix("message.text ") ? String(error.message.dropFirst(13)) : error.message
            throw ParlorError(error.code, "text \(why)", field: "text")
        }
        return .editMessage(conversationId: cid, seq: seq, text: text, mentions: try MentionParser.parse(f, "mentions"))
    }
}
