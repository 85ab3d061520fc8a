import Testing
@testable import ParlorCore

@Suite struct AppDataTests {
    @Test func eachUserAndAppHasItsOwnStore() throws {
        let h = try EngineHarness()
        h.register(1, "Ana"); h.register(2, "Ben")
        h.request(1, #"{"type":"appdata.set","id":"1","appId":"wenderpic","key":"stickers","value":["a",{"b":2}]}"#)
        h.request(1, #"{"type":"appdata.set","id":"2","appId":"wenderpic","key":"best","value":7}"#)
        let mine = h.request(1, #"{"type":"appdata.get","id":"3","appId":"wenderpic"}"#)["result"]?["data"]
        #expect(mine?["stickers"] == .array([.string("a"), .object(JSONObject(keys: ["b"], values: [.number(2)]))]))
        #expect(mine?["best"] == .number(7))
        #expect(h.request(2, #"{"type":"appdata.get","id":"4","appId":"wenderpic"}"#)["result"]?["data"] == .object(JSONObject()))
        #expect(h.request(1, #"{"type":"appdata.get","id":"5","appId":"partylist"}"#)["result"]?["data"] == .object(JSONObject()))
        h.request(1, #"{"type":"appdata.set","id":"6","appId":"wenderpic","key":"best","value":null}"#)
        #expect(h.request(1, #"{"type":"appdata.get","id":"7","appId":"wenderpic"}"#)["result"]?["data"]?["best"] == nil)
    }

    @Test func valuesAndStoresAreBounded() throws {
        let h = try EngineHarness()
        h.register(1, "Ana")
        let big = String(repeating: "x", count: 16 * 1024)
        #expect(h.request(1, #"{"type":"appdata.set","id":"1","appId":"wenderpic","key":"k","value":"\#(big)"}"#)["field"] == .string("value"))
        let chunk = String(repeating: "y", count: 15 * 1024)
        var last: JSONValue = .null
        for i in 0..<18 {
            last = h.request(1, #"{"type":"appdata.set","id":"s\#(i)","appId":"wenderpic","key":"k\#(i)","value":"\#(chunk)"}"#)
        }
        #expect(last["code"] == .string("storage_full"))
        #expect(h.request(1, #"{"type":"appdata.set","id":"x","appId":"nope","key":"k","value":1}"#)["code"] == .string("unknown_app"))
        #expect(h.request(1, #"{"type":"appdata.set","id":"y","appId":"wenderpic","key":"k"}"#)["field"] == .string("value"))
    }

    @Test func unknownAppsHaveNoStorageAndNoIds() throws {
        let h = try EngineHarness()
        h.register(1, "Ana")
        let cid = h.conversation(owner: 1)
        #expect(h.request(1, #"{"type":"appdata.get","id":"1","appId":"nosuchapp"}"#)["code"] == .string("unknown_app"))
        #expect(h.request(1, #"{"type":"participants","id":"2","conversationId":"\#(cid)","appId":"nosuchapp"}"#)["code"] == .string("unknown_app"))
        #expect(h.request(1, #"{"type":"participants","id":"3","conversationId":"\#(cid)","appId":"wenderpic"}"#)["result"] != nil)
    }
}
