import Testing
@testable import ParlorCore

/// When a cluster node counts its database lost and found again: a stored batch clears
/// any failing run, a lost node says so once, and a batch that waited out the store's
/// deadline counts from when it began.
@Suite struct DatabaseWatchTests {
    @Test func lostOnceAfterTheSecondsWithoutAStoredBatchThenFoundAtTheFirst() {
        var watch = DatabaseWatch()
        #expect(watch.batch(failed: true, began: 0, at: 10, lostSeconds: 15) == nil)
        #expect(watch.batch(failed: true, began: 9_000, at: 9_010, lostSeconds: 15) == nil)
        // one stored batch (the sweep's, every second) and the count starts over
        #expect(watch.batch(failed: false, began: 10_000, at: 10_010, lostSeconds: 15) == nil)
        #expect(watch.batch(failed: true, began: 20_000, at: 20_010, lostSeconds: 15) == nil)
        #expect(watch.batch(failed: true, began: 34_000, at: 34_010, lostSeconds: 15) == nil)
        #expect(watch.batch(failed: true, began: 35_000, at: 35_010, lostSeconds: 15) == false)
        #expect(watch.lost)
        #expect(watch.batch(failed: true, began: 36_000, at: 36_010, lostSeconds: 15) == nil, "said once")
        #expect(watch.batch(failed: false, began: 37_000, at: 37_010, lostSeconds: 15) == true)
        #expect(!watch.lost)
        #expect(watch.batch(failed: false, began: 38_000, at: 38_010, lostSeconds: 15) == nil)
    }

    @Test func aBatchThatWaitedOutItsDeadlineCountsFromItsStart() {
        var watch = DatabaseWatch()
        #expect(watch.batch(failed: true, began: 1_000, at: 11_000, lostSeconds: 10) == false)
    }

    @Test func zeroSecondsIsNever() {
        var watch = DatabaseWatch()
        #expect(watch.batch(failed: true, began: 0, at: 1_000_000, lostSeconds: 0) == nil)
        #expect(!watch.lost)
    }
}
