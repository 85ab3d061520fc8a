import Testing
@testable import ParlorCore
@testable import ParlorServer

/// Cluster mode: presence and `playing` over every node, driven as the bus drives it.
@Suite struct ClusterPresenceTests {
    static let second: UInt64 = 1_000_000_000

    func node() -> LiveHarness {
        var h = LiveHarness()
        h.live.sharesPresence = true
        return h
    }

    func announced(_ effects: [LiveEffect]) -> [NodePresence] {
        effects.compactMap { if case .publishPresence(let p) = $0 { p } else { nil } }
    }

    func presence(_ payloads: [JSONValue]) -> [String] {
        payloads.compactMap { p in
            guard p["type"]?.string == "presence" else { return nil }
            guard let u = p["userId"]?.string else {
                guard case .array(let online)? = p["online"] else { return nil }
                return "snapshot " + online.compactMap(\.string).joined(separator: ",")
            }
            return "\(u) \(p["online"] == .bool(true) ? "online" : "offline")"
        }
    }

    func playingNews(_ payloads: [JSONValue]) -> [String] {
        payloads.compactMap { p in
            guard p["type"]?.string == "playing", let s = p["sessionId"]?.string, let u = p["userId"]?.string else { return nil }
            return "\(u) \(p["playing"] == .bool(true) ? "plays" : "stops") \(s)"
        }
    }

    func hear(_ h: inout LiveHarness, _ node: String, _ online: [String], playing: [String: [String]] = [:],
              asks: Bool = false, in c: String = "c", now: UInt64 = 0) -> [LiveEffect] {
        h.step { $0.nodePresence(from: node, NodePresence(conversationId: c, online: online, playing: playing, asks: asks),
                                 now: now) }
    }

    @Test func aNodeAnnouncesItsStateAndAsksWhenItBeginsToHoldAConversation() {
        var h = node()
        let ana = h.open(user: "ana")
        #expect(announced(h.perform(.subscribe(ana, conversationId: "c", userId: "ana")))
                == [NodePresence(conversationId: "c", online: ["ana"], asks: true)])
        let ana2 = h.open(user: "ana")
        #expect(announced(h.perform(.subscribe(ana2, conversationId: "c", userId: "ana"))).isEmpty,
                "a second tab changes nothing the others see")
        let ben = h.open(user: "ben")
        #expect(announced(h.perform(.subscribe(ben, conversationId: "c", userId: "ben")))
                == [NodePresence(conversationId: "c", online: ["ana", "ben"])], "one state, not a change; no question")
        _ = h.step { $0.closed(ben) }
        _ = h.step { $0.closed(ana) }
        #expect(announced(h.step { $0.closed(ana2) }) == [NodePresence(conversationId: "c", online: [])],
                "the last one gone: the others hear that this node holds nobody")
    }

    @Test func aSingleServerAnnouncesNothing() {
        var h = LiveHarness()
        let ana = h.open(user: "ana")
        #expect(announced(h.perform(.subscribe(ana, conversationId: "c", userId: "ana"))).isEmpty)
        _ = hear(&h, "n2", ["ben"])
        #expect(presence(h.write(ana).payloads) == ["snapshot ana"], "nothing from a bus it does not use")
    }

    @Test func membersOnAnotherNodeAreOnlineInEventsAndSnapshots() {
        var h = node()
        let ana = h.open(user: "ana")
        _ = h.perform(.subscribe(ana, conversationId: "c", userId: "ana"))
        #expect(presence(h.write(ana).payloads) == ["snapshot ana"])
        _ = hear(&h, "n2", ["ben"])
        #expect(presence(h.write(ana).payloads) == ["ben online"])
        _ = hear(&h, "n2", ["ben"])
        #expect(presence(h.write(ana).payloads).isEmpty, "a repeat is no news")
        let cy = h.open(user: "cy")
        _ = h.perform(.subscribe(cy, conversationId: "c", userId: "cy"))
        #expect(presence(h.write(cy).payloads) == ["snapshot ana,ben,cy"])
        #expect(presence(h.write(ana).payloads) == ["cy online"])
        _ = hear(&h, "n2", [])
        #expect(presence(h.write(ana).payloads) == ["ben offline"])
    }

    @Test func aUserOnTwoNodesIsOnlineOnceAndOfflineWhenGoneFromBoth() {
        var h = node()
        let ben = h.open(user: "ben")
        _ = h.perform(.subscribe(ben, conversationId: "c", userId: "ben"))
        _ = hear(&h, "n2", ["ana"])
        _ = hear(&h, "n3", ["ana"])
        _ = h.write(ben)
        let ana = h.open(user: "ana")
        _ = h.perform(.subscribe(ana, conversationId: "c", userId: "ana"))
        #expect(presence(h.write(ben).payloads).isEmpty, "online already, on the other nodes")
        _ = hear(&h, "n2", [])
        _ = h.step { $0.closed(ana) }
        #expect(presence(h.write(ben).payloads).isEmpty, "still on n3")
        _ = hear(&h, "n3", [])
        #expect(presence(h.write(ben).payloads) == ["ana offline"])
    }

    @Test func aNodeThatStopsRepeatingLapsesWithinThreeIntervals() {
        var h = node()
        let ana = h.open(user: "ana")
        _ = h.perform(.subscribe(ana, conversationId: "c", userId: "ana"))
        _ = hear(&h, "n2", ["ben"], now: 10 * Self.second)
        _ = hear(&h, "n3", ["cy"], now: 10 * Self.second)
        _ = hear(&h, "n3", ["cy"], now: 15 * Self.second)  // n3 keeps repeating; n2 was killed
        _ = h.write(ana)
        let lapse = LiveState.presenceLapseNanoseconds
        #expect(lapse == 9 * Self.second)
        _ = h.step { $0.sweep(now: 10 * Self.second + lapse) }
        #expect(presence(h.write(ana).payloads).isEmpty, "not before three repeats were missed")
        _ = h.step { $0.sweep(now: 10 * Self.second + lapse + 1) }
        #expect(presence(h.write(ana).payloads) == ["ben offline"])
        #expect(h.live.remote.online("c") == ["cy"])
    }

    @Test func itRepeatsWhatItHoldsEveryFewSecondsAndAnswersAQuestionAtOnce() {
        var h = node()
        let ana = h.open(user: "ana")
        _ = h.perform(.subscribe(ana, conversationId: "c", userId: "ana"))
        _ = h.perform(.subscribe(ana, conversationId: "d", userId: "ana"))
        let t = 100 * Self.second
        #expect(announced(h.step { $0.sweep(now: t) }).map(\.conversationId) == ["c", "d"])
        #expect(announced(h.step { $0.sweep(now: t + Self.second) }).isEmpty)
        #expect(announced(h.step { $0.sweep(now: t + 3 * Self.second) }).count == 2)
        #expect(announced(hear(&h, "n2", ["ben"], in: "d")).isEmpty, "an announcement is not a question")
        #expect(announced(hear(&h, "n3", ["cy"], asks: true, in: "d"))
                == [NodePresence(conversationId: "d", online: ["ana"])])
    }

    @Test func nothingIsHeldForAConversationNobodyHereFollows() {
        var h = node()
        let ana = h.open(user: "ana")
        _ = hear(&h, "n2", ["ben"])
        #expect(h.live.remote.rooms.isEmpty)
        _ = h.perform(.subscribe(ana, conversationId: "c", userId: "ana"))
        _ = hear(&h, "n2", ["ben"])
        #expect(h.live.remote.rooms["c"] != nil)
        _ = h.perform(.unsubscribe(ana, conversationId: "c"))
        #expect(h.live.remote.rooms.isEmpty, "dropped with the last subscriber here")
    }

    @Test func oneConversationHoldsAFewDozenNodesAtMost() {
        var h = node()
        let ana = h.open(user: "ana")
        _ = h.perform(.subscribe(ana, conversationId: "c", userId: "ana"))
        for n in 0..<(Limits.presenceNodes + 5) { _ = hear(&h, "n\(n)", ["u\(n)"]) }
        #expect(h.live.remote.rooms["c"]?.count == Limits.presenceNodes)
        _ = hear(&h, "n0", [])
        _ = hear(&h, "late", ["late-user"])
        #expect(h.live.remote.online("c").contains("late-user"), "a node that left makes room")
    }

    @Test func playingOnAnotherNodeIsNewsAndInTheSnapshot() {
        var h = node()
        let ana = h.open(user: "ana")
        _ = h.perform(.subscribe(ana, conversationId: "c", userId: "ana"))
        _ = h.write(ana)
        _ = hear(&h, "n2", ["ben"], playing: ["s1": ["ben"]])
        #expect(playingNews(h.write(ana).payloads) == ["ben plays s1"])
        // Ana plays s1 here and ben's mark moves to s2
        let mine = announced(h.perform(.playing(ana, re: "p", conversationId: "c", sessionId: "s1", userId: "ana",
                                                playing: true)))
        #expect(mine == [NodePresence(conversationId: "c", online: ["ana"], playing: ["s1": ["ana"]])])
        _ = hear(&h, "n2", ["ben"], playing: ["s2": ["ben"]])
        #expect(playingNews(h.write(ana).payloads) == ["ana plays s1", "ben stops s1", "ben plays s2"])
        let cy = h.open(user: "cy")
        _ = h.perform(.subscribe(cy, conversationId: "c", userId: "cy"))
        let snap = h.write(cy).payloads.first { $0["type"]?.string == "playing" }
        #expect(snap?["sessions"]?["s1"] == .array([.string("ana")]))
        #expect(snap?["sessions"]?["s2"] == .array([.string("ben")]))
    }

    @Test func oneUserPlayingOnTwoNodesStopsOnlyWhenBothStop() {
        var h = node()
        let ana = h.open(user: "ana")
        let ben = h.open(user: "ben")
        _ = h.perform(.subscribe(ana, conversationId: "c", userId: "ana"))
        _ = h.perform(.subscribe(ben, conversationId: "c", userId: "ben"))
        _ = h.perform(.playing(ana, re: nil, conversationId: "c", sessionId: "s1", userId: "ana", playing: true))
        _ = h.write(ben)
        _ = hear(&h, "n2", ["ana"], playing: ["s1": ["ana"]])
        #expect(playingNews(h.write(ben).payloads).isEmpty)
        _ = h.perform(.playing(ana, re: nil, conversationId: "c", sessionId: "s1", userId: "ana", playing: false))
        #expect(playingNews(h.write(ben).payloads).isEmpty, "still playing on n2")
        _ = hear(&h, "n2", ["ana"])
        #expect(playingNews(h.write(ben).payloads) == ["ana stops s1"])
    }

    @Test func theBusFormRoundTripsAndRefusesWhatIsOverTheBounds() {
        let p = NodePresence(conversationId: "c", online: ["ana", "ben"], playing: ["s1": ["ana"]], asks: true)
        let back = NodePresence.decode(p.encoded(node: "n1"), conversationId: "c")
        #expect(back?.node == "n1")
        #expect(back?.1 == p)
        let crowd = NodePresence(conversationId: "c", online: (0...Limits.presenceRoomSize).map { "u\($0)" })
        #expect(NodePresence.decode(crowd.encoded(node: "n1"), conversationId: "c") == nil)
        let long = NodePresence(conversationId: "c", online: [String(repeating: "x", count: Limits.idChars + 1)])
        #expect(NodePresence.decode(long.encoded(node: "n1"), conversationId: "c") == nil)
        let marks = Dictionary(uniqueKeysWithValues: (0...Limits.playingPerConnection).map {
            ("s\($0)", (0..<Limits.presenceRoomSize).map { "u\($0)" })
        })
        #expect(NodePresence.decode(NodePresence(conversationId: "c", online: [], playing: marks).encoded(node: "n"),
                                    conversationId: "c") == nil)
        for bad in ["", "{}", "[1]", #"{"node":"n","online":[1],"playing":{}}"#, #"{"node":"","online":[],"playing":{}}"#] {
            #expect(NodePresence.decode(Array(bad.utf8), conversationId: "c") == nil, "\(bad)")
        }
    }
}
