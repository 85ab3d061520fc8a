import Foundation

/// Makes a WAL-mode SQLite database's committed transactions durable: `fdatasync` of
/// its `-wal` file, opened by path each time (SQLite may replace the file; an open is
/// cheap next to the sync), and the directory synced once per WAL file, so a freshly
/// created WAL's name survives a power loss too.
final class WALSync: @unchecked Sendable {
    private let walPath: String
    private let directory: String
    private let lock = NSLock()
    private var directorySyncedFor: ino_t = 0

    init(databasePath: String) {
        walPath = databasePath + "-wal"
        directory = (databasePath as NSString).deletingLastPathComponent.isEmpty
            ? "." : (databasePath as NSString).deletingLastPathComponent
    }

    /// Several threads may sync at once (the kernel joins concurrent flushes); only the
    /// directory's sync is taken in turn.
    func sync() throws {
        let fd = open(walPath, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            // No WAL: nothing was written since SQLite last removed it (a checkpoint on
            // close), and what it held is in the database file, synced by SQLite.
            if errno == ENOENT { return }
            throw StoreError("cannot open \(walPath) to sync it: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        guard fdatasync(fd) == 0 else {
            throw StoreError("fdatasync of \(walPath) failed: \(String(cString: strerror(errno)))")
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return }
        lock.lock()
        defer { lock.unlock() }
        if st.st_ino != directorySyncedFor {
            let dfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard dfd >= 0 else { throw StoreError("cannot open \(directory) to sync it") }
            defer { close(dfd) }
            guard fsync(dfd) == 0 else { throw StoreError("fsync of \(directory) failed") }
            directorySyncedFor = st.st_ino
        }
    }
}
