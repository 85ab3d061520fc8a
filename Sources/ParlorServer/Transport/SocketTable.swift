import ParlorCore

/// Each open WebSocket's lws handle, in the same slots as the live state's
/// `ConnectionTable`, so the effect of a delivery finds its socket by index.
struct SocketTable {
    private var slots: [(id: ConnectionID, wsi: OpaquePointer)?] = []

    mutating func set(_ id: ConnectionID, _ wsi: OpaquePointer) {
        let s = ConnectionTable.slot(of: id)
        while slots.count <= s { slots.append(nil) }
        slots[s] = (id, wsi)
    }

    /// False if the id is not (or no longer) open.
    mutating func remove(_ id: ConnectionID) -> Bool {
        guard self[id] != nil else { return false }
        slots[ConnectionTable.slot(of: id)] = nil
        return true
    }

    subscript(id: ConnectionID) -> OpaquePointer? {
        let s = ConnectionTable.slot(of: id)
        guard s < slots.count, let entry = slots[s], entry.id == id else { return nil }
        return entry.wsi
    }
}
