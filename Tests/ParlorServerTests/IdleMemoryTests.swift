import Testing
@testable import ParlorCore
@testable import ParlorServer

/// What an idle connection keeps (docs/BENCHMARKS.md, the idle scenario).
@Suite struct IdleMemoryTests {
    @Test func aSmallSetIsASetOnBothSidesOfItsLimit() {
        var s = SmallSet<Int>()
        var reference = Set<Int>()
        for n in [3, 1, 3, 2] + Array(10..<40) + [1, 25] {
            #expect(s.insert(n) == reference.insert(n).inserted)
        }
        #expect(s.count == reference.count && Set(s) == reference)
        for n in [3, 7, 25, 25] + Array(10..<20) {
            #expect(s.remove(n) == (reference.remove(n) != nil))
        }
        #expect(s.count == reference.count && Set(s) == reference)
        var seen: [Int] = []
        s.forEach { seen.append($0) }
        #expect(Set(seen) == reference && seen.count == reference.count)
        #expect(!s.isEmpty && SmallSet<Int>().isEmpty)
    }

    @Test func theSweepGivesBackAnIdleConnectionsQueue() {
        var h = LiveHarness()
        let c = h.open(user: "ana")
        _ = h.perform(.send(c, LiveHarness.payload(#"{"n":1}"#)))
        _ = h.write(c)
        _ = h.step { $0.sweep(now: 1_000_000_000) }
        #expect(h.live.connections[c]?.queue.hasStorage == false)
        #expect(h.live.releasedBuffers == 1, "counted, for the transport's heap trim")
        // and it is still a working queue
        _ = h.perform(.send(c, LiveHarness.payload(#"{"n":2}"#)))
        #expect(h.write(c).payloads.count == 1)
    }

    /// The slab holds one of these per connection, idle or not.
    @Test func aLiveConnectionStaysSmall() {
        #expect(MemoryLayout<LiveConnection?>.stride <= 160)
    }
}
