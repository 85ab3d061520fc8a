/// A text's `mentions` (in `send`'s message and in `messages.edit`): the user ids of
/// the members it names, at most `Limits.mentionsPerMessage`, each once. Whether each
/// is a member whose `@Name` the text holds is the engine's check (Engine+Mentions.swift).
enum MentionParser {
    /// `nil` when the field is absent or null.
    static func parse(_ f: Fields, _ k: StaticString) throws(ParlorError) -> [String]? {
        guard let raw = f.raw(k), raw.kind != .null else { return nil }
        let limit = Limits.mentionsPerMessage
        guard raw.kind == .array, case .array(let list) = f.scan.value(raw), list.count <= limit else {
            throw .invalid(f.path(k), "must be a list of at most \(limit) user ids")
        }
        var ids: [String] = []
        for v in list {
            guard case .string(let s) = v, !s.isEmpty, Validators.fits(s, Limits.idChars), !Validators.hasControl(s) else {
                throw .invalid(f.path(k), "must hold user ids")
            }
            guard !ids.contains(s) else { throw .invalid(f.path(k), "names someone twice") }
            ids.append(s)
        }
        return ids
    }
}
