import CLibWebSockets
import Foundation
import ParlorCore

/// `/health` tells the truth: 200 only if the data directory has room and the database
/// took a write just now (through the engine, the only writer; within the last second,
/// see HealthChecks); else 503 and why.
extension LWSServer {
    func checkHealth(_ wsi: OpaquePointer, _ id: UInt64) -> Int32 {
        if let problem = diskProblem() {
            respondHealth(wsi, id, problem: problem)
            return 0
        }
        switch healthChecks.ask(id, wsi) {
        case .fresh: respondHealth(wsi, id, problem: nil)
        case .check: engine?.submit(.health(id))
        case .queued: break
        }
        return 0
    }

    func healthDone(_ problem: String?) {
        for (id, wsi) in healthChecks.done(ok: problem == nil) {
            respondHealth(wsi, id, problem: problem)
        }
    }

    private func respondHealth(_ wsi: OpaquePointer, _ id: UInt64, problem: String?) {
        if healthChecks.isNews(problem), let problem { log.warning("health check failed", metadata: ["problem": "\(problem)"]) }
        respond(wsi, id, status: problem == nil ? 200 : 503, type: "application/json", body: JSONWriter.object { w in
            w.field("status", problem == nil ? "ok" : "failing")
            w.field("problem", problem)
        }, headers: [("cache-control:", "no-store")])
    }

    /// Less free space than `minFreeDiskBytes` where the database and images live, once
    /// `promised` bytes more are written there.
    public func diskProblem(promised: Int = 0) -> String? {
        var fs = statvfs()
        guard statvfs(blobs.directory, &fs) == 0 else { return "data directory: \(String(cString: strerror(errno)))" }
        let free = Int(fs.f_bavail) * Int(fs.f_frsize)
        guard free - promised < config.minFreeDiskBytes else { return nil }
        if free >= config.minFreeDiskBytes {
            return "data directory: \(free / 1024) KiB free, \(promised / 1024) KiB of it promised to uploads, under the \(config.minFreeDiskBytes / 1024) KiB kept in reserve"
        }
        return "data directory: \(free / 1024) KiB free, under the \(config.minFreeDiskBytes / 1024) KiB kept in reserve"
    }
}
