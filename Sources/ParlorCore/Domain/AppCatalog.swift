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
        if let data = FileManager.default.contents(atPath: path) {
            if let manifest = try? JSONParser.parse([UInt8](data)), case .string(let n)? = manifest["name"] {
                name = n
            } else {
                name = appId
            }
        }
        // Only hits are cached, so an app folder added while running is found.
        if name != nil { names[appId] = .some(name) }
        return name
    }
}
