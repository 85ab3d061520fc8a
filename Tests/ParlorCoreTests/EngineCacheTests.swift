import Testing
@testable import ParlorCore

/// The engine's cache of what it read holds a bounded number of entries: it kept
/// everything touched since the server started (an outside soak run).
@Suite struct EngineCacheTests {
    @Test func theCacheStartsAfreshPastItsBound() throws {
        var settings = EngineSettings.openRegistration
        settings.cacheEntries = 20
        let h = try EngineHarness(settings: settings)
        h.register(1, "Ana")
        var most = 0
        for i in 0..<40 {
            let cid = h.conversation(owner: 1)
            h.request(1, #"{"type":"send","id":"s\#(i)","conversationId":"\#(cid)","clientId":"k\#(i)","message":{"kind":"text","text":"hi"}}"#)
            most = max(most, h.engine.cache.entries)
        }
        // a batch adds a few before the next one checks
        #expect(most <= 20 + 4)
        // and what it forgot is read again: a send to the first conversations still works
        let first = h.request(1, #"{"type":"conversations.list","id":"l"}"#)["result"]?["conversations"]?.array ?? []
        #expect(first.count == 40)
    }
}
