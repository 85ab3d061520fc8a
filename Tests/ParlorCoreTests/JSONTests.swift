import Foundation
import Testing
@testable import ParlorCore

@Suite struct JSONTests {
    @Test func parsesEscapesAndSurrogatePairs() throws {
        let v = try JSONParser.parse(Array(#"{"s":"a\"b\\c\n\u00e9\ud83d\ude00","n":-1.5e2,"b":[true,false,null]}"#.utf8))
        #expect(v["s"] == .string("a\"b\\c\né😀"))
        #expect(v["n"] == .number(-150))
        #expect(v["b"] == .array([.bool(true), .bool(false), .null]))
    }

    /// What a browser's JSON.stringify writes of a string cut in the middle of an emoji:
    /// the half is U+FFFD, the rest of the string as sent (it was refused whole, and the
    /// sender's message stayed "Sending…").
    @Test func loneSurrogatesAreReplacementCharacters() throws {
        let cases = [#""ab\ud83c""#: "ab\u{FFFD}", #""\udc00x""#: "\u{FFFD}x", #""\ud800\u0041""#: "\u{FFFD}A",
                     #""\ud83c\ud83c\udf55""#: "\u{FFFD}🍕", #""\ude00\ud83d""#: "\u{FFFD}\u{FFFD}"]
        for (json, expected) in cases {
            #expect(try JSONParser.parse(Array(json.utf8)) == .string(expected), "\(json)")
            // the scanning parser, which reads a request's fields where they are, too
            let frame = Array(#"{"type":"conversations.rename","id":"1","conversationId":"c","title":\#(json)}"#.utf8)
            guard case .success(.renameConversation(_, let title)) = RequestParser.parse(frame).result else {
                Issue.record("\(json) was refused: \(RequestParser.parse(frame).result)")
                continue
            }
            #expect(title == expected.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test func rejectsTrailingGarbageAndDeepNesting() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(#"{"a":1} x"#.utf8)) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(#"{"a":"\ud83d\u12"}"#.utf8)) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Array((String(repeating: "[", count: 40) + String(repeating: "]", count: 40)).utf8)) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Array("{\"a\":01x}".utf8)) }
    }

    @Test func writerWritesIntegersAsDecimal() {
        for v in [0, 7, -7, 10, 1_800_000_000_123, Int.max, Int.min] {
            let bytes = JSONWriter.object { w in w.field("n", v) }
            #expect(String(decoding: bytes, as: UTF8.self) == #"{"n":\#(v)}"#)
        }
    }

    @Test func writerEscapesWhatItMust() throws {
        let bytes = JSONWriter.object { w in w.field("t", "<\"\\\n\u{1}é>") }
        #expect(try JSONParser.parse(bytes)["t"] == .string("<\"\\\n\u{1}é>"))
    }
}
