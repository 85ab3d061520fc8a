import Foundation
import GRDB
import Testing
@testable import ParlorCore

@Suite struct SessionTests {
    func appSend(_ c: String, _ clientId: String, session: String, base: Int, app: String = "wenderpic",
                 summary: String? = nil) -> String {
        let s = summary.map { #","summaryText":"\#($0)""# } ?? ""
        return #"{"type":"send","id":"\#(clientId)","conversationId":"\#(c)","clientId":"\#(clientId)","message":{"kind":"app","appId":"\#(app)","url":"?step=\#(clientId)","layout":{"caption":"$x"},"session":{"id":"\#(session)","baseVersion":\#(base)}\#(s)}}"#
    }

    @Test func anUpdateSupersedesTheSessionsBubbleAndMovesItToTheEnd() throws {
        let h = try EngineHarness()
        h.register(1, "Ana"); h.register(2, "Ben")
        let c = h.conversation(owner: 1, joiners: [2])
        let first = h.request(1, appSend(c, "a", session: "s1", base: 0))
        #expect(first["result"]?["message"]?["session"]?["version"] == .number(1))
        h.request(2, #"{"type":"send","id":"t","conversationId":"\#(c)","clientId":"t","message":{"kind":"text","text":"between"}}"#)
        let actions = h.batch([(2, appSend(c, "b", session: "s1", base: 1))])
        let event = EngineHarness.frames(actions).first { $0["type"] == .string("message") }
        #expect(event?["message"]?["seq"] == .number(3))
        #expect(event?["message"]?["session"]?["version"] == .number(2))
        #expect(event?["supersedes"]?["seq"] == .number(1))
        #expect(event?["supersedes"]?["summary"] == .string("Ana played Wenderpic"))
        let history = h.request(1, #"{"type":"history","id":"h","conversationId":"\#(c)"}"#)
        let old = history["result"]?["messages"]?.array?.first
        #expect(old?["supersededBy"] == .number(3))
        #expect(old?["summary"] == .string("Ana played Wenderpic"))
        // The head is drawn as a bubble: no summary until something supersedes it.
        let head = history["result"]?["messages"]?.array?.last
        #expect(head?["seq"] == .number(3))
        #expect(head?["supersededBy"] == nil)
        #expect(head?["summary"] == nil)
    }

    /// Rows stored before each session message kept its own summary have none; a
    /// restarted engine (no cached head) computes it when the session moves on.
    @Test func aHeadStoredWithoutASummaryGetsOneWhenSuperseded() throws {
        let path = NSTemporaryDirectory() + "parlor-session-" + Secrets.hex(Secrets.randomBytes(6)) + ".sqlite"
        defer { for ext in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + ext) } }
        var c = "", token = ""
        do {
            let h = try EngineHarness(databasePath: { _ in path })
            token = h.register(1, "Ana").1
            c = h.conversation(owner: 1)
            h.request(1, appSend(c, "a", session: "s1", base: 0))
            h.request(1, appSend(c, "b", session: "s1", base: 1, summary: "Ana guessed"))
        }
        try DatabaseQueue(path: path).write { try $0.execute(sql: "UPDATE messages SET summary = NULL WHERE seq = 2") }
        let h = try EngineHarness(databasePath: { _ in path })
        #expect(h.request(1, #"{"type":"auth","id":"x","token":"\#(token)"}"#)["type"] == .string("result"))
        let event = EngineHarness.frames(h.batch([(1, appSend(c, "c", session: "s1", base: 2))]))
            .first { $0["type"] == .string("message") }
        #expect(event?["supersedes"]?["seq"] == .number(2))
        #expect(event?["supersedes"]?["summary"] == .string("Ana guessed"))
        let history = h.request(1, #"{"type":"history","id":"h","conversationId":"\#(c)"}"#)["result"]?["messages"]?.array
        #expect(history?.map { $0["supersededBy"] } == [.number(2), .number(3), nil])
        #expect(history?[1]["summary"] == .string("Ana guessed"))
    }

    @Test func theSummaryTextReplacesTheOldBubble() throws {
        let h = try EngineHarness()
        h.register(1, "Ana")
        let c = h.conversation(owner: 1)
        h.request(1, appSend(c, "a", session: "s1", base: 0, summary: "Ana drew a word"))
        let event = EngineHarness.frames(h.batch([(1, appSend(c, "b", session: "s1", base: 1))]))
            .first { $0["type"] == .string("message") }
        #expect(event?["supersedes"]?["summary"] == .string("Ana drew a word"))
    }

    @Test func aDeletedHeadsSummaryTextDoesNotOutliveIt() throws {
        let h = try EngineHarness()
        h.register(1, "Ana")
        let c = h.conversation(owner: 1)
        let first = h.request(1, appSend(c, "a", session: "s1", base: 0, summary: "Ana drew a secret"))
        let seq = first["result"]?["message"]?["seq"]?.int ?? 0
        let deleted = h.request(1, #"{"type":"messages.delete","id":"d","conversationId":"\#(c)","seq":\#(seq)}"#)
        #expect(deleted["type"] == .string("result"))
        let event = EngineHarness.frames(h.batch([(1, appSend(c, "b", session: "s1", base: 1))]))
            .first { $0["type"] == .string("message") && $0["message"]?["session"] != nil }
        #expect(event?["supersedes"]?["seq"] == .number(Double(seq)))
        #expect(event?["supersedes"]?["summary"] != .string("Ana drew a secret"))
    }

    @Test func twoUpdatesFromTheSameVersionNeverLoseOneSilently() throws {
        let h = try EngineHarness()
        h.register(1, "Ana"); h.register(2, "Ben")
        let c = h.conversation(owner: 1, joiners: [2])
        h.request(1, appSend(c, "a", session: "s1", base: 0))
        // Both based on version 1, in one batch: the first wins, the second conflicts.
        let frames = EngineHarness.frames(h.batch([(1, appSend(c, "b", session: "s1", base: 1)),
                                                   (2, appSend(c, "c", session: "s1", base: 1))]))
        let conflict = frames.first { $0["code"] == .string("session_conflict") }
        #expect(conflict?["re"] == .string("c"))
        #expect(conflict?["current"]?["clientId"] == .string("b"))
        #expect(conflict?["current"]?["session"]?["version"] == .number(2))
        // Retrying from the current version works.
        let retry = h.request(2, appSend(c, "c2", session: "s1", base: 2))
        #expect(retry["result"]?["message"]?["session"]?["version"] == .number(3))
    }

    @Test func aSessionBelongsToOneApp() throws {
        let h = try EngineHarness()
        h.register(1, "Ana")
        let c = h.conversation(owner: 1)
        h.request(1, appSend(c, "a", session: "s1", base: 0))
        #expect(h.request(1, appSend(c, "b", session: "s1", base: 1, app: "partylist"))["code"]
                == .string("session_app_mismatch"))
        #expect(h.request(1, appSend(c, "x", session: "nope", base: 4))["code"] == .string("not_found"))
        #expect(h.request(1, appSend(c, "y", session: "s2", base: 0, app: "notinstalled"))["code"]
                == .string("unknown_app"))
    }

    @Test func participantIdentifiersAreStablePerUserAndApp() throws {
        let h = try EngineHarness()
        let (ana, _) = h.register(1, "Ana")
        let (ben, _) = h.register(2, "Ben")
        let c = h.conversation(owner: 1, joiners: [2])
        let p = #"{"type":"participants","id":"p","conversationId":"\#(c)","appId":"wenderpic"}"#
        let a1 = h.request(1, p)["result"]
        let a2 = h.request(1, p)["result"]
        let b1 = h.request(2, p)["result"]
        #expect(a1 == a2)
        let anaP = a1?["local"]?.string
        #expect(anaP != nil && anaP != b1?["local"]?.string)
        let pairs = a1?["participants"]?.array ?? []
        #expect(Set(pairs.compactMap { $0["userId"]?.string }) == [ana, ben])
        let other = h.request(1, #"{"type":"participants","id":"p","conversationId":"\#(c)","appId":"partylist"}"#)
        #expect(other["result"]?["local"]?.string != anaP)
        let sent = h.request(1, appSend(c, "a", session: "s", base: 0))
        #expect(sent["result"]?["message"]?["senderParticipantId"]?.string == anaP)
    }
}
