import Foundation

/// `messages.report`: the message named by conversation and seq, and an optional reason
/// checked as a caption is (at most 300 characters, no control characters but line
/// breaks and tabs); a reason of spaces only is none.
extension RequestParser {
    static func report(_ f: Fields) throws(ParlorError) -> Request {
        guard let seq = try f.optionalInt("seq", min: 1) else { throw .invalid("seq") }
        let cid = try f.id("conversationId")
        var reason = try f.optionalString("reason", max: Limits.reportReasonChars)
        if let r = reason {
            guard !Validators.hasControl(r, inText: true) else { throw .invalid("reason", "contains control characters") }
            let trimmed = r.trimmingCharacters(in: .whitespacesAndNewlines)
            reason = trimmed.isEmpty || Validators.looksBlank(trimmed) ? nil : trimmed
        }
        return .reportMessage(conversationId: cid, seq: seq, reason: reason)
    }
}
