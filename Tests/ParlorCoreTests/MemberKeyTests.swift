import Testing
@testable import ParlorCore

@Suite struct MemberKeyTests {
    @Test func equalExactlyWhenBothIdsAre() {
        let c = Secrets.id(prefix: "c"), u = Secrets.id(prefix: "u")
        guard case .packed = MemberKey(conversation: c, user: u) else { Issue.record("Parlor's ids are packed"); return }
        #expect(MemberKey(conversation: c, user: u) == MemberKey(conversation: String(c), user: u))
        #expect(MemberKey(conversation: c, user: u) != MemberKey(conversation: u, user: c))
        #expect(MemberKey(conversation: c, user: u) != MemberKey(conversation: c, user: Secrets.id(prefix: "u")))
        // One digit or the prefix changed, anywhere: a different key.
        for i in 0..<25 {
            for id in [c, u] {
                var b = Array(id.utf8)
                b[i] = i == 0 ? UInt8(ascii: "x") : (b[i] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0"))
                let other = String(decoding: b, as: UTF8.self)
                let (oc, ou) = id == c ? (other, u) : (c, other)
                #expect(MemberKey(conversation: oc, user: ou) != MemberKey(conversation: c, user: u))
            }
        }
        // Not Parlor's form (uppercase, short, long): kept as text, still told apart.
        let lower = "c" + String(repeating: "ab", count: 12), upper = "c" + String(repeating: "AB", count: 12)
        guard case .text = MemberKey(conversation: upper, user: u) else { Issue.record("uppercase is not packed"); return }
        #expect(MemberKey(conversation: upper, user: u) != MemberKey(conversation: lower, user: u))
        #expect(MemberKey(conversation: "c1", user: u) == MemberKey(conversation: "c1", user: u))
        #expect(MemberKey(conversation: c + "0", user: u) != MemberKey(conversation: c, user: u))
    }
}
