import Foundation

/// Uploaded images, one file per SHA-256 under `<data>/blobs/`, named `<hash>.<type>`.
/// Content-addressed, so a file never changes once written and uploads deduplicate.
public struct BlobStore: Sendable {
    public let directory: String

    public init(directory: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Writes the blob durably (temp file, fsync, rename) and returns its hash.
    public func put(_ bytes: [UInt8], type: ImageType) throws -> String {
        let hash = Secrets.hex(Secrets.sha256(bytes))
        let final = "\(directory)/\(hash).\(type.rawValue)"
        if FileManager.default.fileExists(atPath: final) { return hash }
        let temp = "\(directory)/.\(hash).\(Secrets.hex(Secrets.randomBytes(4))).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var ok = bytes.withUnsafeBytes { buf -> Bool in
            var off = 0
            while off < buf.count {
                let n = Foundation.write(fd, buf.baseAddress! + off, buf.count - off)
                if n <= 0 { return false }
                off += n
            }
            return true
        }
        ok = ok && fsync(fd) == 0
        close(fd)
        guard ok, rename(temp, final) == 0 else {
            unlink(temp)
            throw POSIXError(.EIO)
        }
        return hash
    }

    /// The file and type of a stored blob, if there is one.
    public func find(_ hash: String) -> (path: String, type: ImageType)? {
        guard Validators.isBlobHash(hash) else { return nil }
        for t in ImageType.allCases {
            let p = "\(directory)/\(hash).\(t.rawValue)"
            if access(p, R_OK) == 0 { return (p, t) }
        }
        return nil
    }
}
