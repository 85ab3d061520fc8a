import Foundation

/// Uploaded images and voice recordings, one file per SHA-256 under `<data>/blobs/`,
/// named `<hash>.<type>` (BlobType's extension).
/// Content-addressed, so a file never changes once written and uploads deduplicate.
public struct BlobStore: Sendable {
    public let directory: String

    /// `shared`: other nodes of a cluster use the directory too, and may be writing
    /// their uploads' temporary files right now.
    public init(directory: String, shared: Bool = false) throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        // Uploads cut off by a crash or a kill leave their temporary files behind.
        let hourAgo = Date().addingTimeInterval(-3600)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let path = "\(directory)/\(name)"
            if shared, let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
               modified > hourAgo { continue }
            unlink(path)
        }
    }

    /// Why an upload was not stored: an HTTP status, a stable code and a message.
    public struct Refusal: Error, Sendable {
        public let status: Int
        public let code: String
        public let message: String
    }

    /// A new, empty temporary file (mode 0600) for an upload's body to stream into.
    public func makeTemporary() -> (fd: Int32, path: String)? {
        let path = "\(directory)/.upload-\(Secrets.hex(Secrets.randomBytes(8))).tmp"
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        return fd >= 0 ? (fd, path) : nil
    }

    /// Checks an uploaded file, takes its metadata out (ImageMetadata) and moves it into
    /// the store under its hash, durably (fsync the file, rename, fsync the directory).
    /// The temporary file is gone after.
    public func commit(temporary path: String) throws(Refusal) -> (hash: String, type: BlobType, size: Int) {
        defer { unlink(path) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Refusal(status: 500, code: "internal", message: "the server could not read the upload")
        }
        let bytes = [UInt8](data)
        guard bytes.count <= Limits.blobBytes else {
            throw Refusal(status: 413, code: "too_large", message: "images are limited to 5 MiB")
        }
        let type: BlobType
        let clean: [UInt8]
        switch BlobType.detect(bytes) {
        case .image(let t)?:
            (type, clean) = (.image(t), try Self.checkedImage(bytes, t))
        case .audio(let t)?:
            // stored as recorded: a browser's recorder writes no place, person or device
            guard bytes.count <= Limits.audioBytes else {
                throw Refusal(status: 413, code: "too_large", message: "voice messages are limited to 2 MiB")
            }
            try Self.checkSoundOnly(bytes, t)
            (type, clean) = (.audio(t), bytes)
        case nil:
            throw Refusal(status: 415, code: "not_an_image",
                          message: "only PNG, JPEG, GIF and WebP images and WebM or MP4 voice recordings are accepted")
        }
        let hash = Secrets.hex(Secrets.sha256(clean))
        let final = "\(directory)/\(hash).\(type.fileExtension)"
        if access(final, F_OK) == 0 { return (hash, type, clean.count) }
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        let rewritten = clean == bytes || (fd >= 0 && ftruncate(fd, 0) == 0
            && clean.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == clean.count)
        let synced = fd >= 0 && rewritten && fsync(fd) == 0
        if fd >= 0 { close(fd) }
        guard synced, rename(path, final) == 0 else {
            throw Refusal(status: 500, code: "internal", message: "the server could not store the image")
        }
        let dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 { fsync(dir); close(dir) }
        return (hash, type, clean.count)
    }

    /// An image within its bounds, without its metadata (ImageMetadata).
    private static func checkedImage(_ bytes: [UInt8], _ type: ImageType) throws(Refusal) -> [UInt8] {
        guard let size = ImageSize.read(bytes, type: type) else {
            throw Refusal(status: 415, code: "not_an_image", message: "the image's header is damaged")
        }
        guard size.width > 0, size.height > 0, size.width <= Limits.imageSide, size.height <= Limits.imageSide,
              size.width * size.height <= Limits.imagePixels else {
            throw Refusal(status: 413, code: "image_too_large",
                          message: "images are limited to \(Limits.imageSide) pixels a side and \(Limits.imagePixels / 1_000_000) megapixels")
        }
        guard let clean = ImageMetadata.stripped(bytes, type: type) else {
            throw Refusal(status: 415, code: "not_an_image", message: "the image's structure is damaged")
        }
        return clean
    }

    /// A recording that is sound only: a video would be stored and served as audio.
    private static func checkSoundOnly(_ bytes: [UInt8], _ type: AudioType) throws(Refusal) {
        let message = switch AudioTracks.read(bytes, type: type) {
        case .audioOnly: nil as String?
        case .other: "a voice recording must be sound only; this file holds video or another kind of track"
        case .noAudio: "this recording holds no sound track"
        case .unreadable: "the recording's track list was not found or is damaged"
        }
        if let message { throw Refusal(status: 415, code: "not_an_image", message: message) }
    }

    /// The stored files last changed before `before`, by hash.
    public func files(changedBefore before: Date) -> [(hash: String, path: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { name in
            guard let dot = name.firstIndex(of: "."), case let hash = String(name[..<dot]), Validators.isBlobHash(hash),
                  BlobType(fileExtension: String(name[name.index(after: dot)...])) != nil else { return nil }
            let path = "\(directory)/\(name)"
            // every file, without a stat each, when no age is asked (one server owns the directory)
            if before == .distantFuture { return (hash, path) }
            guard let changed = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                  changed < before else { return nil }
            return (hash, path)
        }
    }

    /// Deletes a stored blob's file (from then on it is a 404).
    public func remove(_ hash: String) {
        guard let (path, _) = find(hash) else { return }
        unlink(path)
    }

    /// A stored image's width and height as it is drawn (a JPEG turned a quarter by its
    /// orientation has them swapped), from the start of its file (`find`'s): nil when
    /// the header is not within the first 64 KiB (the metadata before it was taken out
    /// at upload).
    public func imageSize(path: String, type t: ImageType) -> ImageSize? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 64 * 1024)
        let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        head.removeSubrange(n...)
        guard let size = ImageSize.read(head, type: t) else { return nil }
        if t == .jpeg, let o = ImageMetadata.jpegOrientation(head), o >= 5 {
            return ImageSize(width: size.height, height: size.width)
        }
        return size
    }

    /// The file and type of a stored blob, if there is one.
    public func find(_ hash: String) -> (path: String, type: BlobType)? {
        guard Validators.isBlobHash(hash) else { return nil }
        for t in BlobType.allCases {
            let p = "\(directory)/\(hash).\(t.fileExtension)"
            if access(p, R_OK) == 0 { return (p, t) }
        }
        return nil
    }
}
