import Testing
@testable import ParlorCore

/// The scanning request parser against the tree-building one it replaced
/// (`LegacyRequestParser`): the same id, request or error, and the same stored body,
/// for valid frames and for every kind of bad one.
@Suite struct FrameScanTests {
    /// Deterministic, so a failure names its seed and case.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// JSON text with full control over keys, order, duplicates and escapes.
    indirect enum J {
        case raw(String)
        case obj([(String, J)])
        case arr([J])

        var text: String {
            switch self {
            case .raw(let s): s
            case .obj(let m): "{" + m.map { "\($0.0):\($0.1.text)" }.joined(separator: ",") + "}"
            case .arr(let a): "[" + a.map(\.text).joined(separator: ",") + "]"
            }
        }
    }

    static func q(_ s: String) -> String { "\"" + s + "\"" }

    static let hash = String(repeating: "ab", count: 32)
    static let uuid = "0b7c5a56-2f7e-4b44-9c55-6a0f3c1d9e21"

    /// Frames of every type, valid as written.
    static var bases: [[(String, J)]] {
        func frame(_ type: String, _ fields: [(String, J)]) -> [(String, J)] {
            [("\"type\"", .raw(q(type))), ("\"id\"", .raw(q("r42")))] + fields
        }
        let cid: (String, J) = ("\"conversationId\"", .raw(q(uuid)))
        let game: J = .obj([
            ("\"kind\"", .raw(q("app"))), ("\"appId\"", .raw(q("wenderpic"))), ("\"url\"", .raw(q("?move=3"))),
            ("\"live\"", .raw("false")), ("\"layout\"", .obj([("\"caption\"", .raw(q("WenderPic")))])),
            ("\"summaryText\"", .raw(q("move 3"))),
            ("\"session\"", .obj([("\"id\"", .raw(q("game"))), ("\"baseVersion\"", .raw("3"))])),
        ])
        let fullLayout: J = .obj([
            ("\"kind\"", .raw(q("app"))), ("\"appId\"", .raw(q("wender-pic2"))),
            ("\"url\"", .raw(q("https://example.org/a?b=1"))), ("\"live\"", .raw("true")),
            ("\"layout\"", .obj([("\"image\"", .raw(q(hash))), ("\"imageTitle\"", .raw(q("T"))),
                                 ("\"imageSubtitle\"", .raw(q("S"))), ("\"caption\"", .raw(q("C \\\"q\\\""))),
                                 ("\"subcaption\"", .raw(q("sc"))), ("\"trailingCaption\"", .raw(q("tc"))),
                                 ("\"trailingSubcaption\"", .raw(q("tsc")))])),
        ])
        return [
            frame("send", [cid, ("\"clientId\"", .raw(q(uuid))), ("\"message\"", game)]),
            frame("send", [cid, ("\"clientId\"", .raw(q("k1"))), ("\"message\"", fullLayout)]),
            frame("send", [cid, ("\"clientId\"", .raw(q("k1"))),
                           ("\"message\"", .obj([("\"kind\"", .raw(q("text"))), ("\"text\"", .raw(q("hello \\n world é")))]))]),
            frame("send", [cid, ("\"clientId\"", .raw(q("k1"))),
                           ("\"message\"", .obj([("\"kind\"", .raw(q("text"))), ("\"text\"", .raw(q("yes"))),
                                                 ("\"replyTo\"", .raw("3"))]))]),
            frame("send", [cid, ("\"clientId\"", .raw(q("k1"))),
                           ("\"message\"", .obj([("\"kind\"", .raw(q("sticker"))), ("\"image\"", .raw(q(hash))),
                                                 ("\"replyTo\"", .raw("2"))]))]),
            frame("send", [cid, ("\"clientId\"", .raw(q("k1"))),
                           ("\"message\"", .obj([("\"kind\"", .raw(q("sticker"))), ("\"image\"", .raw(q(hash))),
                                                 ("\"description\"", .raw(q("a cat"))),
                                                 ("\"stuckTo\"", .obj([("\"seq\"", .raw("3")), ("\"x\"", .raw("0.5")),
                                                                       ("\"y\"", .raw("-0"))]))]))]),
            frame("send", [cid, ("\"clientId\"", .raw(q("k1"))),
                           ("\"message\"", .obj([("\"kind\"", .raw(q("attachment"))), ("\"image\"", .raw(q(hash))),
                                                 ("\"name\"", .raw(q("photo.png"))), ("\"replyTo\"", .raw("1"))]))]),
            frame("send", [cid, ("\"clientId\"", .raw(q("k1"))),
                           ("\"message\"", .obj([("\"kind\"", .raw(q("reaction"))), ("\"to\"", .raw("3")),
                                                 ("\"emoji\"", .raw(q("\\u2764\\uFE0F")))]))]),
            frame("subscribe", [cid, ("\"afterSeq\"", .raw("7"))]),
            frame("history", [cid, ("\"beforeSeq\"", .raw("9")), ("\"limit\"", .raw("50"))]),
            frame("history", [cid, ("\"afterSeq\"", .raw("0")), ("\"limit\"", .raw("20"))]),
            frame("members", [cid, ("\"userIds\"", .arr([.raw(q("u1")), .raw(q("u2"))]))]),
            frame("appdata.set", [("\"appId\"", .raw(q("a"))), ("\"key\"", .raw(q("k"))),
                                  ("\"value\"", .obj([("\"a\"", .arr([.raw("1"), .raw("2.5"), .raw("true"), .raw("null")])),
                                                      ("\"b\"", .obj([("\"c\"", .raw(q("d")))]))]))]),
            frame("register", [("\"name\"", .raw(q("  Ana  "))), ("\"invite\"", .raw(q("inv"))),
                               ("\"deviceName\"", .raw(q("phone")))]),
            frame("recover", [("\"recoveryKey\"", .raw(q("rk"))), ("\"revokeOthers\"", .raw("true"))]),
            frame("playing", [cid, ("\"sessionId\"", .raw(q("s"))), ("\"playing\"", .raw("true"))]),
            frame("invites.create", [cid, ("\"maxUses\"", .raw("5")), ("\"expiresInSeconds\"", .raw("3600"))]),
            frame("conversations.rename", [cid, ("\"title\"", .raw(q("Room")))]),
            frame("admin.users.list", [("\"after\"", .raw(q("u"))), ("\"limit\"", .raw("10"))]),
            frame("admin.messages.delete", [cid, ("\"seq\"", .raw("4"))]),
            frame("admin.users.setAdmin", [("\"userId\"", .raw(q("u"))), ("\"admin\"", .raw("false"))]),
            frame("devices.list", []),
        ]
    }

    /// Values that probe types, limits, escapes and nesting.
    static func randomValue(_ g: inout SplitMix, depth: Int = 0) -> J {
        let strings = [
            "", "x", "r42", "game", "wenderpic", "?move=3", "https://example.org/", "javascript:x", uuid, hash,
            "a\\u0000b", "\\u0007", "tab\\tnew\\nline", "\\ud83d\\ude00", "\\u00e9", "é", "\\\"", "\\/", "  ",
            "text", "app", "sticker", "attachment", "reaction", "👍", "\\u203C", "\\u0061pp", "send", "\\u0073end", "te\\u0078t",
            String(repeating: "a", count: 65), String(repeating: "é", count: 40), String(repeating: "b", count: 301),
            "\u{7F}", "\u{85}x", "K\u{301}", "\u{212A}", "?\u{301}", "\r\n",
            "ab\\ud83c", "\\udc00x", "\\ud800\\u0041", "\\ud83c\\ud83c\\udf55", "\\ud83d\\u12",
        ]
        let numbers = ["0", "-0", "1", "3", "-1", "1.5", "0.5", "1e3", "1E2", "-0.0e1", "2", "64", "201", "9007199254740993",
                       "123456789012345", "1234567890123456", "0.9999999999999999", "1e-400", "12e-1"]
        switch g.next() % 10 {
        case 0, 1, 2: return .raw(q(strings[Int(g.next() % UInt64(strings.count))]))
        case 3, 4: return .raw(numbers[Int(g.next() % UInt64(numbers.count))])
        case 5: return .raw(["true", "false", "null"][Int(g.next() % 3)])
        case 6:
            if depth > 3 { return .raw("null") }
            return .arr((0..<Int(g.next() % 3)).map { _ in randomValue(&g, depth: depth + 1) })
        case 7:
            if depth > 3 { return .raw("1") }
            return .obj((0..<Int(g.next() % 3)).map { _ in (randomKey(&g), randomValue(&g, depth: depth + 1)) })
        case 8:
            let n = 28 + Int(g.next() % 8)
            return .raw(String(repeating: "[", count: n) + "1" + String(repeating: "]", count: n))
        default:
            let n = 28 + Int(g.next() % 8)
            return .raw(String(repeating: "{\"d\":", count: n) + "\"x\"" + String(repeating: "}", count: n))
        }
    }

    static let keys = [
        "type", "id", "conversationId", "clientId", "message", "kind", "text", "appId", "url", "live", "layout",
        "caption", "image", "summaryText", "session", "baseVersion", "stuckTo", "seq", "x", "y", "description", "replyTo",
        "name", "afterSeq", "limit", "userIds", "value", "key", "recoveryKey", "deviceName", "playing", "other",
    ]

    static func randomKey(_ g: inout SplitMix) -> String {
        let k = keys[Int(g.next() % UInt64(keys.count))]
        switch g.next() % 8 {
        case 0:  // the first letter escaped
            let s = k.unicodeScalars.first!.value
            return q(String(format: "\\u%04x", s) + String(k.dropFirst()))
        case 1: return q(k.replacingOccurrences(of: "K", with: "\u{212A}"))  // KELVIN SIGN
        case 2: return q(k + "\\u0000")
        default: return q(k)
        }
    }

    /// One change to a valid frame, at the JSON level.
    static func mutate(_ m: [(String, J)], _ g: inout SplitMix, depth: Int = 0) -> [(String, J)] {
        var m = m
        guard !m.isEmpty else { return [(randomKey(&g), randomValue(&g))] }
        let at = Int(g.next() % UInt64(m.count))
        switch g.next() % 7 {
        case 0: m.remove(at: at)
        case 1: m[at].1 = randomValue(&g)
        case 2: m.append((m[at].0, randomValue(&g)))  // a duplicate after it
        case 3: m.insert((m[at].0, randomValue(&g)), at: at)  // a duplicate before it
        case 4: m.insert((randomKey(&g), randomValue(&g)), at: Int(g.next() % UInt64(m.count + 1)))
        case 5:
            if case .obj(let inner) = m[at].1, depth < 3 { m[at].1 = .obj(mutate(inner, &g, depth: depth + 1)) }
            else { m[at].1 = randomValue(&g) }
        default: m.shuffle(using: &g)
        }
        return m
    }

    /// One change at the byte level: what a broken or hostile client sends.
    static func mutateBytes(_ b: [UInt8], _ g: inout SplitMix) -> [UInt8] {
        var b = b
        let specials: [UInt8] = [0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x3A, 0x2C, 0x20, 0x0A, 0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xE2,
                                 0xF0, 0xFF, 0x75, 0x30, 0x2D, 0x2E, 0x65]
        let at = b.isEmpty ? 0 : Int(g.next() % UInt64(b.count))
        switch g.next() % 4 {
        case 0: if !b.isEmpty { b.remove(at: at) }
        case 1: b.insert(specials[Int(g.next() % UInt64(specials.count))], at: at)
        case 2: if !b.isEmpty { b[at] = specials[Int(g.next() % UInt64(specials.count))] }
        default: b = Array(b.prefix(at))
        }
        return b
    }

    static func check(_ bytes: [UInt8], _ what: @autoclosure () -> String) {
        let new = RequestParser.parse(bytes)
        let old = LegacyRequestParser.parse(bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(new.id == old.id, "\(what()): \(text)")
        #expect(new.result == old.result, "\(what()): \(text)")
        if case .success(.send(_, _, let content)) = new.result {
            #expect(content.bodyJSON == content.legacyBodyJSON, "\(what()): \(text)")
        }
    }

    @Test func validFramesOfEveryType() {
        for (n, base) in Self.bases.enumerated() {
            let bytes = Array(J.obj(base).text.utf8)
            Self.check(bytes, "base \(n)")
            if case .failure(let e) = RequestParser.parse(bytes).result { Issue.record("base \(n) refused: \(e)") }
        }
    }

    @Test func mutatedFramesAnswerAsBefore() {
        var g = SplitMix(state: 12)
        var refused = 0
        for round in 0..<20_000 {
            let base = Self.bases[Int(g.next() % UInt64(Self.bases.count))]
            var m = base
            for _ in 0...Int(g.next() % 3) { m = Self.mutate(m, &g) }
            var bytes = Array(J.obj(m).text.utf8)
            if g.next() % 4 == 0 { bytes = Self.mutateBytes(bytes, &g) }
            if g.next() % 8 == 0 {  // whitespace where JSON allows it
                bytes = Array(String(decoding: bytes, as: UTF8.self)
                    .replacingOccurrences(of: "\",", with: "\" ,\t").replacingOccurrences(of: ":", with: ": \n").utf8)
            }
            Self.check(bytes, "round \(round)")
            if case .failure = RequestParser.parse(bytes).result { refused += 1 }
        }
        // Both kinds were exercised.
        #expect(refused > 2_000 && refused < 18_000, "\(refused)")
    }

    @Test func edgeCases() {
        let send = #"{"type":"send","id":"r1","conversationId":"c","clientId":"k","message":"#
        let cases: [String] = [
            "", " ", "{}", "[]", "null", "{\"id\":\"x\"}", " {\"type\":\"send\",\"id\":\"x\"} ",
            send + #"{"kind":"text","text":"a"}}"#,
            send + #"{"kind":"text","text":"a","text":5}}"#,
            send + #"{"kind":"text","text":5,"text":"a"}}"#,
            send + #"{"kind":"te\u0078t","text":"a"}}"#,
            send + #"{"\u006bind":"text","text":"a"}}"#,
            send + #"{"kind":"text","text":"\ud83d\ude00\u0000"}}"#,
            send + #"{"kind":"text","text":"\ud83d"}}"#,
            send + #"{"kind":"text","text":"\ude00"}}"#,
            send + #"{"kind":"text","text":"\ud83d\u0041"}}"#,
            send + #"{"kind":"text","text":"\x"}}"#,
            send + #"{"kind":"app","appId":"a","url":"?x","session":{"id":"s","baseVersion":-0},"layout":null}}"#,
            send + #"{"kind":"app","appId":"a","url":"?x","session":{"id":"s","baseVersion":1.0}}}"#,
            send + #"{"kind":"app","appId":"a","url":"?x","session":{"id":"s","baseVersion":1e2}}}"#,
            send + #"{"kind":"app","appId":"a","url":"?x","session":{"id":"s","baseVersion":9007199254740993}}}"#,
            send + #"{"kind":"app","appId":"a","url":"?x","session":{"id":"s","baseVersion":1e999}}}"#,
            send + #"{"kind":"app","appId":"a","url":"?x","layout":{"image":null,"caption":null}}}"#,
            send + #"{"kind":"app","appId":"a","url":"?x","layout":{"d":{"e":{"f":{"g":1}}}}}}"#,
            send + #"{"kind":"sticker","image":"\#(Self.hash)","stuckTo":{"seq":1,"x":-0.0,"y":1e-1}}}"#,
            send + #"{"kind":"sticker","image":"\#(Self.hash)","stuckTo":{"seq":1,"x":1,"y":0.30000000000000004}}}"#,
            #"{"type":"recover","id":"1","recovery\#u{212A}ey":"rk"}"#,
            #"{"\u0074ype":"send","id":"1"}"#,
            #"{"type":"\u0073end","id":"1","conversationId":"c","clientId":"k","message":{"kind":"text","text":"a"}}"#,
            #"{"type":"send","id":"1","id":5}"#,
            #"{"type":"send","id":5,"id":"1"}"#,
            #"{"type":"send","id":"\#(String(repeating: "é", count: 64))"}"#,
            #"{"type":"send","id":"\#(String(repeating: "é", count: 65))"}"#,
            "{\"type\":\"send\",\"id\":\"a\u{7F}\"}",
            "{\"type\":\"send\",\"id\":\"a\u{85}\"}",
            "{\"type\":\"send\",\"id\":\"r1\",\"x\":\"\u{1}\"}",
            "{\"type\":\"send\",\"id\":\"r1\",\"x\":" + String(repeating: "[", count: 33) + "\"]\"" + String(repeating: "]", count: 33) + "}",
            "{\"type\":\"send\",\"id\":\"r1\",\"x\":" + String(repeating: "[", count: 33) + "tru" + String(repeating: "]", count: 33) + "}",
            "{\"type\":\"send\",\"id\":\"r1\",\"x\":" + String(repeating: "[", count: 31) + "tru" + String(repeating: "]", count: 31) + "}",
            #"{"type":"appdata.set","id":"1","appId":"a","key":"k","value":null}"#,
            #"{"type":"appdata.set","id":"1","appId":"a","key":"k"}"#,
            #"{"type":"members","id":"1","conversationId":"c","userIds":["a",1]}"#,
            #"{"type":"members","id":"1","conversationId":"c","userIds":{}}"#,
            #"{"type":"history","id":"1","conversationId":"c","limit":1e1}"#,
            #"{"type":"history","id":"1","conversationId":"c","limit":-0}"#,
            #"{"type":"history","id":"1","conversationId":"c","afterSeq":4,"beforeSeq":9}"#,
            #"{"type":"history","id":"1","conversationId":"c","afterSeq":-1}"#,
        ]
        for (n, c) in cases.enumerated() { Self.check(Array(c.utf8), "case \(n)") }
        // Invalid UTF-8 in keys and values, repaired as before.
        let bad: [[UInt8]] = [
            Array(#"{"type":"send","id":"r"#.utf8) + [0xFF] + Array(#"","conversationId":"c"}"#.utf8),
            Array(#"{"type":"send","id":"r1","conversationId":"c"#.utf8) + [0xC3] + Array(#"","clientId":"k","message":{"kind":"text","text":"a"}}"#.utf8),
            Array(#"{"type":"send","id":"r1","conversationId":"c","clientId":"k","message":{"kind":"text","text":"a"#.utf8) + [0xC3] + Array(#"\u00a9"}}"#.utf8),
            Array(#"{"ty"#.utf8) + [0xC3] + Array(#"pe":"send","id":"r1"}"#.utf8),
            Array(#"{"type":"send","id":"r1","message":{"kind":"app","url":"?"#.utf8) + [0xE2, 0x82] + Array(#""}}"#.utf8),
        ]
        for (n, b) in bad.enumerated() { Self.check(b, "bad UTF-8 \(n)") }
    }

    /// The scanner skips plain string bytes eight at a time: a special byte at every
    /// position of a value and of a key is still seen.
    @Test func specialBytesAtEveryPositionOfAString() {
        let specials: [[UInt8]] = [[0x22], [0x5C], [0x5C, 0x6E], [0x5C, 0x75, 0x30, 0x30, 0x30, 0x30], [0x00], [0x1F], [0x7F],
                                   [0x80], [0xC3, 0xA9], [0xE2, 0x84, 0xAA], [0xFF], [0x20]]
        let filler = Array("conversationIdconversationId".utf8)
        for sp in specials {
            for at in 0...filler.count {
                let text = Array(filler[..<at]) + sp + Array(filler[at...])
                let value = Array(#"{"type":"send","id":"r1","conversationId":""#.utf8) + text
                    + Array(#"","clientId":"k","message":{"kind":"text","text":"a"}}"#.utf8)
                Self.check(value, "value \(sp) at \(at)")
                let key = Array(#"{"type":"recover","id":"r1",""#.utf8) + text + Array(#"":"rk","recoveryKey":"x"}"#.utf8)
                Self.check(key, "key \(sp) at \(at)")
                let kelvin = Array(#"{"type":"recover","id":"r1",""#.utf8) + Array(filler[..<at]) + Array("recovery\u{212A}ey".utf8)
                    + Array(#"":"rk"}"#.utf8)
                Self.check(kelvin, "kelvin after \(at)")
            }
        }
    }

    @Test func scannedFieldsHaveTheirValues() throws {
        let frame = #"{"type":"send","id":"r42","conversationId":"c1","clientId":"k1","message":{"kind":"app","appId":"wenderpic","url":"?move=3","live":false,"layout":{"caption":"WenderPic"},"summaryText":"move 3","session":{"id":"game","baseVersion":3}}}"#
        let parsed = RequestParser.parse(Array(frame.utf8))
        #expect(parsed.id == "r42")
        guard case .success(.send(let cid, let clientId, .app(let a))) = parsed.result else {
            Issue.record("\(parsed.result)")
            return
        }
        #expect(cid == "c1" && clientId == "k1")
        #expect(a.appId == "wenderpic" && a.url == "?move=3" && !a.live && a.summaryText == "move 3")
        var texts = TemplateLayout.Texts()
        texts["caption"] = "WenderPic"
        #expect(a.layout.texts == texts && a.layout.image == nil)
        #expect(a.session == SessionRef(id: "game", baseVersion: 3))
        #expect(String(decoding: MessageContent.app(a).bodyJSON, as: UTF8.self)
            == #"{"kind":"app","appId":"wenderpic","url":"?move=3","layout":{"caption":"WenderPic"},"summaryText":"move 3","live":false}"#)
    }

    @Test func escapedKeysAndValuesAreReadDecoded() {
        let frame = #"{"\u0074ype":"send","id":"r\u0031","conversationId":"c\u00e9","clientId":"k","message":{"kind":"text","text":"\ud83d\ude00 \"q\" \u0009"}}"#
        let parsed = RequestParser.parse(Array(frame.utf8))
        #expect(parsed.id == "r1")
        #expect(parsed.result == .success(.send(conversationId: "cé", clientId: "k", content: .text("😀 \"q\" \t"))))
    }

    @Test func theLastDuplicateWinsAndDeepFramesKeepTheirId() {
        let dup = #"{"type":"subscribe","id":"1","conversationId":5,"afterSeq":2,"conversationId":"c","afterSeq":"x","afterSeq":4}"#
        #expect(RequestParser.parse(Array(dup.utf8)).result == .success(.subscribe(conversationId: "c", afterSeq: 4, afterClientId: nil)))
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        let r = RequestParser.parse(Array(#"{"type":"send","id":"q7","message":\#(deep)}"#.utf8))
        #expect(r.id == "q7")
        #expect(r.result == .failure(ParlorError(.badJSON, "JSON is nested deeper than 32 levels")))
    }
}
