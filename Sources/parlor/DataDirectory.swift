import ArgumentParser
import Foundation
import GRDB
import Logging
import ParlorCore


/// How `parlor admin` hands a request to a running server: through the store.
protocol AdminQueue: ParlorStore {
    func queue(adminFrame: [UInt8], at: Int) throws -> Int
    func reply(toAdminCommand id: Int) throws -> [UInt8]?
}

extension SQLiteStore: AdminQueue {
    func queue(adminFrame: [UInt8], at: Int) throws -> Int { Int(try queueAdminCommand(adminFrame, at: at)) }
    func reply(toAdminCommand id: Int) throws -> [UInt8]? { try adminCommandReply(id: Int64(id)) }
}

extension PostgresStore: AdminQueue {
    func queue(adminFrame: [UInt8], at: Int) throws -> Int { try queueAdminCommand(adminFrame, at: at) }
    func reply(toAdminCommand id: Int) throws -> [UInt8]? { try adminCommandReply(id: id) }
}

/// Opens the data directory, or explains in one line why it cannot: a missing parent,
/// a directory this user cannot write, an empty or newer database. With a PostgreSQL
/// URL the database is there and the directory holds only the images.
enum DataDirectory {
    /// The exit status of a database of another version: the systemd unit does not
    /// restart on it (RestartPreventExitStatus), since no restart can help.
    static let wrongVersionExit: Int32 = 3

    /// The SQLite database of a data directory.
    static func database(_ path: String) -> String { path + "/parlor.sqlite" }

    /// `serving`: the server's own opening holds the directory's lock before it updates
    /// the database (a newer binary started by mistake beside a running older server
    /// updated its database, and the old server could never start again); `parlor
    /// admin` never updates it.
    static func open(_ path: String, store url: String?, log: Logger, serving: Bool,
                     storeTimeoutSeconds: Int = PostgresStore.defaultTimeoutSeconds) throws -> (any AdminQueue, BlobStore) {
        func fail(_ why: String, code: Int32 = 1) -> ExitCode {
            log.critical("cannot start: \(why)")
            return ExitCode(code)
        }
        if let error = makeDirectories(path) {
            throw fail("cannot create the data directory \(path): \(error)")
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw fail("the data directory \(path) is not writable by this user (uid \(getuid())): \(String(cString: strerror(errno)))")
        }
        if serving && url == nil && !lock(path) {
            throw fail("another parlor serve is using the data directory \(path)")
        }
        // Said before they run: on a large database some take seconds, with nothing served.
        let announce = { (pending: [String]) in
            log.notice("updating the database; a large one can take a while", metadata: [
                "migrations": "\(pending.joined(separator: ","))"])
        }
        let store: any AdminQueue
        do {
            store = try url.map { try PostgresStore(url: $0, migrate: serving, timeoutSeconds: storeTimeoutSeconds, announce: announce) }
                ?? SQLiteStore(path: database(path), migrate: serving, announce: announce)
            if let sqlite = store as? SQLiteStore, let upgrade = sqlite.upgrade, !upgrade.migrations.isEmpty {
                log.notice("database updated", metadata: [
                    "migrations": "\(upgrade.migrations.joined(separator: ","))",
                    "seconds": "\(String(format: "%.1f", upgrade.seconds))"])
            }
        } catch let e as StoreError {
            throw fail(e.description, code: e.wrongVersion ? Self.wrongVersionExit : 1)
        } catch let e as PGError {
            throw fail("cannot open the PostgreSQL store: \(e.logDescription)")
        } catch let e as DatabaseError {
            throw fail("cannot open \(database(path)): SQLite error \(e.extendedResultCode.rawValue): \(e.message ?? "")")
        }
        do {
            return (store, try BlobStore(directory: path + "/blobs", shared: url != nil))
        } catch {
            throw fail("cannot create \(path)/blobs: \(reason(error))")
        }
    }

    /// Holds `<data>/serve.lock` for as long as this process runs: one server per data
    /// directory, and `parlor admin` knows whether a server is running. False if
    /// another process holds it.
    static func lock(_ path: String) -> Bool {
        let fd = Glibc.open(path + "/serve.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }  // the descriptor stays open: the lock with it
        Glibc.close(fd)
        return false
    }

    /// mkdir -p with mode 0700; the system's reason on failure ("Read-only file system").
    private static func makeDirectories(_ path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST { return "\(prefix): \(String(cString: strerror(errno)))" }
        }
        return nil
    }

    private static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }
}
