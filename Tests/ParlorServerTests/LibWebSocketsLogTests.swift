import Testing
@testable import ParlorServer

/// lws's lines are written at most 20 a second; the rest are counted and said once.
struct LibWebSocketsLogTests {
    @Test func aFloodOfLwsLinesIsWrittenTwentyASecondAndCountedOnce() {
        var w = LibWebSocketsLog.Window()
        var written = 0
        for i in 0..<1000 {
            let (write, held) = w.take("accept: errno 24 (\(i))", now: 7)
            #expect(held == nil)
            if write { written += 1 }
        }
        #expect(written == LibWebSocketsLog.linesPerSecond)
        // the next second's first line comes with the count of those held back
        let (write, held) = w.take("next", now: 8)
        #expect(write)
        #expect(held?.0 == 1000 - LibWebSocketsLog.linesPerSecond && held?.1 == "accept: errno 24 (999)")
        #expect(w.take("again", now: 8).held == nil)
    }
}
