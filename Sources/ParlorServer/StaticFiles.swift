import Foundation

/// Maps request paths to files under `Public/` and says how to serve each one.
struct StaticFiles {
    let root: String

    init(root: String) {
        self.root = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
    }

    static let mimeTypes: [String: String] = [
        "html": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "json": "application/json",
        "webmanifest": "application/manifest+json",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "ico": "image/x-icon",
        "txt": "text/plain; charset=utf-8",
        "woff2": "font/woff2",
        "wasm": "application/wasm",
    ]

    /// The host page may load only its own scripts and frame only this server's apps.
    static let hostPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
        + "connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    /// App frames run sandboxed (opaque origin) inside the host page only.
    static let appPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        + "img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'self'"

    /// The file for a request path, or nil if there is none (or it would leave the root).
    func resolve(_ path: String) -> (file: String, mime: String, headers: String)? {
        guard path.hasPrefix("/"), !path.contains("\0"), !path.contains("\\") else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !segments.contains(where: { $0 == ".." || $0 == "." || $0.hasPrefix(".") }) else { return nil }
        var file = root + "/" + segments.joined(separator: "/")
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDir) else { return nil }
        if isDir.boolValue { file += "/index.html" }
        // Symlinks inside Public/ must not lead outside it.
        let real = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
        guard real.hasPrefix(root + "/"), FileManager.default.isReadableFile(atPath: real) else { return nil }
        let ext = (real as NSString).pathExtension.lowercased()
        let mime = Self.mimeTypes[ext] ?? "application/octet-stream"
        return (real, mime, headers(for: path, ext: ext))
    }

    private func headers(for path: String, ext: String) -> String {
        var h = "X-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\n"
        let shared = path.hasPrefix("/apps/") || path.hasPrefix("/sdk/")
        if shared {
            // Sandboxed app frames have an opaque origin: their module loads are cross-origin.
            h += "Access-Control-Allow-Origin: *\r\n"
        }
        if ext == "html" || !path.contains(".") {
            let policy = path.hasPrefix("/apps/") ? Self.appPolicy : Self.hostPolicy
            h += "Content-Security-Policy: \(policy)\r\nReferrer-Policy: no-referrer\r\n"
        }
        return h
    }
}
