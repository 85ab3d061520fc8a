import Testing
@testable import ParlorCore

/// Search in one conversation (`messages.search`, docs/PROTOCOL.md): what matches,
/// the bound on one request's scan and going on from where it stopped, validation,
/// membership and the per-user limit.
@Suite struct SearchTests {
    static let hash = String(repeating: "ab", count: 32)

    static func parsed(_ fields: String) -> Result<Request, ParlorError> {
        RequestParser.parse(Array(#"{"type":"messages.search","id":"q",\#(fields)}"#.utf8)).result
    }

    static func matches(_ query: String, _ content: MessageContent) -> Bool {
        var m = SearchMatcher(query)
        return content.bodyJSON.withUnsafeBufferPointer { m.matches($0) }
    }

    // MARK: Parsing

    @Test func aQueryIsTrimmedAndOfOneToAHundredCharacters() {
        #expect(Self.parsed(#""conversationId":"c1","query":"  usual place ""#)
            == .success(.searchMessages(conversationId: "c1", query: "usual place", beforeSeq: nil)))
        #expect(Self.parsed(#""conversationId":"c1","query":"x","beforeSeq":41"#)
            == .success(.searchMessages(conversationId: "c1", query: "x", beforeSeq: 41)))
        for (fields, code, field) in [
            (#""conversationId":"c1","query":"   ""#, ParlorError.Code.invalidField, "query"),
            (#""conversationId":"c1","query":"""#, .invalidField, "query"),
            (#""conversationId":"c1""#, .invalidField, "query"),
            (#""conversationId":"c1","query":7"#, .invalidField, "query"),
            (#""conversationId":"c1","query":"\#(String(repeating: "é", count: 101))""#, .tooLong, "query"),
            (#""conversationId":"c1","query":"a","beforeSeq":0"#, .invalidField, "beforeSeq"),
            (#""conversationId":"c1","query":"a","beforeSeq":"9""#, .invalidField, "beforeSeq"),
            (#""query":"a""#, .invalidField, "conversationId"),
        ] {
            guard case .failure(let e) = Self.parsed(fields) else { Issue.record("accepted \(fields)"); continue }
            #expect(e.code == code, "\(fields)")
            #expect(e.field == field, "\(fields)")
        }
        // a hundred characters, however many bytes, are fine
        #expect((try? Self.parsed(#""conversationId":"c1","query":"\#(String(repeating: "é", count: 100))""#).get()) != nil)
    }

    // MARK: Matching

    @Test func matchingIgnoresCaseAndDiacritics() {
        #expect(Self.matches("usual place", .text("See you at the Usual Place!")))
        #expect(Self.matches("cafe", .text("Café tomorrow?")))
        #expect(Self.matches("CAFÉ", .text("the cafe on 5th")))
        #expect(Self.matches("café", .text("cafe\u{301} au lait")))  // decomposed
        #expect(Self.matches("strasse", .text("Hauptstraße 5")))
        #expect(Self.matches("οδυσσευς", .text("ΟΔΥΣΣΕΥΣ")))
        #expect(Self.matches("привет", .text("ПРИВЕТ всем")))
        #expect(Self.matches("東京", .text("明日は東京に行く")))
        #expect(!Self.matches("cafe", .text("caffeine")))
        #expect(!Self.matches("place", .text("plaice")))
    }

    @Test func escapedTextsAreReadAsTheirWords() {
        #expect(Self.matches(#"say "hi""#, .text("Then say \"HI\" to Ben")))
        #expect(Self.matches("line two", .text("line one\nline two")))
        #expect(Self.matches(#"a\b"#, .text(#"path a\b"#)))
        // the escape itself is not text: "n" is not found in a line break
        #expect(!Self.matches("xny", .text("x\ny")))
    }

    @Test func aPicturesNameAndAnAppsWordsMatchButNotItsURL() {
        #expect(Self.matches("beach", .attachment(image: Self.hash, name: "Beach-2026.jpg")))
        var layout = TemplateLayout()
        layout.texts["caption"] = "Guess my WenderPic!"
        layout.texts["trailingSubcaption"] = "3 scoops"
        let app = MessageContent.app(AppContent(appId: "wenderpic", url: "?word=giraffe", layout: layout,
                                                summaryText: "Ana drew something", session: nil, live: false))
        #expect(Self.matches("wenderpic", app))
        #expect(Self.matches("scoops", app))
        #expect(Self.matches("drew", app))
        #expect(!Self.matches("giraffe", app))
        #expect(!Self.matches("sundae", .sticker(Sticker(image: Self.hash, description: "a sundae"))))
        #expect(!Self.matches("❤", .reaction(to: 1, emoji: "\u{2764}\u{FE0F}")))
        var m = SearchMatcher("deleted")
        #expect(!Array(#"{"kind":"deleted"}"#.utf8).withUnsafeBufferPointer { m.matches($0) })
    }

    // MARK: The engine

    /// Ana and Ben in `c`; Ana sends each text in turn (seq 1, 2, …).
    static func room(_ texts: [String], settings: EngineSettings = .openRegistration)
        throws -> (h: EngineHarness, c: String, search: (ConnectionID, String, Int?) -> JSONValue) {
        let h = try EngineHarness(settings: settings)
        _ = h.register(1, "Ana")
        _ = h.register(2, "Ben")
        _ = h.register(3, "Cy")
        let c = h.conversation(owner: 1, joiners: [2])
        let frames = texts.enumerated().map { i, t in
            (ConnectionID(1), #"{"type":"send","id":"s","conversationId":"\#(c)","clientId":"k\#(i)","message":{"kind":"text","text":"\#(t)"}}"#)
        }
        for chunk in stride(from: 0, to: frames.count, by: 500) {
            _ = h.batch(Array(frames[chunk..<min(chunk + 500, frames.count)]))
        }
        return (h, c, { conn, query, before in
            let b = before.map { #","beforeSeq":\#($0)"# } ?? ""
            return h.request(conn, #"{"type":"messages.search","id":"q","conversationId":"\#(c)","query":"\#(query)"\#(b)}"#)
        })
    }

    static func seqs(_ r: JSONValue) -> [Int] { r["result"]?["messages"]?.array?.compactMap { $0["seq"]?.int } ?? [] }

    @Test func matchesComeNewestFirstAsHistoryShowsThem() throws {
        let (h, c, search) = try Self.room(["lunch at the usual place?", "sure", "USUAL PLACE, noon", "ok"])
        let r = search(2, "usual place", nil)
        #expect(Self.seqs(r) == [3, 1])
        #expect(r["result"]?["hasMore"]?.bool == false)
        #expect(r["result"]?["nextBeforeSeq"] == nil)
        let history = h.request(2, #"{"type":"history","id":"h","conversationId":"\#(c)"}"#)
        #expect(r["result"]?["messages"]?.array?.first == history["result"]?["messages"]?.array?[2])
        #expect(Self.seqs(search(2, "usual place", 3)) == [1])
        #expect(Self.seqs(search(2, "nowhere", nil)) == [])
    }

    @Test func aDeletedMessageIsNeverFound() throws {
        let (h, c, search) = try Self.room(["the address is 12 Elm St", "thanks"])
        #expect(Self.seqs(search(2, "elm st", nil)) == [1])
        _ = h.request(1, #"{"type":"messages.delete","id":"d","conversationId":"\#(c)","seq":1}"#)
        #expect(Self.seqs(search(2, "elm st", nil)) == [])
        // nor is its deletion record
        #expect(Self.seqs(search(2, "deleted", nil)) == [])
    }

    @Test func anEditedTextIsFoundByItsNewWordsOnly() throws {
        let (h, c, search) = try Self.room(["meet at the old mill", "ok"])
        let edit = h.request(1, #"{"type":"messages.edit","id":"e","conversationId":"\#(c)","seq":1,"text":"meet at the Café Bleu"}"#)
        #expect(edit["type"] == .string("result"))
        #expect(Self.seqs(search(2, "cafe bleu", nil)) == [1])
        // the old words are gone, and the edit record (which carries the text) is no match of its own
        #expect(Self.seqs(search(2, "old mill", nil)) == [])
        #expect(Self.seqs(search(2, "meet at", nil)) == [1])
    }

    @Test func onlyTheCurrentStateOfASessionIsFound() throws {
        let (h, c, search) = try Self.room([])
        func move(_ n: Int, _ caption: String) {
            let base = n == 1 ? "" : #","baseVersion":\#(n - 1)"#
            _ = h.request(1, #"{"type":"send","id":"s","conversationId":"\#(c)","clientId":"m\#(n)","message":{"kind":"app","appId":"partylist","url":"?v=\#(n)","layout":{"caption":"\#(caption)"},"session":{"id":"s1"\#(base)}}}"#)
        }
        move(1, "Party list: mussels")
        move(2, "Party list: mussels, fries")
        #expect(Self.seqs(search(2, "mussels", nil)) == [2])
    }

    @Test func onlyMembersSearch() throws {
        let (_, c, search) = try Self.room(["secret plans"])
        #expect(search(3, "secret", nil)["code"] == .string("not_member"))
        let h2 = search(3, "secret", nil)
        #expect(h2["result"] == nil)
        #expect(Self.seqs(search(2, "secret", nil)) == [1])
        _ = c
    }

    @Test func eachRequestScansABoundedNumberAndSaysWhereItStopped() throws {
        // the only match is the first message; a scan's worth after it hold none
        let n = Limits.searchScanMessages + 500
        let texts = ["the address is 12 Elm St"] + (2...n).map { "message \($0)" }
        let (_, _, search) = try Self.room(texts)
        let first = search(2, "elm st", nil)
        #expect(Self.seqs(first) == [])
        #expect(first["result"]?["hasMore"]?.bool == true)
        let next = first["result"]?["nextBeforeSeq"]?.int
        #expect(next == n - Limits.searchScanMessages + 1)
        let second = search(2, "elm st", next)
        #expect(Self.seqs(second) == [1])
        #expect(second["result"]?["hasMore"]?.bool == false)
    }

    @Test func aScanStopsAtItsResultsAndBytesAndGoesOnAfter() throws {
        let (h, c, _) = try Self.room((1...30).map { $0 % 2 == 0 ? "even \($0)" : "odd \($0)" })
        try h.engine.store.write { tx in
            // 10 messages read: 5 of them even
            var s = try Engine.scan(c, query: "even", beforeSeq: .max, tx, maxMessages: 10)
            #expect(s.matches == [30, 28, 26, 24, 22])
            #expect(s.stoppedAt == 21 && s.hasMore && s.scanned == 10)
            // three matches: it stops at the third
            s = try Engine.scan(c, query: "even", beforeSeq: 21, tx, maxResults: 3)
            #expect(s.matches == [20, 18, 16])
            #expect(s.stoppedAt == 16 && s.hasMore)
            // a few bytes: one body, then it stops
            s = try Engine.scan(c, query: "even", beforeSeq: 16, tx, maxBytes: 10)
            #expect(s.scanned == 1 && s.stoppedAt == 15 && s.hasMore)
            // to the start: nothing more
            s = try Engine.scan(c, query: "odd", beforeSeq: 6, tx)
            #expect(s.matches == [5, 3, 1])
            #expect(s.stoppedAt == 1 && !s.hasMore)
        }
    }

    @Test func searchesAreLimitedPerUserWithAClearRefusal() throws {
        var settings = EngineSettings.openRegistration
        settings.searchesPerUser = Rate(2, per: 3600)
        let (_, _, search) = try Self.room(["hello"], settings: settings)
        #expect(Self.seqs(search(2, "hello", nil)) == [1])
        #expect(Self.seqs(search(2, "hello", nil)) == [1])
        let refused = search(2, "hello", nil)
        #expect(refused["code"] == .string("rate_limited"))
        #expect((refused["retryAfterMs"]?.int ?? 0) > 0)
        #expect(refused["message"]?.string?.contains("searches") == true)
        // Ana's own bucket
        #expect(Self.seqs(search(1, "hello", nil)) == [1])
    }
}
