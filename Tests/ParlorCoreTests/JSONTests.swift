import Testing
@testable import ParlorCore

@Suite struct JSONTests {
    @Test func parsesEscapesAndSurrogatePairs() throws {
        let v = try JSONParser.parse(Array(#"{"s":"a\"b\\c\n\u00e9\ud83d\ude00","n":-1.5e2,"b":[true,false,null]}"#.utf8))
        #expect(v["s"] == .string("a\"b\\c\né😀"))
        #expect(v["n"] == .number(-150))
        #expect(v["b"] == .array([.bool(true), .bool(false), .null]))
    }

    @Test func rejectsTrailingGarbageLoneSurrogatesAndDeepNesting() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(#"{"a":1} x"#.utf8)) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(#"{"a":"\ud83d"}"#.utf8)) }
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
