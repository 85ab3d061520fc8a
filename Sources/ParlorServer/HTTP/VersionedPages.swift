import Foundation
import ParlorCore

/// The host page and the apps' pages as served: each HTML page with an import map that
/// names the scripts it may load by their versions (a file's ETag), each of them
/// preloaded, and its own `src`/`href` to them by version too. A versioned URL is kept
/// by the browser for good (`immutable`, see `StaticFiles.versioned`), so opening the
/// page again asks for the page alone. With `no-cache` alone each module was
/// revalidated, one import level after another: the host page took 2 s to its welcome
/// on a phone's 100 ms round trips on every load, an app 1 s to open (docs/BENCHMARKS.md,
/// session 36). A file replaced on disk (an upgrade, an edit) gets a new version, which
/// the next load of the page names.
///
/// Relative imports resolve to absolute URLs before the import map applies, so the
/// scripts stay as written; a browser without import maps loads the same files
/// unversioned, revalidated as before.
struct VersionedPages {
    /// The folders of `Public/` whose files may be named by version.
    static let versionedAreas: Set<String> = ["js", "sdk", "css", "apps"]

    struct Built {
        let body: [UInt8]
        /// The page's own validator: a hash of what is served, which changes with any version in it.
        let tag: String
        /// The CSP source that lets the inline import map run (`'sha256-…'`).
        let mapSource: String
    }

    let root: String
    private var pages: [String: Page] = [:]
    /// How long a page built (or found unchanged) is served without looking at its
    /// files again: looking costs ~2.5 ms of the service thread for the host page (a
    /// walk of ~100 files), which a stream of page loads would otherwise pay each time.
    static let recheck = Duration.seconds(1)

    private struct Page {
        var checkedAt: ContinuousClock.Instant
        var built: Built?
        var fingerprint: String
    }

    init(root: String) { self.root = root }

    /// `file` (a real path under the root, from `StaticFiles.resolve`) with its
    /// versions, or nil when it is not a page named here or has no module script to
    /// rewrite (then it is served as it is). A file changed is seen within `recheck`;
    /// the page is rebuilt only then. At most one entry per HTML file under `Public/`.
    mutating func current(_ file: String) -> Built? {
        guard let scope = scope(of: file) else { return nil }
        let now = ContinuousClock.now
        if let page = pages[file], now - page.checkedAt < Self.recheck { return page.built }
        let named = scope.folders.flatMap { versions(in: $0) }
        let fingerprint = ([Self.version(of: file) ?? ""] + named.map { "\($0.path)=\($0.version)" }).joined(separator: "\n")
        if let page = pages[file], page.fingerprint == fingerprint {
            pages[file]?.checkedAt = now
            return page.built
        }
        let built = FileManager.default.contents(atPath: file).flatMap { String(data: $0, encoding: .utf8) }
            .flatMap { Self.build($0, versions: named, folder: scope.folder, preload: scope.preload) }
        pages[file] = Page(checkedAt: now, built: built, fingerprint: fingerprint)
        return built
    }

    /// What a page may load by version: the host page (`index.html` at the root) its
    /// client, the SDK and its stylesheet, preloading the client's modules (not the
    /// notifications' service worker, a classic script registered by its plain URL); an
    /// app's page the SDK and its own folder, preloading all of their scripts.
    private func scope(of file: String) -> (folders: [String], folder: String, preload: (String) -> Bool)? {
        guard file.hasSuffix(".html"), file.hasPrefix(root + "/") else { return nil }
        let inside = file.dropFirst(root.count + 1).split(separator: "/").map(String.init)
        if inside == ["index.html"] {
            return (["js", "sdk", "css"], "/", { $0.hasPrefix("/js/") && $0.hasSuffix(".js") && !$0.hasSuffix("-worker.js") })
        }
        guard inside.count >= 3, inside[0] == "apps" else { return nil }
        return (["sdk", "apps/" + inside[1]], "/apps/" + inside[1] + "/", { $0.hasSuffix(".js") })
    }

    /// nil when the page has no module script (nothing to name by version).
    private static func build(_ html: String, versions: [(path: String, version: String)],
                              folder: String, preload: (String) -> Bool) -> Built? {
        var html = html
        for (path, version) in versions {
            // as written in the page: from the root, or (an app's files) from its folder
            let spellings = path.hasPrefix(folder) && folder != "/" ? [path, String(path.dropFirst(folder.count))] : [path]
            for spelling in spellings {
                for attribute in ["src=\"", "href=\""] {
                    html = html.replacingOccurrences(of: attribute + spelling + "\"",
                                                     with: attribute + spelling + "?v=" + version + "\"")
                }
            }
        }
        guard let scriptAt = html.range(of: "<script type=\"module\"") else { return nil }
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
        for (path, version) in versions where preload(path) {
            inserted += "  <link rel=\"modulepreload\" href=\"\(path)?v=\(version)\">\n"
        }
        html.replaceSubrange(scriptAt.lowerBound..<scriptAt.lowerBound, with: inserted + "  ")
        let body = Array(html.utf8)
        return Built(body: body,
                     tag: "\"" + Secrets.hex(Array(Secrets.sha256(body).prefix(12))) + "\"",
                     mapSource: "'sha256-" + Data(Secrets.sha256(Array(mapText.utf8))).base64EncodedString() + "'")
    }

    /// Every script and stylesheet under `folder` (relative to the root), with its
    /// current version, in path order; dot-files, symlinks and names that are not plain
    /// left out.
    private func versions(in folder: String) -> [(path: String, version: String)] {
        var out: [(path: String, version: String)] = []
        guard let walk = FileManager.default.enumerator(atPath: root + "/" + folder) else { return out }
        while let relative = walk.nextObject() as? String {
            guard relative.hasSuffix(".js") || relative.hasSuffix(".css"),
                  relative.utf8.allSatisfy(Self.isPlain),
                  !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                  let version = Self.version(of: root + "/" + folder + "/" + relative) else { continue }
            out.append(("/" + folder + "/" + relative, version))
        }
        return out.sorted { $0.path < $1.path }
    }

    /// Names written into the page as they are (in its map and its attributes): letters,
    /// digits, `.`, `_`, `-` and `/`. A file named otherwise is served unversioned.
    static func isPlain(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "-"), UInt8(ascii: "/"): return true
        default: return false
        }
    }

    /// A file's version: its ETag without the quotes (its change time and size).
    static func version(of file: String) -> String? {
        var info = stat()
        guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return String(EntityTag.of(size: Int(info.st_size), changed: info.st_mtim).dropFirst().dropLast())
    }
}
