import ParlorCore

/// The live connections in a slab: an id is a slot number (low 32 bits) and the slot's
/// generation (high 32 bits), so finding a connection is an array index and a compare,
/// not a hash, on the path every delivery takes; a reused slot gets a new generation,
/// so a stale id never reaches the connection that took its place.
struct ConnectionTable {
    private var slots: [LiveConnection?] = []
    private var generations: [UInt32] = []
    private var free: [Int] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    static func slot(of id: ConnectionID) -> Int { Int(id & 0xFFFF_FFFF) }

    private func slot(_ id: ConnectionID) -> Int? {
        let s = Self.slot(of: id)
        guard s < slots.count, generations[s] == UInt32(id >> 32), slots[s] != nil else { return nil }
        return s
    }

    /// Adds a connection under a new id.
    mutating func insert(_ make: (ConnectionID) -> LiveConnection) -> ConnectionID {
        let s: Int
        if let f = free.popLast() {
            s = f
        } else {
            s = slots.count
            slots.append(nil)
            generations.append(0)
        }
        generations[s] &+= 1
        let id = ConnectionID(generations[s]) << 32 | ConnectionID(s)
        slots[s] = make(id)
        count += 1
        return id
    }

    mutating func remove(_ id: ConnectionID) {
        guard let s = slot(id) else { return }
        slots[s] = nil
        free.append(s)
        count -= 1
    }

    func contains(_ id: ConnectionID) -> Bool { slot(id) != nil }

    /// Reads or changes a connection in place (no copy of its queue). Use `insert` and
    /// `remove` to add and drop one; assigning nil here is not allowed.
    subscript(id: ConnectionID) -> LiveConnection? {
        get { slot(id).flatMap { slots[$0] } }
        _modify {
            if let s = slot(id) {
                yield &slots[s]
                precondition(slots[s] != nil, "remove a connection with remove(_:)")
            } else {
                var none: LiveConnection?
                yield &none
            }
        }
    }

    /// Every live connection's id.
    var ids: [ConnectionID] { slots.compactMap { $0?.id } }
}
