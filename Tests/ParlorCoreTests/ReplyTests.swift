import Testing
@testable import ParlorCore

/// Inline replies: `replyTo` on a text, sticker or attachment names the message it
/// answers (docs/PROTOCOL.md, "Replies").
@Suite struct ReplyTests {
    static let hash = String(repeating: "ab", count: 32)

    @Test func textStickerAndAttachmentTakeAReplyTo() {
        #expect(SentMessage.content(#"{"kind":"text","text":"yes","replyTo":3}"#) == .text("yes", replyTo: 3))
        #expect(SentMessage.content(#"{"kind":"text","text":"yes"}"#) == .text("yes", replyTo: nil))
        #expect(SentMessage.content(#"{"kind":"text","text":"yes","replyTo":null}"#) == .text("yes", replyTo: nil))
        #expect(SentMessage.content(#"{"kind":"sticker","image":"\#(Self.hash)","replyTo":1}"#)
            == .sticker(Sticker(image: Self.hash, description: nil, stuckTo: nil, replyTo: 1)))
        #expect(SentMessage.content(#"{"kind":"attachment","image":"\#(Self.hash)","replyTo":2}"#)
            == .attachment(image: Self.hash, name: nil, replyTo: 2))
    }

    @Test func aReplyToIsAPositiveWholeNumber() {
        for bad in ["0", "-1", "1.5", #""3""#, "true", "[1]", "{}"] {
            let e = SentMessage.error(#"{"kind":"text","text":"yes","replyTo":\#(bad)}"#)
            #expect(e?.code == .invalidField, "\(bad)")
            #expect(e?.field == "message.replyTo", "\(bad)")
        }
        #expect(SentMessage.error(#"{"kind":"attachment","image":"\#(Self.hash)","replyTo":0}"#)?.field == "message.replyTo")
    }

    @Test func aStuckStickerRepliesToNothing() {
        let e = SentMessage.error(#"{"kind":"sticker","image":"\#(Self.hash)","stuckTo":{"seq":1,"x":0.5,"y":0.5},"replyTo":1}"#)
        #expect(e?.code == .invalidField)
        #expect(e?.field == "message.replyTo")
    }

    @Test func theBodyEndsWithTheReplyToOnlyWhenThereIsOne() {
        func body(_ c: MessageContent) -> String { String(decoding: c.bodyJSON, as: UTF8.self) }
        #expect(body(.text("hi")) == #"{"kind":"text","text":"hi"}"#)
        #expect(body(.text("hi", replyTo: 12)) == #"{"kind":"text","text":"hi","replyTo":12}"#)
        #expect(body(.sticker(Sticker(image: Self.hash, description: "cat", stuckTo: nil, replyTo: 4)))
            == #"{"kind":"sticker","image":"\#(Self.hash)","description":"cat","replyTo":4}"#)
        #expect(body(.attachment(image: Self.hash, name: "p.png", replyTo: 5))
            == #"{"kind":"attachment","image":"\#(Self.hash)","name":"p.png","replyTo":5}"#)
        // fields in another order store the same bytes (an idempotent retry compares them)
        #expect(SentMessage.content(#"{"replyTo":12,"text":"hi","kind":"text"}"#)?.bodyJSON == MessageContent.text("hi", replyTo: 12).bodyJSON)
    }

    @Test func aReplyIsStoredAndItsOriginalMustExist() throws {
        let (h, c, send) = try SentMessage.anaAndBen()
        #expect(send(2, "t1", #"{"kind":"text","text":"lunch?"}"#)["result"]?["message"]?["seq"]?.int == 1)
        let beyond = send(1, "r0", #"{"kind":"text","text":"yes","replyTo":2}"#)
        #expect(beyond["code"] == .string("not_found"))
        #expect(beyond["field"] == .string("message.replyTo"))
        let r = send(1, "r1", #"{"kind":"text","text":"yes","replyTo":1}"#)["result"]?["message"]
        #expect(r?["seq"]?.int == 2)
        #expect(r?["replyTo"]?.int == 1)
        #expect(r?["text"] == .string("yes"))
        // a retry: the original; the same clientId without the reply is another message
        #expect(send(1, "r1", #"{"kind":"text","text":"yes","replyTo":1}"#)["result"]?["message"]?["seq"]?.int == 2)
        #expect(send(1, "r1", #"{"kind":"text","text":"yes"}"#)["code"] == .string("client_id_reused"))
        let history = h.request(1, #"{"type":"history","id":"h","conversationId":"\#(c)"}"#)
        #expect(history["result"]?["messages"]?.array?.map { $0["replyTo"]?.int } == [nil, 1])
    }
}
