/// A set for what is almost always small (a connection's conversations, a user's
/// connections, a conversation's subscribers): up to `limit` elements in an array, one small allocation instead of
/// a hash table's (about 50 bytes less for one element, per idle connection); past
/// that a `Set`, so one holding thousands is never scanned.
struct SmallSet<Element: Hashable>: Sequence {
    private enum Storage {
        case few([Element])
        case many(Set<Element>)
    }

    private var storage = Storage.few([])
    static var limit: Int { 16 }

    var isEmpty: Bool {
        switch storage {
        case .few(let a): a.isEmpty
        case .many(let s): s.isEmpty
        }
    }

    var count: Int {
        switch storage {
        case .few(let a): a.count
        case .many(let s): s.count
        }
    }

    func contains(_ e: Element) -> Bool {
        switch storage {
        case .few(let a): a.contains(e)
        case .many(let s): s.contains(e)
        }
    }

    /// False if it was there already.
    @discardableResult
    mutating func insert(_ e: Element) -> Bool {
        switch storage {
        case .few(var a):
            guard !a.contains(e) else { return false }
            storage = .few([])  // `a` is the only reference left: appended in place
            if a.count < Self.limit {
                a.append(e)
                storage = .few(a)
            } else {
                var s = Set(a)
                s.insert(e)
                storage = .many(s)
            }
            return true
        case .many(var s):
            storage = .few([])
            defer { storage = .many(s) }
            return s.insert(e).inserted
        }
    }

    /// False if it was not there.
    @discardableResult
    mutating func remove(_ e: Element) -> Bool {
        switch storage {
        case .few(var a):
            guard let i = a.lastIndex(of: e) else { return false }
            storage = .few([])
            a.remove(at: i)
            storage = .few(a)
            return true
        case .many(var s):
            storage = .few([])
            defer { storage = .many(s) }
            return s.remove(e) != nil
        }
    }

    /// The loop of a broadcast: the storage is looked at once, not at each element.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        switch storage {
        case .few(let a): for e in a { try body(e) }
        case .many(let s): for e in s { try body(e) }
        }
    }

    enum Iterator: IteratorProtocol {
        case few(IndexingIterator<[Element]>)
        case many(Set<Element>.Iterator)

        mutating func next() -> Element? {
            switch self {
            case .few(var i):
                defer { self = .few(i) }
                return i.next()
            case .many(var i):
                defer { self = .many(i) }
                return i.next()
            }
        }
    }

    func makeIterator() -> Iterator {
        switch storage {
        case .few(let a): .few(a.makeIterator())
        case .many(let s): .many(s.makeIterator())
        }
    }
}
