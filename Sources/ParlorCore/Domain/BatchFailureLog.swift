import Logging

/// What the log says while batches fail (a full disk fails every batch that writes,
/// hundreds a second): the first failure, then a count every
/// `Limits.failureLogSeconds`, and one line once batches have been stored for as long
/// without one failing (batches that only read are stored between failures).
struct BatchFailureLog {
    private var since: Int?
    private var lastFailure = 0
    private var lastLine = 0
    private var failedSinceLine = 0
    private var failedInAll = 0

    var failing: Bool { since != nil }

    mutating func failed(_ requests: Int, cause: String, diskFull: Bool, at now: Int, _ log: Logger) {
        failedInAll += 1
        failedSinceLine += 1
        lastFailure = now
        guard since == nil || now - lastLine >= Limits.failureLogSeconds * 1000 else { return }
        let what = diskFull ? "the disk is full: writes are refused (disk_full), reads are answered"
                            : "a batch failed; nothing of it was stored"
        log.error("\(what)", metadata: ["cause": "\(cause)", "requests": "\(requests)",
                                       "failedBatches": "\(failedSinceLine)"])
        since = since ?? now
        lastLine = now
        failedSinceLine = 0
    }

    mutating func stored(at now: Int, _ log: Logger) {
        guard let since, now - lastFailure >= Limits.failureLogSeconds * 1000 else { return }
        log.notice("batches are stored again", metadata: ["failedBatches": "\(failedInAll)",
                                                          "seconds": "\((lastFailure - since + 999) / 1000)"])
        self = BatchFailureLog()
    }
}
