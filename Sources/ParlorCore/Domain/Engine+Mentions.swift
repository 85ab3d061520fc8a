/// Mentions: a text names members as `@Name` and says whom in `mentions`, so each
/// client can highlight and notify them without guessing from the words (two members
/// may share a name, and a name may hold spaces). The server holds the list to what
/// the text says: each mentioned user is a member now, and the text holds `@` followed
/// by their name as it is now (exactly, case and all). Stored in the body, nothing more.
extension Engine {
    /// Refuses (`invalid_field`, naming `field`) a mention of a non-member or of someone
    /// the text does not name. Reads only: `send` calls it before its first write.
    func checkMentions(_ cid: String, _ text: String, _ ids: [String], field: String,
                       _ tx: any StoreTransaction) throws {
        guard !ids.isEmpty else { return }
        let found = try tx.members(conversationId: cid, userIds: ids)
        for uid in ids {
            guard let m = found.first(where: { $0.userId == uid }) else {
                throw ParlorError(.invalidField, "mentions someone who is not a member of this conversation", field: field)
            }
            guard Self.names(text, m.name) else {
                throw ParlorError(.invalidField, "mentions \(m.name), but the text does not say @\(m.name)", field: field)
            }
        }
    }

    /// An edit that says nothing of mentions keeps those its new text still names.
    func stillNamed(_ cid: String, _ text: String, _ ids: [String], _ tx: any StoreTransaction) throws -> [String] {
        guard !ids.isEmpty else { return [] }
        let found = try tx.members(conversationId: cid, userIds: ids)
        return ids.filter { uid in found.contains { $0.userId == uid && Self.names(text, $0.name) } }
    }

    /// The text holds `@name` not as the start of a longer word ("@Anabel" does not name
    /// Ana), as the web client decides (state/mentions.js): the next character is not a
    /// letter, a digit or `_`. Compared scalar by scalar, as the client's `indexOf` does;
    /// a scalar past the BMP counts as no letter there (the client sees half of it).
    static func names(_ text: String, _ name: String) -> Bool {
        let t = Array(text.unicodeScalars), n = Array(("@" + name).unicodeScalars)
        var i = 0
        while i + n.count <= t.count {
            if t[i] == "@", t[i..<i + n.count].elementsEqual(n) {
                let end = i + n.count
                if end == t.count || !isWordScalar(t[end]) { return true }
            }
            i += 1
        }
        return false
    }

    private static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        guard s.value <= 0xFFFF else { return false }
        if s == "_" { return true }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber: return true
        default: return false
        }
    }

    /// A stored text's mentions.
    static func mentions(in body: JSONValue) -> [String] {
        guard case .array(let list)? = body["mentions"] else { return [] }
        return list.compactMap { if case .string(let s) = $0 { s } else { nil } }
    }
}
