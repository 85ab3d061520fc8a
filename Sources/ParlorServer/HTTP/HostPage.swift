import Foundation
import ParlorCore

/// The host page as served: `index.html` with an import map that names each of the
/// client's scripts by its version (the file's ETag), every module preloaded, and its
/// stylesheet by version too. A versioned URL is kept by the browser for good
/// (`immutable`, see `StaticFiles.versioned`), so opening the page again asks for the
/// page alone. With `no-cache` alone each of the ~90 modules was revalidated, one import
/// level after another: 2 s to the welcome on a phone's 100 ms round trips, on every
/// load (docs/BENCHMARKS.md, session 36). A file replaced on disk (an upgrade, an edit)
/// gets a new version, which the next load of the page names.
///
/// Relative imports resolve to absolute URLs before the import map applies, so the
/// modules themselves stay as written; a browser without import maps loads the same
/// files unversioned, revalidated as before.
struct HostPage {
    /// The folders of `Public/` whose files are named by version, and the one page.
    static let versionedAreas = ["js", "sdk", "css"]
    static let page = "index.html"

    struct Built {
        let body: [UInt8]
        /// The page's own validator: a hash of what is served, which changes with any version in it.
        let tag: String
        /// The CSP source that lets the inline import map run (`'sha256-…'`).
        let mapSource: String
    }

    let root: String
    private var cached: (fingerprint: String, built: Built)?
    private var checked: (at: ContinuousClock.Instant, built: Built?)?
    /// How long a page built (or found unchanged) is served without looking at the
    /// files again: looking costs ~2.5 ms of the service thread (a walk of ~100 files),
    /// which a stream of page loads would otherwise pay each time.
    static let recheck = Duration.seconds(1)

    init(root: String) { self.root = root }

    /// The page with its versions, or nil when `index.html` has no module script to
    /// rewrite (then the file is served as it is). A file changed is seen within
    /// `recheck`; the page is rebuilt only then.
    mutating func current() -> Built? {
        let now = ContinuousClock.now
        if let checked, now - checked.at < Self.recheck { return checked.built }
        let built = look()
        checked = (now, built)
        return built
    }

    private mutating func look() -> Built? {
        guard let source = FileManager.default.contents(atPath: root + "/" + Self.page),
              let html = String(data: source, encoding: .utf8),
              let scriptAt = html.range(of: "<script type=\"module\"") else { return nil }
        let versions = versions()
        let fingerprint = versions.map { "\($0.path)=\($0.version)" }.joined(separator: "\n")
            + "\n" + String(source.count) + Secrets.hex(Array(Secrets.sha256(source).prefix(8)))
        if let cached, cached.fingerprint == fingerprint { return cached.built }

        var head = String(html[..<scriptAt.lowerBound])
        var rest = String(html[scriptAt.lowerBound...])
        for (path, version) in versions {
            for attribute in ["src=\"", "href=\""] {
                let plain = attribute + path + "\"", named = attribute + path + "?v=" + version + "\""
                head = head.replacingOccurrences(of: plain, with: named)
                rest = rest.replacingOccurrences(of: plain, with: named)
            }
        }
        let map = JSONWriter.object { w in
            w.key("imports")
            w.beginObject()
            for (path, version) in versions where path.hasSuffix(".js") {
                w.key(text: path)
                w.string(path + "?v=" + version)
            }
            w.endObject()
        }
        let mapText = String(decoding: map, as: UTF8.self)
        var inserted = "<script type=\"importmap\">" + mapText + "</script>\n"
        for (path, version) in versions where Self.preloads(path) {
            inserted += "  <link rel=\"modulepreload\" href=\"\(path)?v=\(version)\">\n"
        }
        let body = Array((head + inserted + "  " + rest).utf8)
        let built = Built(body: body,
                          tag: "\"" + Secrets.hex(Array(Secrets.sha256(body).prefix(12))) + "\"",
                          mapSource: "'sha256-" + Data(Secrets.sha256(Array(mapText.utf8))).base64EncodedString() + "'")
        cached = (fingerprint, built)
        return built
    }

    /// The client's own modules, all of which `main.js` imports; not the SDK's (an app's
    /// page loads those; the host page imports two, found at their import) nor the
    /// notifications' service worker (a classic script, registered by its plain URL).
    static func preloads(_ path: String) -> Bool {
        path.hasPrefix("/js/") && path.hasSuffix(".js") && !path.hasSuffix("-worker.js")
    }

    /// Every script and stylesheet of the versioned folders, with its current version,
    /// in path order.
    private func versions() -> [(path: String, version: String)] {
        var out: [(path: String, version: String)] = []
        for area in Self.versionedAreas {
            let folder = root + "/" + area
            guard let walk = FileManager.default.enumerator(atPath: folder) else { continue }
            while let relative = walk.nextObject() as? String {
                guard relative.hasSuffix(".js") || relative.hasSuffix(".css"),
                      !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                      let version = Self.version(of: folder + "/" + relative) else { continue }
                out.append(("/" + area + "/" + relative, version))
            }
        }
        return out.sorted { $0.path < $1.path }
    }

    /// A file's version: its ETag without the quotes (its change time and size).
    static func version(of file: String) -> String? {
        var info = stat()
        guard stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return String(EntityTag.of(size: Int(info.st_size), changed: info.st_mtim).dropFirst().dropLast())
    }
}
