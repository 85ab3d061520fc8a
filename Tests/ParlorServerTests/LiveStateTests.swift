import Testing
@testable import ParlorCore
@testable import ParlorServer

@Suite struct LiveStateTests {
    @Test func framesCarryTheRightLengthHeader() {
        for n in [0, 125, 126, 65535, 65536] {
            let f = OutboundFrame(text: [UInt8](repeating: 65, count: n))
            var wire: [UInt8] = []
            f.append(to: &wire)
            #expect(wire[0] == 0x81)
            #expect(f.wireCount == n + (n < 126 ? 2 : n <= 65535 ? 4 : 10))
            #expect(wire.count == f.wireCount)
        }
    }

    @Test func aBroadcastReachesEverySubscriberAndAsksForOneWritePerConnection() {
        var h = LiveHarness()
        h.open(1, user: "ana")
        h.open(2, user: "ben")
        h.open(3, user: "cy")  // not subscribed
        _ = h.perform(.subscribe(1, conversationId: "c", userId: "ana"))
        _ = h.perform(.subscribe(2, conversationId: "c", userId: "ben"))
        _ = h.write(1); _ = h.write(2)  // presence
        var fx = h.perform(.broadcast(conversationId: "c", LiveHarness.payload(#"{"n":1}"#)))
        fx += h.perform(.broadcast(conversationId: "c", LiveHarness.payload(#"{"n":2}"#)))
        // Two frames each, but one writeable request per connection: the second frame
        // joins a queue whose write is already asked for.
        #expect(fx.sorted { "\($0)" < "\($1)" } == [.requestWrite(1), .requestWrite(2)])
        for id: ConnectionID in [1, 2] {
            let w = h.write(id)
            #expect(w.payloads.map { $0["n"] } == [.number(1), .number(2)], "both frames in one write")
        }
        #expect(h.write(3).payloads.isEmpty)
    }

    @Test func presenceSnapshotOnSubscribeAndNewsOfArrivalsAndDepartures() {
        var h = LiveHarness()
        h.open(1, user: "ana")
        h.open(2, user: "ben")
        _ = h.perform(.subscribe(1, conversationId: "c", userId: "ana"))
        #expect(h.write(1).payloads.first?["online"] == .array([.string("ana")]))
        _ = h.perform(.subscribe(2, conversationId: "c", userId: "ben"))
        #expect(h.write(2).payloads.first?["online"] == .array([.string("ana"), .string("ben")]))
        let arrival = h.write(1).payloads.first
        #expect(arrival?["userId"] == .string("ben"))
        #expect(arrival?["online"] == .bool(true))
        // Ben's connection goes: Ana hears he is offline, and the engine forgets it.
        let fx = h.step { $0.closed(2) }
        #expect(fx.contains(.submit(.closed(2))))
        let departure = h.write(1).payloads.first
        #expect(departure?["userId"] == .string("ben"))
        #expect(departure?["online"] == .bool(false))
    }

    @Test func aSecondTabKeepsItsUserOnline() {
        var h = LiveHarness()
        h.open(1, user: "ana")
        h.open(2, user: "ben")
        h.open(3, user: "ben")
        for (id, u) in [(1, "ana"), (2, "ben"), (3, "ben")] as [(ConnectionID, String)] {
            _ = h.perform(.subscribe(id, conversationId: "c", userId: u))
        }
        _ = h.write(1)
        _ = h.step { $0.closed(2) }
        #expect(h.write(1).payloads.isEmpty, "ben is still online in another tab")
        #expect(h.live.subscriptions.onlineUsers("c") == ["ana", "ben"])
    }

    @Test func eventsForAUserReachAllTheirConnections() {
        var h = LiveHarness()
        h.open(1, user: "ana")
        h.open(2, user: "ana")
        h.open(3, user: "ben")
        _ = h.perform(.toUser(userId: "ana", LiveHarness.payload(#"{"type":"conversation"}"#)))
        #expect(h.write(1).payloads.count == 1)
        #expect(h.write(2).payloads.count == 1)
        #expect(h.write(3).payloads.isEmpty)
    }

    @Test func readingPausesAtTheInFlightWindowAndResumesAtHalf() {
        var h = LiveHarness()
        h.open(1, user: "ana")
        var fx: [LiveEffect] = []
        let bytes = Array(#"{"type":"ping"}"#.utf8)
        for _ in 0..<LiveConnection.maxInFlight {
            fx += h.step { live in
                bytes.withUnsafeBytes { _ = live.receive(1, $0, binary: false, final: true, remaining: 0) }
            }
        }
        #expect(fx.filter { if case .submit(.frame(1, _)) = $0 { true } else { false } }.count == 64)
        #expect(fx.last == .setReading(1, false))
        #expect(h.perform(.processed(1, count: 31)).isEmpty)
        #expect(h.perform(.processed(1, count: 1)) == [.setReading(1, true)])
    }

    @Test func fragmentsAssembleAndTheSizeCapClosesWith1009() {
        var h = LiveHarness()
        h.open(1, user: "ana")
        var step: WriteStep?
        let fx = h.step { live in
            Array("{\"a\":".utf8).withUnsafeBytes { step = live.receive(1, $0, binary: false, final: false, remaining: 0) }
            Array("1}".utf8).withUnsafeBytes { step = live.receive(1, $0, binary: false, final: true, remaining: 0) }
        }
        #expect(step == .nothing)
        #expect(fx == [.submit(.frame(1, Array(#"{"a":1}"#.utf8)))])
        _ = h.step { live in
            [UInt8](repeating: 32, count: 10).withUnsafeBytes {
                step = live.receive(1, $0, binary: false, final: false, remaining: Limits.frameBytes)
            }
        }
        #expect(step == .nothing, "the oversized frame is read and dropped until its end")
        _ = h.step { live in
            [UInt8](repeating: 32, count: 10).withUnsafeBytes { step = live.receive(1, $0, binary: false, final: true, remaining: 0) }
        }
        #expect(step == .close(1009, "frames are limited to 64 KiB"))
        _ = h.step { live in [UInt8]([1]).withUnsafeBytes { step = live.receive(1, $0, binary: true, final: true, remaining: 0) } }
        #expect(step == .close(1003, "binary frames are not accepted"))
    }

    @Test func aSlowConsumerIsClosedWith4008AndItsBacklogDropped() {
        var h = LiveHarness()
        h.open(1, user: "ana")
        h.open(2, user: "ben")
        for (id, u) in [(1, "ana"), (2, "ben")] as [(ConnectionID, String)] {
            _ = h.perform(.subscribe(id, conversationId: "c", userId: u))
        }
        _ = h.write(1)
        let big = LiveHarness.payload("\"" + String(repeating: "x", count: 60_000) + "\"")
        // Ben never reads; Ana does.
        for _ in 0..<(Limits.outboundBytes / 60_000 + 2) {
            _ = h.perform(.broadcast(conversationId: "c", big))
            while !h.write(1).payloads.isEmpty {}
        }
        #expect(h.live.connections[2]?.closeCode == 4008)
        #expect(h.live.connections[2]?.queue.bytes == 0)
        #expect(h.write(2).close == 4008)
        #expect(h.live.connections[1]?.closeCode == nil, "a reader keeping up is untouched")
    }

    @Test func anEngineCloseFlushesTheReplyFirst() {
        var h = LiveHarness()
        h.open(1)
        _ = h.perform(.send(1, LiveHarness.payload(#"{"type":"error"}"#)))
        _ = h.perform(.close(1, code: 4001, reason: "authentication failed"))
        #expect(h.write(1).payloads.count == 1)
        #expect(h.write(1).close == 4001)
        let first = h.live.closing(1, code: 4001, reason: "authentication failed")
        let again = h.live.closing(1, code: 4001, reason: "authentication failed")
        #expect(first && !again, "a close frame is sent once")
    }

    @Test func theSweepClosesConnectionsThatNeverSignedIn() {
        var h = LiveHarness()
        h.open(1, now: 0)
        h.open(2, user: "ana", now: 0)
        let late = UInt64(Limits.authSeconds + 1) * 1_000_000_000
        #expect(h.step { $0.sweep(now: 1_000_000_000) }.isEmpty)
        #expect(h.step { $0.sweep(now: late) } == [.requestWrite(1)])
        #expect(h.write(1).close == 4001)
    }

    @Test func drainingStopsReadingAndClosesOnceEveryRequestIsAnswered() {
        var h = LiveHarness()
        h.open(1, user: "ana")
        h.open(2, user: "ben")
        _ = h.step { live in
            Array(#"{"type":"x"}"#.utf8).withUnsafeBytes { _ = live.receive(1, $0, binary: false, final: true, remaining: 0) }
        }
        let fx = h.step { $0.drain() }
        #expect(Set(fx.map { "\($0)" }).isSuperset(of: ["setReading(1, false)", "setReading(2, false)"]))
        #expect(h.live.connections[1]?.closeCode == nil, "still waiting for its answer")
        #expect(h.write(2).close == 1001)
        _ = h.perform(.send(1, LiveHarness.payload(#"{"type":"result"}"#)))
        _ = h.perform(.processed(1, count: 1))
        #expect(!h.perform(.processed(1, count: 0)).contains(.setReading(1, true)), "no reading while draining")
        _ = h.step { $0.drain() }
        #expect(h.write(1).payloads.count == 1, "the answer goes out first")
        #expect(h.write(1).close == 1001)
    }

    @Test func aReplayAsksForItsNextPieceOnlyOnceTheQueueHasDrained() {
        var h = LiveHarness()
        h.open(1, user: "ana")
        let piece = LiveHarness.payload("\"" + String(repeating: "m", count: 100_000) + "\"")
        _ = h.perform(.send(1, piece))
        let fx = h.perform(.replayContinues(1, conversationId: "c", afterSeq: 10, generation: 1))
        #expect(!fx.contains { if case .submit = $0 { true } else { false } }, "100 KB still queued")
        _ = h.write(1)
        #expect(h.step { _ in } == [.submit(.replay(1, conversationId: "c", afterSeq: 10, generation: 1))])
    }
}
