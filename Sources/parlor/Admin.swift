import ArgumentParser
import Foundation
import Logging
import ParlorCore

/// `parlor admin …`: the admin requests of docs/PROTOCOL.md from the shell, on a data
/// directory. With no server running the request runs here; with one running it is
/// queued in the database and the server runs it within a second (so its effects are
/// live: a deactivated user's connections close, a deleted message turns into a
/// tombstone for everyone). Prints the answer as JSON.
struct Admin: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Administer a Parlor server's data directory (users, invites, messages, images, reports).",
        subcommands: [Users.self, Grant.self, Ungrant.self, Deactivate.self, Reactivate.self, DeleteUser.self, RegistrationLink.self, Invites.self,
                      RevokeInvite.self, DeleteMessage.self, DeleteImage.self, Reports.self, ResolveReport.self])

    struct Options: ParsableArguments {
        @Option(help: "The data directory (default ./data, or PARLOR_DATA).") var data: String?
        @Option(help: "The cluster's PostgreSQL URL, as given to serve (or PARLOR_STORE); a node runs the request.")
        var store: String?
    }

    struct Users: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List users (500 at a time).")
        @OptionGroup var options: Options
        @Option(help: "List the users after this id.") var after: String?
        func run() throws { try send(options, ["type": "admin.users.list", "after": after]) }
    }

    struct Grant: UserRequest {
        static let configuration = CommandConfiguration(abstract: "Make a user an admin.")
        @OptionGroup var options: Options
        @Argument var userId: String
        static var request: [String: Any] { ["type": "admin.users.setAdmin", "admin": true] }
    }

    struct Ungrant: UserRequest {
        static let configuration = CommandConfiguration(abstract: "Make an admin an ordinary user.")
        @OptionGroup var options: Options
        @Argument var userId: String
        static var request: [String: Any] { ["type": "admin.users.setAdmin", "admin": false] }
    }

    struct Deactivate: UserRequest {
        static let configuration = CommandConfiguration(
            abstract: "Deactivate a user: revoke every device, the recovery key and their invites, close their connections.")
        @OptionGroup var options: Options
        @Argument var userId: String
        static var request: [String: Any] { ["type": "admin.users.deactivate"] }
    }

    struct DeleteUser: UserRequest {
        static let configuration = CommandConfiguration(
            commandName: "delete-user",
            abstract: "Delete an account for its person (who asked to be removed): their name leaves every conversation; what they sent stays, under \"Deleted account\".")
        @OptionGroup var options: Options
        @Argument var userId: String
        static var request: [String: Any] { ["type": "admin.users.delete"] }
    }

    struct Reactivate: UserRequest {
        static let configuration = CommandConfiguration(
            abstract: "Let a deactivated user sign in again: prints a one-time code for their new device.")
        @OptionGroup var options: Options
        @Argument var userId: String
        static var request: [String: Any] { ["type": "admin.users.reactivate"] }
    }

    struct RegistrationLink: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "registration-link", abstract: "Create a registration link's code (see --registration).")
        @OptionGroup var options: Options
        @Option(help: "Accounts it may create (default: any number).") var maxUses: Int?
        @Option(help: "Hours it lasts (default and at most: --invite-days).") var hours: Int?
        func validate() throws {
            // said in the flags' own terms (the request's field would be expiresInSeconds)
            if let hours, !(1...Limits.inviteSeconds / 3600).contains(hours) {
                throw ValidationError("--hours must be 1–\(Limits.inviteSeconds / 3600); a link lasts at most the server's --invite-days")
            }
            if let maxUses, !(1...Limits.inviteUses).contains(maxUses) {
                throw ValidationError("--max-uses must be 1–\(Limits.inviteUses)")
            }
        }
        func run() throws {
            try send(options, ["type": "admin.registrationLinks.create", "maxUses": maxUses,
                               "expiresInSeconds": hours.map { $0 * 3600 }])
        }
    }

    struct Invites: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List usable invites and registration links.")
        @OptionGroup var options: Options
        @Option(help: "Only this conversation's.") var conversation: String?
        func run() throws { try send(options, ["type": "admin.invites.list", "conversationId": conversation]) }
    }

    struct RevokeInvite: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke-invite", abstract: "Revoke an invite or registration link by id.")
        @OptionGroup var options: Options
        @Argument var inviteId: String
        func run() throws { try send(options, ["type": "admin.invites.revoke", "inviteId": inviteId]) }
    }

    struct DeleteMessage: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete-message", abstract: "Delete a message (it becomes a tombstone).")
        @OptionGroup var options: Options
        @Argument var conversationId: String
        @Argument var seq: Int
        func run() throws {
            try send(options, ["type": "admin.messages.delete", "conversationId": conversationId, "seq": seq])
        }
    }

    struct DeleteImage: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete-image", abstract: "Delete an image and every message that shows it.")
        @OptionGroup var options: Options
        @Argument var hash: String
        func run() throws { try send(options, ["type": "admin.images.delete", "hash": hash]) }
    }

    struct Reports: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List open reports of messages, newest first (100 at a time).")
        @OptionGroup var options: Options
        @Option(help: "List the reports after this id (the answer's next).") var after: String?
        func run() throws { try send(options, ["type": "admin.reports.list", "after": after]) }
    }

    struct ResolveReport: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resolve-report",
            abstract: "Resolve a report, and every other open report of the same message (their copies are dropped).")
        @OptionGroup var options: Options
        @Argument var reportId: String
        func run() throws { try send(options, ["type": "admin.reports.resolve", "reportId": reportId]) }
    }
}

/// Runs one admin frame on the data directory and prints the answer; exit 1 on an error.
/// A subcommand about one user, named by its id: its request's fields say the rest.
private protocol UserRequest: ParsableCommand {
    var options: Admin.Options { get }
    var userId: String { get }
    static var request: [String: Any] { get }
}

extension UserRequest {
    func run() throws { try send(options, Self.request.merging(["userId": userId]) { $1 }) }
}

private func send(_ options: Admin.Options, _ fields: [String: Any?]) throws {
    LoggingSystem.bootstrap { _ in LineLogHandler(logLevel: .warning) }
    let log = Logger(label: "parlor-admin")
    let data = options.data ?? ProcessInfo.processInfo.environment["PARLOR_DATA"] ?? "./data"
    var object: [String: Any] = ["id": "admin"]
    for (k, v) in fields { if let v { object[k] = v } }
    let frame = [UInt8](try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    let storeURL = options.store ?? ProcessInfo.processInfo.environment["PARLOR_STORE"]
    // A mistyped --data (or one forgotten, run from another directory) would make a
    // new, empty server here and answer as if it were the real one.
    if storeURL == nil && !FileManager.default.fileExists(atPath: DataDirectory.database(data)) {
        log.critical("no Parlor database at \(DataDirectory.database(data)): give the server's data directory with --data (or PARLOR_DATA)")
        throw ExitCode(2)
    }
    let (store, blobs) = try DataDirectory.open(data, store: storeURL, log: log, serving: false)
    let reply: [UInt8]
    // A cluster's nodes would not see what ran here (closing a deactivated user's
    // connections, a tombstone for everyone): with PostgreSQL a node always runs it.
    if storeURL == nil && DataDirectory.lock(data) {
        let engine = Engine(store: store, apps: AppCatalog(publicDirectory: "/nonexistent"), blobs: blobs, logger: log)
        reply = try engine.runAdminCommand(frame)
        try store.syncCommitted()  // what it prints as done is on disk
    } else {
        let id = try store.queue(adminFrame: frame, at: Int(Date().timeIntervalSince1970 * 1000))
        let deadline = Date().addingTimeInterval(15)
        var answer: [UInt8]?
        while answer == nil && Date() < deadline {
            usleep(100_000)
            answer = try store.reply(toAdminCommand: id)
        }
        guard let answer else {
            log.critical(storeURL == nil
                ? "the running server did not answer within 15 s; it will still run the request when it can"
                : "no node of the cluster answered within 15 s (is one running on this database?); the first to start will run the request")
            throw ExitCode(2)
        }
        reply = answer
        try store.syncCommitted()  // the server's answer is readable once committed, durable once synced
    }
    print(String(decoding: reply, as: UTF8.self))
    let answer = try? JSONParser.parse(reply)
    if answer?["type"] == .string("error") { throw ExitCode(1) }
    // the web client takes a registration code in its address: say which (stdout stays the JSON)
    if fields["type"] as? String == "admin.registrationLinks.create",
       case .string(let code)? = answer?["result"]?["invite"] {
        FileHandle.standardError.write(Data("The person opens https://<your server>/#/register/\(code) to make an account.\n".utf8))
    }
}
