import Foundation
import Logging
import ParlorCore

/// Image files no row names: an upload is moved into the store before the engine
/// records it, so a crash (or a full disk refusing the record) between the two leaves
/// a file that nothing would ever collect. Found at start, before anything is served.
enum OrphanImages {
    /// `shared`: other nodes of a cluster use the directory and may be between the two
    /// steps right now, so only files an hour old are considered.
    static func collect(_ store: any ParlorStore, _ blobs: BlobStore, shared: Bool, log: Logger) {
        let files = blobs.files(changedBefore: shared ? Date().addingTimeInterval(-3600) : .distantFuture)
        var unknown: [String] = []
        do {
            // A transaction per thousand files: a large store's start stays responsive.
            for start in stride(from: 0, to: files.count, by: 1000) {
                let chunk = files[start..<min(start + 1000, files.count)]
                unknown += try store.write { tx in try chunk.filter { try !tx.blobIsKnown(hash: $0.hash) }.map(\.path) }
            }
        } catch {
            log.warning("images without a record not collected", metadata: ["error": "\(error)"])
            return
        }
        guard !unknown.isEmpty else { return }
        // Not one file known: more likely a database that is not this directory's (a new
        // one made where the old went missing) than every image lost its record.
        guard unknown.count < files.count else {
            log.warning("no image file has a record in this database: left alone (is it the right database?)",
                        metadata: ["files": "\(files.count)"])
            return
        }
        let deleted = unknown.filter { unlink($0) == 0 }.count
        log.notice("images without a record deleted", metadata: ["count": "\(deleted)"])
    }
}
