import Foundation

/// The apps available on this server: the folders of `Public/apps/` with a manifest.
/// Read from disk on first use of each id and cached.
public final class AppCatalog: @unchecked Sendable {
    private let appsDirectory: String
    private var names: [String: String?] = [:]
    private let lock = NSLock()

    public init(publicDirectory: String) {
        appsDirectory = publicDirectory + "/apps"
    }

    /// The app's display name, or nil if no such app is installed on the server.
    public func name(of appId: String) -> String? {
        guard Validators.isAppId(appId) else { return nil }
        lock.lock(); defer { lock.unlock() }
        if let cached = names[appId] { return cached }
        var name: String?
        let path = "\(appsDirectory)/\(appId)/manifest.json"
        if let data = FileManager.default.contents(atPath: path), let manifest = try? JSONParser.parse([UInt8](data)) {
            name = Self.displayName(appId, manifest)
        }
        // Only hits are cached, so an app folder added (or mended) while running is found.
        if name != nil { names[appId] = .some(name) }
        return name
    }

    /// The name of a manifest the web client lists too (Public/js/apps/registry.js,
    /// `manifestProblem`): its id is its folder's, it has a name of 1-64 characters, an
    /// icon and an .html entry. Anything else is not an app here either, so no message
    /// can be sent from an app nobody can open.
    static func displayName(_ appId: String, _ m: JSONValue) -> String? {
        guard case .string(appId)? = m["id"], case .string(let raw)? = m["name"],
              case .string? = m["icon"], case .string(let entry)? = m["entry"], entry.hasSuffix(".html") else { return nil }
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty || name.count > 64 ? nil : name
    }
}
