import Foundation

/// A thread whose name the system shows (`top -H`, `ps -L`, `perf --per-thread`):
/// Foundation's `Thread.name` stays inside Foundation on Linux, so every thread of the
/// server read "parlor" and an operator could not tell the engine from the checkpointer.
public func startNamedThread(_ name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    let t = Thread {
        nameThisThread(name)
        body()
    }
    t.name = name
    if let stackSize { t.stackSize = stackSize }
    t.start()
}

/// Through /proc (Glibc's `pthread_setname_np` is not visible to Swift); the kernel keeps
/// the first 15 bytes. Best effort: a thread without a name works the same.
private func nameThisThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY)
    guard fd >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}
