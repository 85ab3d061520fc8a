import Foundation

/// Turns a frame's bytes into a `ClientFrame`, or the error to answer with.
/// Every field is checked for presence, type and size before anything runs.
public enum RequestParser {
    public static func parse<C: Collection>(_ bytes: C) -> (id: String?, result: Result<Request, ParlorError>)
    where C.Element == UInt8 {
        let array = Array(bytes)
        return array.withUnsafeBufferPointer { parse(buffer: $0) }
    }

    /// Whether a frame is a `send`, and its id if it has a usable one: all the service
    /// thread reads of a frame it turns away while the engine is behind (BusyRefusal).
    static func peekSend(_ bytes: [UInt8]) -> (isSend: Bool, id: String?) {
        bytes.withUnsafeBufferPointer { buf in
            guard let scan = JSONScan(buf) else { return (false, nil) }
            return scan.withFrame { frame in
                let f = Fields(frame)
                // "s\u0065nd" is a send to the engine too, so it is one here (else it
                // passed the refusal and was stored ahead of the sends refused before it)
                guard let t = f.raw("type"), t.kind == .string,
                      t.stringPlain ? f.scan.isPlainString(t, "send") : frame.string(t) == "send" else { return (false, nil) }
                return (true, requestId(f, frame).usable)
            }
        }
    }

    /// The frame's `id` if it is a string, and the same if an answer may carry it back.
    private static func requestId(_ f: Fields, _ frame: JSONFrame) -> (raw: String?, usable: String?) {
        guard let m = f.raw("id"), m.kind == .string else { return (nil, nil) }
        let s = frame.string(m)
        return (s, Validators.fits(s, Limits.idChars) ? s : nil)
    }

    private static func parse(buffer buf: UnsafeBufferPointer<UInt8>) -> (id: String?, result: Result<Request, ParlorError>) {
        // Scanned, not parsed into a tree: fields are read from the bytes they are in.
        guard let scan = JSONScan(buf) else {
            return (nil, .failure(ParlorError(.badJSON, "the frame is not a JSON object")))
        }
        return scan.withFrame { parse(scan, $0) }
    }

    private static func parse(_ scan: JSONScan, _ frame: JSONFrame) -> (id: String?, result: Result<Request, ParlorError>) {
        let f = Fields(frame)
        let (idString, id) = requestId(f, frame)
        if scan.tooDeep {
            return (id, .failure(ParlorError(.badJSON, "JSON is nested deeper than \(JSONParser.maxDepth) levels")))
        }
        do {
            return (id, .success(try request(f, id: idString)))
        } catch {
            return (id, .failure(error))
        }
    }

    /// `id`: the frame's `id` if it is a string.
    static func request(_ f: Fields, id: String?) throws(ParlorError) -> Request {
        guard let id, !id.isEmpty, Validators.fits(id, Limits.idChars), !Validators.hasControl(id) else {
            throw .invalid("id", "must be a string of 1–64 characters, no control characters")
        }
        guard let t = f.raw("type"), t.kind == .string else {
            throw ParlorError(.unknownType, "the frame has no type")
        }
        // The one frame a game or a chat sends all the time, told apart without a String.
        if f.scan.isPlainString(t, "send") { return try send(f) }
        let type = f.scan.string(t)
        switch type {
        case "register":
            return .register(name: try f.name("name"), invite: try f.optionalIdentifier("invite", max: 128),
                             deviceName: try f.deviceName())
        case "auth": return .auth(token: try f.identifier("token", max: 128))
        case "device.link":
            return .linkDevice(code: try f.identifier("code", max: 128), deviceName: try f.deviceName())
        case "recover":
            return .recover(recoveryKey: try f.identifier("recoveryKey", max: 128), deviceName: try f.deviceName(),
                            revokeOthers: try f.optionalBool("revokeOthers") ?? false)
        case "devices.list": return .listDevices
        case "devices.rename": return .renameDevice(deviceId: try f.id("deviceId"), name: try f.name("name"))
        case "devices.revoke": return .revokeDevice(deviceId: try f.id("deviceId"))
        case "devices.revokeAll": return .revokeAllDevices(keepThis: try f.optionalBool("keepThis") ?? false)
        case "devices.createLink": return .createDeviceLink
        case "recovery.create": return .createRecoveryKey
        case "account.delete": return .deleteAccount(confirm: try f.name("confirm"))
        case "rename": return .rename(name: try f.name("name"))
        case "conversations.list": return .listConversations
        case "conversations.create":
            return .createConversation(title: try f.trimmed("title", max: Limits.titleChars))
        case "invites.create":
            return .createInvite(conversationId: try f.id("conversationId"),
                                 maxUses: try f.optionalInt("maxUses", min: 1, max: Limits.inviteUses),
                                 expiresInSeconds: try f.optionalInt("expiresInSeconds", min: 1, max: Limits.inviteSeconds))
        case "invites.list": return .listInvites(conversationId: try f.id("conversationId"))
        case "invites.revoke": return .revokeInvite(inviteId: try f.id("inviteId"))
        case "conversations.leave": return .leaveConversation(conversationId: try f.id("conversationId"))
        case "conversations.removeMember":
            return .removeMember(conversationId: try f.id("conversationId"), userId: try f.id("userId"))
        case "conversations.rename":
            return .renameConversation(conversationId: try f.id("conversationId"),
                                       title: try f.trimmed("title", max: Limits.titleChars))
        case "messages.delete":
            guard let seq = try f.optionalInt("seq", min: 1) else { throw .invalid("seq") }
            return .deleteMessage(conversationId: try f.id("conversationId"), seq: seq)
        case "messages.edit": return try edit(f)
        case "messages.report": return try report(f)
        case "conversations.direct": return .openDirect(userId: try f.id("userId"))
        case "users.block": return .block(userId: try f.id("userId"))
        case "users.unblock": return .unblock(userId: try f.id("userId"))
        case "conversations.join": return .join(invite: try f.identifier("invite", max: 128))
        case "invites.peek": return .peekInvite(invite: try f.identifier("invite", max: 128))
        case "subscribe":
            return .subscribe(conversationId: try f.id("conversationId"), afterSeq: try f.optionalInt("afterSeq", min: 0) ?? 0,
                              afterClientId: try f.optionalIdentifier("afterClientId", max: Limits.idChars))
        case "unsubscribe": return .unsubscribe(conversationId: try f.id("conversationId"))
        case "ping": return .ping
        case "send": return try send(f)
        case "history":
            let conversationId = try f.id("conversationId")
            let beforeSeq = try f.optionalInt("beforeSeq", min: 1)
            let afterSeq = try f.optionalInt("afterSeq", min: 0)
            if beforeSeq != nil && afterSeq != nil { throw .invalid("afterSeq", "cannot be given with beforeSeq") }
            return .history(
                conversationId: conversationId, beforeSeq: beforeSeq, afterSeq: afterSeq,
                limit: try f.optionalInt("limit", min: 1, max: Limits.historyPage) ?? Limits.historyDefault
            )
        case "messages.search":
            return .searchMessages(conversationId: try f.id("conversationId"),
                                   query: try f.trimmed("query", max: Limits.searchQueryChars),
                                   beforeSeq: try f.optionalInt("beforeSeq", min: 1))
        case "apps.install": return .installApp(appId: try f.appId("appId"))
        case "apps.uninstall": return .uninstallApp(appId: try f.appId("appId"))
        case "participants":
            return .participants(conversationId: try f.id("conversationId"), appId: try f.appId("appId"))
        case "members":
            guard let raw = f.raw("userIds"), raw.kind == .array, case .array(let list) = f.scan.value(raw),
                  list.count <= Limits.listedMembers else {
                throw .invalid("userIds", "must be a list of at most \(Limits.listedMembers) user ids")
            }
            let ids = list.compactMap { v -> String? in
                if case .string(let s) = v, Validators.fits(s, Limits.idChars), !Validators.hasControl(s) { s } else { nil }
            }
            guard ids.count == list.count else { throw .invalid("userIds", "must hold user ids") }
            return .members(conversationId: try f.id("conversationId"), userIds: ids)
        case "appdata.get": return .getAppData(appId: try f.appId("appId"))
        case "appdata.set":
            guard let raw = f.raw("value") else { throw .invalid("value", "is missing (null removes the key)") }
            return .setAppData(appId: try f.appId("appId"), key: try f.identifier("key", max: Limits.appDataKeyChars),
                               value: raw.kind == .null ? nil : f.scan.value(raw))
        case "read":
            guard let seq = try f.optionalInt("seq", min: 0) else { throw .invalid("seq", "must be a whole number, 0 or more") }
            return .markRead(conversationId: try f.id("conversationId"), seq: seq)
        case "typing":
            guard let on = try f.optionalBool("typing") else { throw .invalid("typing", "must be true or false") }
            return .typing(conversationId: try f.id("conversationId"), typing: on)
        case "conversations.setNotify":
            guard let level = try f.optionalString("notify", max: 8).flatMap(NotifyLevel.init(rawValue:)) else {
                throw .invalid("notify", "must be all, mentions or none")
            }
            return .setNotify(conversationId: try f.id("conversationId"), notify: level)
        case "playing":
            guard let on = try f.optionalBool("playing") else { throw .invalid("playing") }
            return .playing(conversationId: try f.id("conversationId"), sessionId: try f.id("sessionId"), playing: on)
        default:
            if let a = try AdminRequest.parse(type, f) { return .admin(a) }
            throw ParlorError(.unknownType, "unknown frame type")
        }
    }

    private static func send(_ f: Fields) throws(ParlorError) -> Request {
        guard let m = try f.object("message") else { throw .invalid("message") }
        return .send(
            conversationId: try f.id("conversationId"),
            clientId: try f.id("clientId"),
            content: try ContentParser.parse(m)
        )
    }
}

/// Typed access to a scanned JSON object's fields, naming the field in every error.
struct Fields {
    let scan: JSONFrame
    /// The object's first member.
    let first: Int
    /// Where the object is, for errors: "" (the frame), "outer." or "outer.inner.".
    let outer: StaticString?
    let inner: StaticString?

    init(_ scan: JSONFrame) {
        self.scan = scan
        first = scan.root
        outer = nil
        inner = nil
    }

    private init(_ scan: JSONFrame, first: Int, outer: StaticString?, inner: StaticString?) {
        precondition(first != JSONScan.unrecorded, "an object nested too deep to be read as fields")
        self.scan = scan
        self.first = first
        self.outer = outer
        self.inner = inner
    }

    /// The error's field name for key `k`, e.g. "message.layout.caption".
    func path(_ k: StaticString) -> String {
        var s = ""
        if let outer { s += outer.description + "." }
        if let inner { s += inner.description + "." }
        return s + k.description
    }

    /// The member `k` (the last one if repeated), whatever its type.
    @inline(__always)
    func raw(_ k: StaticString) -> JSONMember? { scan.member(first, k) }

    func optionalString(_ k: StaticString, max: Int) throws(ParlorError) -> String? {
        guard let m = raw(k) else { return nil }
        switch m.kind {
        case .null: return nil
        case .string:
            let s = scan.string(m)
            guard Validators.fits(s, max) else { throw .tooLong(path(k), max: max) }
            return s
        default: throw .invalid(path(k))
        }
    }

    func string(_ k: StaticString, max: Int) throws(ParlorError) -> String {
        guard let s = try optionalString(k, max: max), !s.isEmpty else { throw .invalid(path(k)) }
        return s
    }

    /// A display name or title: trimmed, non-empty, no control characters; direction
    /// overrides and invisible characters left out (`Validators.visible`).
    func trimmed(_ k: StaticString, max: Int) throws(ParlorError) -> String {
        let raw = try string(k, max: max * 4)
        let s = Validators.visible(raw).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !s.isEmpty else { throw .invalid(path(k), "is empty") }
        guard Validators.fits(s, max) else { throw .tooLong(path(k), max: max) }
        guard !Validators.hasControl(s) else {
            throw .invalid(path(k), "contains control characters")
        }
        guard !Validators.looksBlank(s) else { throw .invalid(path(k), "is empty") }
        return s
    }

    func name(_ k: StaticString) throws(ParlorError) -> String { try trimmed(k, max: Limits.nameChars) }

    func id(_ k: StaticString) throws(ParlorError) -> String { try identifier(k, max: Limits.idChars) }

    /// An id, key, token or code: SQLite reads text back only up to a NUL, so "a\0b" and
    /// "a\0c" would be one key; no control character has a place in one.
    func identifier(_ k: StaticString, max: Int) throws(ParlorError) -> String {
        let s = try string(k, max: max)
        guard !Validators.hasControl(s) else { throw .invalid(path(k), "contains control characters") }
        return s
    }

    /// Present and not null.
    func has(_ k: StaticString) -> Bool {
        guard let m = raw(k) else { return false }
        return m.kind != .null
    }

    func optionalIdentifier(_ k: StaticString, max: Int) throws(ParlorError) -> String? {
        guard has(k) else { return nil }
        return try identifier(k, max: max)
    }

    /// A first frame's optional `deviceName`, as the account's device list shows it.
    func deviceName() throws(ParlorError) -> String? {
        guard has("deviceName") else { return nil }
        return try name("deviceName")
    }

    func appId(_ k: StaticString) throws(ParlorError) -> String {
        let s = try string(k, max: Limits.idChars)
        guard Validators.isAppId(s) else { throw .invalid(path(k), "must be lowercase letters, digits and dashes") }
        return s
    }

    func blobHash(_ k: StaticString) throws(ParlorError) -> String {
        let s = try string(k, max: 64)
        guard Validators.isBlobHash(s) else { throw .invalid(path(k), "must be a blob's SHA-256 hash") }
        return s
    }

    func optionalInt(_ k: StaticString, min: Int = .min, max: Int = .max) throws(ParlorError) -> Int? {
        guard let m = raw(k) else { return nil }
        switch m.kind {
        case .null: return nil
        case .number:
            let d = scan.number(m)
            guard d == d.rounded(), d >= Double(min), d <= Double(max), abs(d) < 9e15 else {
                throw .invalid(path(k), "is out of range")
            }
            return Int(d)
        default: throw .invalid(path(k))
        }
    }

    func double(_ k: StaticString, in range: ClosedRange<Double>) throws(ParlorError) -> Double {
        guard let m = raw(k), m.kind == .number, case let d = scan.number(m), range.contains(d) else {
            throw .invalid(path(k), "is out of range")
        }
        return d
    }

    func optionalBool(_ k: StaticString) throws(ParlorError) -> Bool? {
        guard let m = raw(k) else { return nil }
        switch m.kind {
        case .null: return nil
        case .true: return true
        case .false: return false
        default: throw .invalid(path(k))
        }
    }

    /// The object `k`, nil when missing or null; the frame's own fields and `message`'s
    /// are the only objects read this way.
    func object(_ k: StaticString) throws(ParlorError) -> Fields? {
        guard let m = raw(k) else { return nil }
        switch m.kind {
        case .null: return nil
        case .object:
            if outer == nil { return Fields(scan, first: m.firstChild, outer: k, inner: nil) }
            precondition(inner == nil, "fields are read at most three objects deep")
            return Fields(scan, first: m.firstChild, outer: outer, inner: k)
        default: throw .invalid(path(k))
        }
    }
}

public enum Validators {
    /// At most `max` characters as a person counts them, and `bytesPerCharacter` times
    /// that in bytes: one "character" may pile up any number of marks (a name of one
    /// letter and 20,000 accents was 40 KB, and 137 such members made every answer that
    /// lists a conversation's members pass the slow-consumer bound, a review found).
    /// Counting characters walks grapheme clusters (the biggest cost of checking a
    /// send); a string with no more UTF-8 bytes than `max` cannot have more characters,
    /// so only longer ones are counted.
    @inline(__always)
    public static func fits(_ s: String, _ max: Int) -> Bool {
        let bytes = s.utf8.count
        return bytes <= max || (bytes <= max * bytesPerCharacter && s.count <= max)
    }

    /// Letters with a few marks each, flags and most emoji take 1-8 bytes; a family with
    /// skin tones takes 41, so a name may still hold a dozen of them.
    public static let bytesPerCharacter = 8

    /// Whether a control character is in `s`; a text message's line breaks and tabs
    /// (`inText`) are not counted.
    public static func hasControl(_ s: String, inText: Bool = false) -> Bool {
        @inline(__always) func control(_ b: UInt8) -> Bool {
            (b < 0x20 && !(inText && (b == 0x09 || b == 0x0A || b == 0x0D))) || b == 0x7F
        }
        // Most identifiers and texts are ASCII: checked bytewise, without the Unicode
        // property lookup (which cost a tenth of a session update's instructions), and
        // on the contiguous bytes, not through the UTF-8 view's iterator.
        let ascii = s.utf8.withContiguousStorageIfAvailable { u -> Bool? in
            for b in u {
                if control(b) { return nil }
                if b >= 0x80 { return false }
            }
            return true
        }
        switch ascii {
        case .some(.none): return true
        case .some(.some(true)): return false
        case .some(.some(false)): break
        case .none:
            var ascii = true
            for b in s.utf8 {
                if control(b) { return true }
                if b >= 0x80 { ascii = false; break }
            }
            if ascii { return false }
        }
        return s.unicodeScalars.contains { $0.value < 0x80 ? control(UInt8($0.value)) : $0.properties.generalCategory == .control }
    }

    /// A name without what can make it show as another: direction controls (U+202E
    /// showed "\u{202E}nimda" as "admin"), line or paragraph separators (as spaces), and
    /// what Unicode says draws nothing (zero-width spaces, joiners, the soft hyphen,
    /// variation selectors, tags, fillers) and the Braille blank: "An\u{200D}a" or
    /// "Ana\u{AD}" showed as "Ana" and passed for her. What emoji and scripts need
    /// stays: a joiner between two non-ASCII characters (a family, Persian), a variation
    /// selector after an emoji or a non-ASCII character, tags after a black flag (🏴
    /// and its country). ASCII is returned as it is.
    public static func visible(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 >= 0x80 }) else { return s }
        let scalars = Array(s.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (i, u) in scalars.enumerated() {
            let before = out.last
            switch u.value {
            case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C, 0x2800:
                continue
            case 0x2028, 0x2029:
                out.append(" ")
            case 0x200C, 0x200D:
                let after = i + 1 < scalars.count ? scalars[i + 1] : nil
                if let before, let after, before.value >= 0x80, after.value >= 0x80 { out.append(u) }
            case 0xFE00...0xFE0F, 0xE0100...0xE01EF:
                if let before, before.value >= 0x80 || before.properties.isEmoji { out.append(u) }
            case 0xE0020...0xE007F:
                if let before, before.value == 0x1F3F4 || (0xE0020...0xE007F).contains(before.value) { out.append(u) }
            default:
                if !u.properties.isDefaultIgnorableCodePoint { out.append(u) }
            }
        }
        return String(out)
    }

    /// Made only of characters that draw nothing by themselves: spaces, the Braille
    /// blank, what Unicode says to ignore when drawing (joiners, fillers, variation
    /// selectors, tags, the soft hyphen), format characters and marks with no letter
    /// to sit on ("\u{2800}\u{200D}" and a lone "\u{0301}" passed the first version).
    public static func looksBlank(_ s: String) -> Bool {
        s.unicodeScalars.allSatisfy {
            let p = $0.properties
            switch p.generalCategory {
            case .nonspacingMark, .enclosingMark, .format, .control, .spaceSeparator, .lineSeparator, .paragraphSeparator:
                return true
            default:
                return $0.value == 0x2800 || p.isWhitespace || p.isDefaultIgnorableCodePoint
            }
        }
    }

    public static func isAppId(_ s: String) -> Bool {
        let u = s.utf8
        guard let first = u.first, u.count <= Limits.idChars, first != UInt8(ascii: "-") else { return false }
        return u.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == UInt8(ascii: "-") }
    }

    public static func isBlobHash(_ s: String) -> Bool {
        let u = s.utf8
        return u.count == 64 && u.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// An app message's URL: an http(s) URL or a bare query ("?a=1"), as MSMessage allows.
    public static func isMessageURL(_ s: String) -> Bool {
        if s.hasPrefix("?") { return true }
        let lower = s.lowercased()
        return (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && s.count > 8
            && !s.unicodeScalars.contains(where: { $0.value < 0x21 })
    }
}
