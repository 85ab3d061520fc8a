/// Cluster mode: whether this node still reaches the shared database. A node cut off
/// from PostgreSQL (its network path, its backend) answered every request `internal`
/// while the other nodes served: its people stayed, their messages failing one by one.
/// Once no batch has been stored for `lostSeconds` while batches failed (the sweep
/// runs a batch every second, so a reachable database clears it within one), the node
/// sends its connections away (1013, try again later: through a load balancer that
/// reads /health they come back on another node) and refuses new ones until a batch
/// is stored again.
struct DatabaseWatch {
    private var failingSince: Int?
    private(set) var lost = false

    /// After each batch: a change to tell (false: lost, true: reached again), or nil.
    /// `began`: when the batch started (a batch that waited out the store's deadline
    /// counts from its start).
    mutating func batch(failed: Bool, began: Int, at now: Int, lostSeconds: Int) -> Bool? {
        guard failed else {
            failingSince = nil
            guard lost else { return nil }
            lost = false
            return true
        }
        let since = failingSince ?? began
        failingSince = since
        guard !lost, lostSeconds > 0, now - since >= lostSeconds * 1000 else { return nil }
        lost = true
        return false
    }
}
