import Testing
@testable import ParlorCore

/// Tapbacks: a `reaction` message names its target (`to`) and one of iMessage's six
/// emoji, or "" to take one's reaction back (docs/PROTOCOL.md, "Reactions").
@Suite struct ReactionTests {
    @Test func theSixEmojiAndEmptyAreAccepted() {
        for e in ["❤️", "👍", "👎", "😂", "‼️", "❓", ""] {
            #expect(SentMessage.content(#"{"kind":"reaction","to":3,"emoji":"\#(e)"}"#) == .reaction(to: 3, emoji: e), "\(e)")
        }
        // escaped as JSON.stringify may write them
        #expect(SentMessage.content(#"{"kind":"reaction","to":1,"emoji":"\u2764\uFE0F"}"#) == .reaction(to: 1, emoji: "\u{2764}\u{FE0F}"))
        #expect(SentMessage.content(#"{"kind":"reaction","to":1,"emoji":"\ud83d\udc4d"}"#) == .reaction(to: 1, emoji: "👍"))
    }

    @Test func loveAndEmphasizeWithoutTheirVariationSelectorAreStoredWithIt() {
        #expect(SentMessage.content(#"{"kind":"reaction","to":2,"emoji":"\u2764"}"#) == .reaction(to: 2, emoji: "\u{2764}\u{FE0F}"))
        #expect(SentMessage.content(#"{"kind":"reaction","to":2,"emoji":"\u203C"}"#) == .reaction(to: 2, emoji: "\u{203C}\u{FE0F}"))
    }

    @Test func anythingElseIsAnInvalidEmoji() {
        for bad in [#""😀""#, #""❤️❤️""#, #""👍🏽""#, #""\uFE0F""#, #"" ""#, #""❓\uFE0F""#, #""heart""#, "1", "null", "true",
                    #"["👍"]"#, "\"" + String(repeating: "👍", count: 40) + "\""] {
            let e = SentMessage.error(#"{"kind":"reaction","to":3,"emoji":\#(bad)}"#)
            #expect(e?.code == .invalidField, "\(bad)")
            #expect(e?.field == "message.emoji", "\(bad)")
        }
        #expect(SentMessage.error(#"{"kind":"reaction","to":3}"#)?.field == "message.emoji")
    }

    @Test func theTargetIsAPositiveWholeNumber() {
        for bad in ["0", "-1", "1.5", #""3""#, "null"] {
            let e = SentMessage.error(#"{"kind":"reaction","to":\#(bad),"emoji":"👍"}"#)
            #expect(e?.code == .invalidField, "\(bad)")
            #expect(e?.field == "message.to", "\(bad)")
        }
        #expect(SentMessage.error(#"{"kind":"reaction","emoji":"👍"}"#)?.field == "message.to")
    }

    @Test func theBodyIsWrittenInAFixedOrder() {
        let body = MessageContent.reaction(to: 42, emoji: "❤️").bodyJSON
        #expect(String(decoding: body, as: UTF8.self) == #"{"kind":"reaction","to":42,"emoji":"❤️"}"#)
        #expect(String(decoding: MessageContent.reaction(to: 7, emoji: "").bodyJSON, as: UTF8.self)
            == #"{"kind":"reaction","to":7,"emoji":""}"#)
        // fields sent in another order store the same bytes (an idempotent retry compares them)
        #expect(SentMessage.content(#"{"emoji":"👍","to":5,"kind":"reaction"}"#)?.bodyJSON
            == MessageContent.reaction(to: 5, emoji: "👍").bodyJSON)
    }

    @Test func aReactionIsStoredAndBroadcastAndItsTargetMustExist() throws {
        let (h, c, send) = try SentMessage.anaAndBen()
        #expect(send(2, "t1", #"{"kind":"text","text":"hi"}"#)["result"]?["message"]?["seq"]?.int == 1)
        let beyond = send(1, "r0", #"{"kind":"reaction","to":2,"emoji":"❤️"}"#)
        #expect(beyond["code"] == .string("not_found"))
        #expect(beyond["field"] == .string("message.to"))
        let r = send(1, "r1", #"{"kind":"reaction","to":1,"emoji":"❤"}"#)["result"]?["message"]
        #expect(r?["seq"]?.int == 2)
        #expect(r?["kind"] == .string("reaction"))
        #expect(r?["to"]?.int == 1)
        #expect(r?["emoji"] == .string("❤️"))
        // the same clientId and content again: the original, nothing stored twice
        #expect(send(1, "r1", #"{"kind":"reaction","to":1,"emoji":"❤️"}"#)["result"]?["message"]?["seq"]?.int == 2)
        #expect(send(1, "r1", #"{"kind":"reaction","to":1,"emoji":""}"#)["code"] == .string("client_id_reused"))
        // a reaction to the reaction is stored as any message is (clients ignore it)
        #expect(send(2, "r2", #"{"kind":"reaction","to":2,"emoji":"👍"}"#)["result"]?["message"]?["seq"]?.int == 3)
        let history = h.request(1, #"{"type":"history","id":"h","conversationId":"\#(c)"}"#)
        #expect(history["result"]?["messages"]?.array?.compactMap { $0["kind"]?.string } == ["text", "reaction", "reaction"])
    }
}
