/// Periodic clean-up on the engine thread: images no message shows any more are
/// deleted once older than the grace period (an upload waits to be sent; deleted
/// messages' images went already), a batch at a time; rate buckets that refilled are
/// forgotten; invites that can no longer be used go after a month.
extension Engine {
    func collectImages(_ tx: any StoreTransaction, _ out: inout Outbox) throws {
        let at = now()
        let every = min(Limits.imageSweepSeconds, settings.imageGraceSeconds) * 1000
        guard at - lastCollection >= every else { return }
        lastCollection = at
        limiters.prune(now: at)
        try tx.isolated {
            let unused = try tx.unreferencedBlobs(before: at - settings.imageGraceSeconds * 1000,
                                                  limit: Limits.imagesCollectedPerSweep)
            guard !unused.isEmpty else { return }
            try forgetImages(unused, tx, &out)
            log.info("unused images deleted", metadata: ["count": "\(unused.count)"])
        }
        guard at - lastInvitePrune >= Limits.inviteSweepSeconds * 1000 else { return }
        lastInvitePrune = at
        try tx.isolated {
            let gone = try tx.pruneInvites(before: at - Limits.deadInviteDays * 86_400_000)
            if gone > 0 { log.info("dead invites deleted", metadata: ["count": "\(gone)"]) }
            let resolved = try tx.pruneResolvedReports(before: at - Limits.resolvedReportDays * 86_400_000)
            if resolved > 0 { log.info("resolved reports deleted", metadata: ["count": "\(resolved)"]) }
        }
    }
}
