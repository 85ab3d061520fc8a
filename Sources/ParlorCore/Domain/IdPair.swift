/// Two ids as one key (the engine's caches), without joining them into a new string on
/// every request.
struct IdPair: Hashable {
    let first: String
    let second: String
    init(_ first: String, _ second: String) { self.first = first; self.second = second }
}
