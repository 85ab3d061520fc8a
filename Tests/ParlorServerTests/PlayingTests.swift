import Testing
@testable import ParlorCore
@testable import ParlorServer

/// `playing`: who has a session open in the expanded pane, live, and when it ends.
@Suite struct PlayingTests {
    /// Ana and Ben subscribed to "c"; their presence frames already read.
    func room() -> (LiveHarness, ConnectionID, ConnectionID) {
        var h = LiveHarness()
        let ana = h.open(user: "ana")
        let ben = h.open(user: "ben")
        _ = h.perform(.subscribe(ana, conversationId: "c", userId: "ana"))
        _ = h.perform(.subscribe(ben, conversationId: "c", userId: "ben"))
        _ = h.write(ana); _ = h.write(ben)
        return (h, ana, ben)
    }

    func play(_ h: inout LiveHarness, _ id: ConnectionID, _ user: String, _ session: String, _ on: Bool = true,
              now: UInt64 = 0) {
        _ = h.perform(.playing(id, re: "p", conversationId: "c", sessionId: session, userId: user, playing: on))
        _ = h.step { $0.play(id, re: nil, "c", session, userId: user, on: on, now: now) }  // a repeat changes nothing
    }

    func news(_ payloads: [JSONValue]) -> [String] {
        payloads.compactMap { p in
            guard p["type"]?.string == "playing", let s = p["sessionId"]?.string, let u = p["userId"]?.string else { return nil }
            return "\(u) \(p["playing"] == .bool(true) ? "plays" : "stops") \(s)"
        }
    }

    @Test func othersHearWhoOpensAndClosesASession() {
        var (h, ana, ben) = room()
        _ = h.perform(.playing(ana, re: "p1", conversationId: "c", sessionId: "s1", userId: "ana", playing: true))
        let own = h.write(ana).payloads
        #expect(own.contains { $0["re"]?.string == "p1" && $0["type"]?.string == "result" })
        #expect(news(own) == ["ana plays s1"], "her own tabs hear it too")
        #expect(news(h.write(ben).payloads) == ["ana plays s1"])
        // the same mark again is a renewal: no news
        _ = h.perform(.playing(ana, re: "p2", conversationId: "c", sessionId: "s1", userId: "ana", playing: true))
        #expect(news(h.write(ben).payloads).isEmpty)
        _ = h.perform(.playing(ana, re: "p3", conversationId: "c", sessionId: "s1", userId: "ana", playing: false))
        #expect(news(h.write(ben).payloads) == ["ana stops s1"])
    }

    @Test func aLateSubscriberGetsTheCurrentPlayers() {
        var (h, ana, ben) = room()
        play(&h, ana, "ana", "s1")
        play(&h, ben, "ben", "s1")
        play(&h, ben, "ben", "s2")
        let cy = h.open(user: "cy")
        _ = h.perform(.subscribe(cy, conversationId: "c", userId: "cy"))
        let snap = h.write(cy).payloads.first { $0["type"]?.string == "playing" }
        #expect(snap?["sessions"]?["s1"] == .array([.string("ana"), .string("ben")]))
        #expect(snap?["sessions"]?["s2"] == .array([.string("ben")]))
        // nobody playing elsewhere: no snapshot there
        _ = h.perform(.subscribe(cy, conversationId: "d", userId: "cy"))
        #expect(!h.write(cy).payloads.contains { $0["type"]?.string == "playing" })
    }

    @Test func itEndsWhenTheConnectionGoesOrLeavesTheConversation() {
        var (h, ana, ben) = room()
        play(&h, ana, "ana", "s1")
        _ = h.write(ben)
        _ = h.step { $0.closed(ana) }
        #expect(news(h.write(ben).payloads) == ["ana stops s1"])
        play(&h, ben, "ben", "s2")
        _ = h.perform(.unsubscribe(ben, conversationId: "c"))
        #expect(h.live.playing.byConnection.isEmpty)
    }

    @Test func aSecondTabKeepsItsUserPlaying() {
        var (h, ana, ben) = room()
        let ana2 = h.open(user: "ana")
        _ = h.perform(.subscribe(ana2, conversationId: "c", userId: "ana"))
        play(&h, ana, "ana", "s1")
        play(&h, ana2, "ana", "s1")
        #expect(news(h.write(ben).payloads) == ["ana plays s1"], "once")
        _ = h.step { $0.closed(ana) }
        #expect(news(h.write(ben).payloads).isEmpty, "still open in her other tab")
    }

    @Test func aMarkLapsesUnlessRepeated() {
        var (h, ana, ben) = room()
        let second: UInt64 = 1_000_000_000
        play(&h, ana, "ana", "s1", now: 0)
        _ = h.write(ben)
        _ = h.step { $0.play(ana, re: nil, "c", "s1", userId: "ana", on: true, now: 200 * second) }  // renewed
        _ = h.step { $0.sweep(now: 400 * second) }
        #expect(news(h.write(ben).payloads).isEmpty, "renewed at 200 s: good until 500 s")
        _ = h.step { $0.sweep(now: 501 * second) }
        #expect(news(h.write(ben).payloads) == ["ana stops s1"])
    }

    @Test func aConnectionHasAFewSessionsOpenAtMost() {
        var (h, ana, _) = room()
        for i in 0..<Limits.playingPerConnection { play(&h, ana, "ana", "s\(i)") }
        _ = h.write(ana)
        _ = h.perform(.playing(ana, re: "more", conversationId: "c", sessionId: "one-more", userId: "ana", playing: true))
        let answer = h.write(ana).payloads
        #expect(answer.count == 1 && answer[0]["code"]?.string == "too_many_sessions" && answer[0]["re"]?.string == "more")
        #expect(h.live.playing.byConnection[ana]?.count == Limits.playingPerConnection)
    }
}
