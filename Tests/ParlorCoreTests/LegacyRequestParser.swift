import Foundation
@testable import ParlorCore

// The request parser as it was before frames were scanned instead of parsed into a
// `JSONValue` tree (and `bodyJSON` as it was written): kept as the oracle the
// differential tests compare the fast path with, byte for byte and error for error.

enum LegacyRequestParser {
    static func parse<C: Collection>(_ bytes: C) -> (id: String?, result: Result<Request, ParlorError>)
    where C.Element == UInt8 {
        guard let (value, tooDeep) = try? JSONParser.parseMarkingDepth(bytes), case .object(let o) = value else {
            return (nil, .failure(ParlorError(.badJSON, "the frame is not a JSON object")))
        }
        var id: String?
        if case .string(let s)? = o["id"], Validators.fits(s, Limits.idChars) { id = s }
        if tooDeep {
            return (id, .failure(ParlorError(.badJSON, "JSON is nested deeper than \(JSONParser.maxDepth) levels")))
        }
        do {
            return (id, .success(try request(LegacyFields(o))))
        } catch {
            return (id, .failure(error))
        }
    }

    static func request(_ f: LegacyFields) throws(ParlorError) -> Request {
        guard case .string(let id)? = f.o["id"], !id.isEmpty, Validators.fits(id, Limits.idChars), !Validators.hasControl(id) else {
            throw .invalid("id", "must be a string of 1–64 characters, no control characters")
        }
        guard case .string(let type)? = f.o["type"] else {
            throw ParlorError(.unknownType, "the frame has no type")
        }
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
        case "conversations.join": return .join(invite: try f.identifier("invite", max: 128))
        case "invites.peek": return .peekInvite(invite: try f.identifier("invite", max: 128))
        case "subscribe":
            return .subscribe(conversationId: try f.id("conversationId"), afterSeq: try f.optionalInt("afterSeq", min: 0) ?? 0,
                              afterClientId: try f.optionalIdentifier("afterClientId", max: Limits.idChars))
        case "unsubscribe": return .unsubscribe(conversationId: try f.id("conversationId"))
        case "ping": return .ping
        case "send":
            guard case .object(let m)? = f.o["message"] else { throw .invalid("message") }
            return .send(
                conversationId: try f.id("conversationId"),
                clientId: try f.id("clientId"),
                content: try LegacyContentParser.parse(LegacyFields(m, prefix: "message."))
            )
        case "history":
            let conversationId = try f.id("conversationId")
            let beforeSeq = try f.optionalInt("beforeSeq", min: 1)
            let afterSeq = try f.optionalInt("afterSeq", min: 0)
            if beforeSeq != nil && afterSeq != nil { throw .invalid("afterSeq", "cannot be given with beforeSeq") }
            return .history(
                conversationId: conversationId, beforeSeq: beforeSeq, afterSeq: afterSeq,
                limit: try f.optionalInt("limit", min: 1, max: Limits.historyPage) ?? Limits.historyDefault
            )
        case "apps.install": return .installApp(appId: try f.appId("appId"))
        case "apps.uninstall": return .uninstallApp(appId: try f.appId("appId"))
        case "participants":
            return .participants(conversationId: try f.id("conversationId"), appId: try f.appId("appId"))
        case "members":
            guard case .array(let list)? = f.o["userIds"], list.count <= Limits.listedMembers else {
                throw .invalid("userIds", "must be a list of at most \(Limits.listedMembers) user ids")
            }
            let ids = list.compactMap { v -> String? in
                if case .string(let s) = v, Validators.fits(s, Limits.idChars), !Validators.hasControl(s) { s } else { nil }
            }
            guard ids.count == list.count else { throw .invalid("userIds", "must hold user ids") }
            return .members(conversationId: try f.id("conversationId"), userIds: ids)
        case "appdata.get": return .getAppData(appId: try f.appId("appId"))
        case "appdata.set":
            guard let value = f.o["value"] else { throw .invalid("value", "is missing (null removes the key)") }
            return .setAppData(appId: try f.appId("appId"), key: try f.identifier("key", max: Limits.appDataKeyChars),
                               value: value == .null ? nil : value)
        case "playing":
            guard let on = try f.optionalBool("playing") else { throw .invalid("playing") }
            return .playing(conversationId: try f.id("conversationId"), sessionId: try f.id("sessionId"), playing: on)
        default:
            if let a = try LegacyAdmin.parse(type, f) { return .admin(a) }
            throw ParlorError(.unknownType, "unknown frame type")
        }
    }
}

/// Typed access to a JSON object's fields, naming the field in every error.
struct LegacyFields {
    let o: JSONObject
    var prefix = ""

    init(_ o: JSONObject, prefix: String = "") {
        self.o = o
        self.prefix = prefix
    }

    func optionalString(_ k: String, max: Int) throws(ParlorError) -> String? {
        switch o[k] {
        case nil, .null?: return nil
        case .string(let s)?:
            guard Validators.fits(s, max) else { throw .tooLong(prefix + k, max: max) }
            return s
        default: throw .invalid(prefix + k)
        }
    }

    func string(_ k: String, max: Int) throws(ParlorError) -> String {
        guard let s = try optionalString(k, max: max), !s.isEmpty else { throw .invalid(prefix + k) }
        return s
    }

    /// A display name or title: trimmed, non-empty, no control characters.
    func trimmed(_ k: String, max: Int) throws(ParlorError) -> String {
        let raw = try string(k, max: max * 4)
        // names and titles show as what they are (session 18): the same rule as the parser's
        let s = Validators.visible(raw).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !s.isEmpty else { throw .invalid(prefix + k, "is empty") }
        guard Validators.fits(s, max) else { throw .tooLong(prefix + k, max: max) }
        guard !Validators.hasControl(s) else {
            throw .invalid(prefix + k, "contains control characters")
        }
        guard !Validators.looksBlank(s) else { throw .invalid(prefix + k, "is empty") }
        return s
    }

    func name(_ k: String) throws(ParlorError) -> String { try trimmed(k, max: Limits.nameChars) }

    /// A caption, summary or file name: line breaks and tabs but no other control.
    func shownLine(_ k: String) throws(ParlorError) -> String? {
        guard let s = try optionalString(k, max: Limits.layoutFieldChars) else { return nil }
        guard !Validators.hasControl(s, inText: true) else {
            throw .invalid(prefix + k, "contains control characters")
        }
        return s
    }

    func id(_ k: String) throws(ParlorError) -> String { try identifier(k, max: Limits.idChars) }

    /// An id, key, token or code: SQLite reads text back only up to a NUL, so "a\0b" and
    /// "a\0c" would be one key; no control character has a place in one.
    func identifier(_ k: String, max: Int) throws(ParlorError) -> String {
        let s = try string(k, max: max)
        guard !Validators.hasControl(s) else { throw .invalid(prefix + k, "contains control characters") }
        return s
    }

    func optionalIdentifier(_ k: String, max: Int) throws(ParlorError) -> String? {
        guard o[k] != nil, o[k] != .null else { return nil }
        return try identifier(k, max: max)
    }

    /// A first frame's optional `deviceName`, as the account's device list shows it.
    func deviceName() throws(ParlorError) -> String? {
        guard o["deviceName"] != nil, o["deviceName"] != .null else { return nil }
        return try name("deviceName")
    }

    func appId(_ k: String) throws(ParlorError) -> String {
        let s = try string(k, max: Limits.idChars)
        guard Validators.isAppId(s) else { throw .invalid(prefix + k, "must be lowercase letters, digits and dashes") }
        return s
    }

    func blobHash(_ k: String) throws(ParlorError) -> String {
        let s = try string(k, max: 64)
        guard Validators.isBlobHash(s) else { throw .invalid(prefix + k, "must be a blob's SHA-256 hash") }
        return s
    }

    func optionalInt(_ k: String, min: Int = .min, max: Int = .max) throws(ParlorError) -> Int? {
        switch o[k] {
        case nil, .null?: return nil
        case .number(let d)?:
            guard d == d.rounded(), d >= Double(min), d <= Double(max), abs(d) < 9e15 else {
                throw .invalid(prefix + k, "is out of range")
            }
            return Int(d)
        default: throw .invalid(prefix + k)
        }
    }

    func double(_ k: String, in range: ClosedRange<Double>) throws(ParlorError) -> Double {
        guard case .number(let d)? = o[k], range.contains(d) else { throw .invalid(prefix + k, "is out of range") }
        return d
    }

    func optionalBool(_ k: String) throws(ParlorError) -> Bool? {
        switch o[k] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        default: throw .invalid(prefix + k)
        }
    }

    func object(_ k: String) throws(ParlorError) -> LegacyFields? {
        switch o[k] {
        case nil, .null?: return nil
        case .object(let m)?: return LegacyFields(m, prefix: prefix + k + ".")
        default: throw .invalid(prefix + k)
        }
    }
}


/// Validates a `send` frame's `message` object into `MessageContent`.
enum LegacyContentParser {
    static func parse(_ m: LegacyFields) throws(ParlorError) -> MessageContent {
        guard case .string(let kind)? = m.o["kind"] else { throw .invalid("message.kind") }
        switch kind {
        case "text":
            let text = try m.string("text", max: Limits.textChars)
            guard text.utf8.count <= Limits.textBytes else {
                throw ParlorError(.tooLong, "message.text is longer than \(Limits.textBytes) bytes of UTF-8",
                                  field: "message.text")
            }
            try ContentParser.checkText(text)
            return .text(text, replyTo: try m.optionalInt("replyTo", min: 1))
        case "app":
            return .app(try app(m))
        case "sticker":
            var stuck: StuckTo?
            if let s = try m.object("stuckTo") {
                guard let seq = try s.optionalInt("seq", min: 1) else { throw .invalid("message.stuckTo.seq") }
                stuck = StuckTo(seq: seq, x: try s.double("x", in: 0...1), y: try s.double("y", in: 0...1))
            }
            let replyTo = try m.optionalInt("replyTo", min: 1)
            if stuck != nil, replyTo != nil {
                throw .invalid("message.replyTo", "a sticker stuck on a bubble replies to nothing")
            }
            return .sticker(Sticker(
                image: try m.blobHash("image"),
                description: try m.shownLine("description"),
                stuckTo: stuck, replyTo: replyTo))
        case "attachment":
            return .attachment(
                image: try m.blobHash("image"),
                name: try m.shownLine("name"),
                replyTo: try m.optionalInt("replyTo", min: 1))
        case "audio":
            guard let ms = try m.optionalInt("durationMs", min: 1, max: Limits.audioMs) else {
                throw .invalid("message.durationMs")
            }
            return .audio(audio: try m.blobHash("audio"), durationMs: ms, replyTo: try m.optionalInt("replyTo", min: 1))
        case "reaction":
            guard let to = try m.optionalInt("to", min: 1) else { throw .invalid("message.to") }
            guard let sent = try? m.optionalString("emoji", max: 8), let emoji = Reaction.normalised(sent) else {
                throw .invalid("message.emoji", Reaction.refusal)
            }
            return .reaction(to: to, emoji: emoji)
        default:
            throw .invalid("message.kind", "must be text, app, sticker, attachment, audio or reaction")
        }
    }

    private static func app(_ m: LegacyFields) throws(ParlorError) -> AppContent {
        let url = try m.string("url", max: Limits.urlChars)
        guard Validators.isMessageURL(url) else {
            throw .invalid("message.url", "must be an http(s) URL or a ?query")
        }
        var layout = TemplateLayout()
        if let l = try m.object("layout") {
            if l.o["image"] != nil, l.o["image"] != .null { layout.image = try l.blobHash("image") }
            for f in TemplateLayout.textFields {
                if let s = try l.shownLine(f) { layout.texts[f] = s }
            }
        }
        var session: SessionRef?
        if let s = try m.object("session") {
            session = SessionRef(
                id: try s.string("id", max: Limits.idChars),
                baseVersion: try s.optionalInt("baseVersion", min: 0) ?? 0)
        }
        return AppContent(
            appId: try m.appId("appId"),
            url: url,
            layout: layout,
            summaryText: try m.shownLine("summaryText"),
            session: session,
            live: try m.optionalBool("live") ?? false)
    }
}

enum LegacyAdmin {
    static func parse(_ type: String, _ f: LegacyFields) throws(ParlorError) -> AdminRequest? {
        switch type {
        case "admin.users.list":
            return .listUsers(after: try f.optionalIdentifier("after", max: Limits.idChars),
                              limit: try f.optionalInt("limit", min: 1, max: Limits.listedUsers) ?? Limits.listedUsers)
        case "admin.users.setAdmin":
            guard let admin = try f.optionalBool("admin") else { throw .invalid("admin") }
            return .setAdmin(userId: try f.id("userId"), admin: admin)
        case "admin.users.deactivate": return .deactivateUser(userId: try f.id("userId"))
        case "admin.registrationLinks.create":
            return .createRegistrationLink(
                maxUses: try f.optionalInt("maxUses", min: 1, max: Limits.inviteUses),
                expiresInSeconds: try f.optionalInt("expiresInSeconds", min: 1, max: Limits.inviteSeconds))
        case "admin.invites.list":
            return .listInvites(conversationId: try f.optionalIdentifier("conversationId", max: Limits.idChars))
        case "admin.invites.revoke": return .revokeInvite(inviteId: try f.id("inviteId"))
        case "admin.messages.delete":
            guard let seq = try f.optionalInt("seq", min: 1) else { throw .invalid("seq") }
            return .deleteMessage(conversationId: try f.id("conversationId"), seq: seq)
        case "admin.images.delete": return .deleteImage(hash: try f.blobHash("hash"))
        default: return nil
        }
    }
}

extension MessageContent {
    /// The stored body as it was written before the scanner.
    var legacyBodyJSON: [UInt8] {
        JSONWriter.object { w in
            w.field("kind", kind)
            switch self {
            case .text(let t, let r, _):
                w.field("text", t)
                if let r { w.field("replyTo", r) }
            case .app(let a):
                w.field("appId", a.appId)
                w.field("url", a.url)
                if !a.layout.isEmpty {
                    w.key("layout")
                    w.beginObject()
                    w.field("image", a.layout.image)
                    for f in TemplateLayout.textFields { if let t = a.layout.texts[f] { w.key(text: f); w.string(t) } }
                    w.endObject()
                }
                w.field("summaryText", a.summaryText)
                w.field("live", a.live)
            case .sticker(let s):
                w.field("image", s.image)
                w.field("description", s.description)
                if let t = s.stuckTo {
                    w.key("stuckTo")
                    w.beginObject()
                    w.field("seq", t.seq)
                    w.key("x"); w.double(t.x)
                    w.key("y"); w.double(t.y)
                    w.endObject()
                }
                if let r = s.replyTo { w.field("replyTo", r) }
            case .attachment(let image, let name, let r, _):
                w.field("image", image)
                w.field("name", name)
                if let r { w.field("replyTo", r) }
            case .audio(let audio, let ms, let r):
                w.field("audio", audio)
                w.field("durationMs", ms)
                if let r { w.field("replyTo", r) }
            case .reaction(let to, let emoji):
                w.field("to", to)
                w.field("emoji", emoji)
            }
        }
    }

}
