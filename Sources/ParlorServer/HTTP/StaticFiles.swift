import Foundation

/// Maps request paths to files under `Public/` and says how to serve each one.
struct StaticFiles {
    let root: String

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

    /// The host page may load only its own scripts and frame only this server's apps
    /// (or the apps origin, when they are served from one).
    let hostPolicy: String
    /// App pages are sandboxed by their own response, not only by the iframe attribute:
    /// opened top-level (a link to /apps/x/index.html) an app is still an opaque origin,
    /// with no access to the host's storage and no Origin the WebSocket accepts.
    let appPolicy: String
    /// Everything else under /apps/ (SVG above all) is inert if opened as a document.
    static let appFilePolicy = "default-src 'none'; sandbox"

    init(root: String, appsOrigin: String? = nil, hostOrigins: [String] = []) {
        self.root = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
        let frames = appsOrigin.map { "'self' \($0)" } ?? "'self'"
        hostPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
            // blob: plays one's own voice message back before its recording is uploaded
            + "media-src 'self' blob:; connect-src 'self'; frame-src \(frames); object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
        // Served from a separate origin, the apps' ancestors are the host's origins.
        let ancestors = appsOrigin == nil ? "'self'" : (["'self'"] + hostOrigins).joined(separator: " ")
        appPolicy = "sandbox allow-scripts; default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data: blob:; connect-src 'self'; form-action 'none'; base-uri 'none'; "
            + "frame-ancestors \(ancestors)"
    }

    typealias Resolved = (file: String, mime: String, headers: String, area: String)

    /// The file for a request path, or nil if there is none (or it would leave the root).
    /// `area` is the top folder under Public/ the file is in ("apps", "sdk", …).
    func resolve(_ path: String, host: String? = nil) -> Resolved? {
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
        // Where the file really is decides its policy, however the path was spelled.
        let area = real.dropFirst(root.count + 1).split(separator: "/").first.map(String.init) ?? ""
        return (real, mime, headers(area: area, ext: ext, host: host), area)
    }

    private func headers(area: String, ext: String, host: String?) -> String {
        var h = "X-Content-Type-Options: nosniff\r\n" + Self.revalidated
        if area == "apps" || area == "sdk" {
            // Sandboxed app frames have an opaque origin: their module loads are cross-origin.
            h += "Access-Control-Allow-Origin: *\r\n"
        }
        if area == "apps" {
            let policy = ext == "html" ? Self.naming(host, in: appPolicy) : Self.appFilePolicy
            h += "Content-Security-Policy: \(policy)\r\nReferrer-Policy: no-referrer\r\n"
        } else if ext == "html" {
            h += "Content-Security-Policy: \(hostPolicy)\r\nReferrer-Policy: no-referrer\r\n"
        }
        if ext == "html" { h += area == "apps" ? Self.permissionsPolicy : Self.hostPermissionsPolicy }
        return h
    }

    /// A script or stylesheet asked for by the version a page named (`?v=`, see
    /// VersionedPages): the browser keeps it for good, since a new version has a new URL.
    static func versioned(_ headers: String) -> String {
        headers.replacingOccurrences(of: revalidated, with: "Cache-Control: public, max-age=31536000, immutable\r\n")
    }

    private static let revalidated = "Cache-Control: no-cache\r\n"

    /// A built page's headers as pairs (it is not sent as a file), its policy letting
    /// its one inline script, the import map, run by its hash.
    func pageHeaders(area: String, mapSource: String, host: String? = nil) -> [(String, String)] {
        let raw = headers(area: area, ext: "html", host: host)
            .replacingOccurrences(of: "script-src 'self'", with: "script-src 'self' \(mapSource)")
        // `respond` adds nosniff to every answer itself
        return Self.pairs(raw).filter { $0.0 != "x-content-type-options:" }
    }

    /// An app page's policy naming its server by address wherever it says 'self'. WebKit
    /// (Safari, and every browser on an iPhone) lets 'self' match nothing in a sandboxed
    /// document, whose origin is opaque: there an app's own scripts, styles and images
    /// were refused, and no app started. The address is the request's Host, both schemes
    /// (behind a proxy the server cannot tell which one the browser used); a Host that is
    /// not a plain host[:port] names nothing, and 'self' alone is left.
    /// (Not in frame-ancestors: who may frame an app is the host's origins, as it was.)
    static func naming(_ host: String?, in policy: String) -> String {
        guard let host, isPlainHost(host) else { return policy }
        return policy.split(separator: ";", omittingEmptySubsequences: false).map { directive in
            directive.trimmingCharacters(in: .whitespaces).hasPrefix("frame-ancestors") ? String(directive)
                : directive.replacingOccurrences(of: "'self'", with: "'self' http://\(host) https://\(host)")
        }.joined(separator: ";")
    }

    /// A DNS name or an IPv4 or bracketed IPv6 address, with an optional port: nothing
    /// that could end a header or add a source to a policy.
    static func isPlainHost(_ host: String) -> Bool {
        guard !host.isEmpty, host.utf8.count <= 261 else { return false }
        var name = Substring(host)
        var port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            name = host[...close]
            let rest = host[host.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { return false }
                port = rest.dropFirst()
            }
            let address = name.dropFirst().dropLast()
            guard !address.isEmpty, address.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }) else { return false }
        } else {
            if let colon = host.firstIndex(of: ":") {
                name = host[..<colon]
                port = host[host.index(after: colon)...]
            }
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else { return false }
        }
        guard let port else { return true }
        return (1...5).contains(port.count) && port.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Header lines ("Name: value\r\n…") as `respond` takes them: ("name:", "value").
    static func pairs(_ raw: String) -> [(String, String)] {
        raw.split(separator: "\r\n").compactMap { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return (parts[0].lowercased() + ":", parts[1].trimmingCharacters(in: .whitespaces))
        }
    }

    /// Apps use no device: a script that got into an app's page cannot even ask for the
    /// camera, microphone or location.
    static let permissionsPolicy = "Permissions-Policy: camera=(), microphone=(), geolocation=(), display-capture=(), "
        + "payment=(), usb=(), serial=(), hid=(), midi=()\r\n"
    /// The host page records voice messages, itself only: no frame of it (an app's, of an
    /// opaque origin, or another origin's) is given the microphone.
    static let hostPermissionsPolicy = permissionsPolicy.replacingOccurrences(of: "microphone=()", with: "microphone=(self)")
}
