import Testing
@testable import ParlorCore

@Suite struct RateLimiterTests {
    @Test func aBucketRefusesPastItsBurstAndSaysWhenToComeBack() {
        var l = RateLimiter(Rate(2, per: 1, burst: 3))
        for _ in 0..<3 { #expect(l.take("u", now: 0) == nil) }
        #expect(l.take("u", now: 0) == 500)  // one token refills in half a second
        #expect(l.take("u", now: 499) == 1)
        #expect(l.take("u", now: 500) == nil)
        #expect(l.take("other", now: 500) == nil, "keys are independent")
    }

    @Test func moreThanAFullBucketWaitsAWholeWindowAndUnlimitedNeverWaits() {
        var l = RateLimiter(Rate(100, per: 86_400))
        #expect(l.take("u", cost: 101, now: 0) == 86_400_000)
        var free = RateLimiter(.unlimited)
        for _ in 0..<10_000 { #expect(free.take("u", now: 0) == nil) }
    }

    @Test func fullBucketsAreForgotten() {
        var l = RateLimiter(Rate(1, per: 1))
        _ = l.take("u", now: 0)
        l.prune(now: 500)
        #expect(l.wait("u", now: 500) == 500, "a bucket still filling is kept")
        l.prune(now: 1000)
        #expect(l.wait("u", now: 1000) == nil)
    }

    @Test func ratesParseFromSettings() {
        #expect(Rate(parsing: "10/3600") == Rate(10, per: 3600))
        #expect(Rate(parsing: "0")?.isUnlimited == true)
        #expect(Rate(parsing: "10") == nil)
        #expect(Rate(parsing: "5/0") == nil)
    }
}
