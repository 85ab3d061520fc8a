import ParlorCore

/// Closing every connection, for a graceful stop (1001) or a lost database (1013), at
/// most `closingAtOnce` at a time, the next begun as each connection goes.
extension LiveState {
    /// lws keeps every connection's pending timeout in one list sorted by deadline and
    /// walks it from the start on each insert, and a close inserts two or three: with
    /// every connection closing at once the list held them all, and a stop took
    /// quadratic time (6,000 connections 2.4 s, 12,000 10 s, 18,000 past the 10 s
    /// drain; docs/BENCHMARKS.md, session 39). A thousand at a time keep each walk
    /// short (18,000 on loopback, without Parlor's own close deadline: 256 at a time
    /// 2.2-2.4 s, 1,024 1.9-2.1 s, 4,096 3.3 s; with it 2.7-2.8 s at 1,024) and still
    /// close 5,000 a second to peers 200 ms away.
    static let closingAtOnce = 1024

    /// A graceful stop: nothing more is read; each connection is closed with 1001 once
    /// the engine has answered all it read. Called on every wake and close until
    /// `connections` is empty; each call costs what it closes, not every connection.
    mutating func drain() {
        if !draining {
            draining = true
            log.info("draining", metadata: ["connections": "\(connections.count)"])
            drainOrder = connections.ids
            for id in drainOrder where !connections[id]!.readingPaused {
                connections[id]!.readingPaused = true
                if !connections[id]!.sendingBehind { effects.append(.setReading(id, false)) }
            }
        }
        if !drainAnswering.isEmpty {
            var answering: [ConnectionID] = []
            for id in drainAnswering {
                if closingInWave.count >= Self.closingAtOnce || closeForDrain(id) == false { answering.append(id) }
            }
            drainAnswering = answering
        }
        while drainNext < drainOrder.count && closingInWave.count < Self.closingAtOnce {
            let id = drainOrder[drainNext]
            drainNext += 1
            if closeForDrain(id) == false { drainAnswering.append(id) }
        }
    }

    /// Begins the close: true; false while its requests are unanswered; nil when it is
    /// gone or closing already.
    private mutating func closeForDrain(_ id: ConnectionID) -> Bool? {
        guard connections.contains(id), connections[id]!.closeCode == nil else { return nil }
        guard connections[id]!.inFlight == 0 else { return false }
        beginClose(id, 1001, "server shutting down")
        return true
    }

    /// A close of the wave: what it was still to replay is dropped.
    private mutating func beginClose(_ id: ConnectionID, _ code: UInt16, _ reason: String) {
        connections[id]!.pendingReplays.removeAll()
        connections[id]!.scheduleClose(code, reason, flush: true, &effects)
        closingInWave.insert(id)
    }

    /// The node lost its database: every connection is closed with 1013 (try again
    /// later), so that its page connects again, elsewhere through a load balancer reading
    /// /health. What was read and not answered gets `internal` from the failing batches
    /// anyway. The rest follow as connections go (`closed`).
    mutating func sendAway() {
        log.info("sending connections away", metadata: ["connections": "\(connections.count)"])
        awayOrder = connections.ids
        awayNext = 0
        continueSendingAway()
    }

    mutating func continueSendingAway() {
        while awayNext < awayOrder.count && closingInWave.count < Self.closingAtOnce {
            let id = awayOrder[awayNext]
            awayNext += 1
            guard connections.contains(id), connections[id]!.closeCode == nil else { continue }
            beginClose(id, 1013, "the server lost its database: try another")
        }
        if awayNext == awayOrder.count { (awayOrder, awayNext) = ([], 0) }
    }
}
