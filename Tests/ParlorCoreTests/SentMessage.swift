@testable import ParlorCore

/// A `send` frame's `message`, parsed as the server parses it: what the content tests
/// (reactions, replies) feed the parser.
enum SentMessage {
    static func frame(_ message: String) -> String {
        #"{"type":"send","id":"r1","conversationId":"c","clientId":"k","message":\#(message)}"#
    }

    static func parsed(_ message: String) -> Result<Request, ParlorError> {
        RequestParser.parse(Array(frame(message).utf8)).result
    }

    static func content(_ message: String) -> MessageContent? {
        if case .success(.send(_, _, let c)) = parsed(message) { return c }
        return nil
    }

    static func error(_ message: String) -> ParlorError? {
        if case .failure(let e) = parsed(message) { return e }
        return nil
    }

    /// Ana (connection 1) and Ben (2) in one conversation `c`, and `send`: a send there
    /// from a connection with a clientId and a message, answered.
    static func anaAndBen() throws -> (h: EngineHarness, c: String, send: (ConnectionID, String, String) -> JSONValue) {
        let h = try EngineHarness()
        _ = h.register(1, "Ana")
        _ = h.register(2, "Ben")
        let c = h.conversation(owner: 1, joiners: [2])
        return (h, c, { conn, clientId, message in
            h.request(conn, #"{"type":"send","id":"s","conversationId":"\#(c)","clientId":"\#(clientId)","message":\#(message)}"#)
        })
    }
}
