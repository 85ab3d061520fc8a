import ArgumentParser
import Configuration
import ParlorCore

extension ServeSettings {
    /// The `limit-*` keys: rates as COUNT/SECONDS ("0" for none), sizes as numbers.
    mutating func readLimits(_ config: ConfigReader) throws {
        func keepingBurst(_ read: Rate, _ current: Rate) -> Rate {
            read.description == current.description ? current : read
        }
        func rate(_ key: String, _ current: Rate) throws -> Rate {
            let text = config.string(forKey: ConfigKey([key]), default: current.description)
            guard let r = Rate(parsing: text) else { throw ValidationError("\(key) is COUNT/SECONDS (e.g. 10/3600) or 0") }
            return r
        }
        func count(_ key: String, _ current: Int) throws -> Int {
            let n = config.int(forKey: ConfigKey([key]), default: current)
            guard n >= 0 else { throw ValidationError("\(key) must be 0 or more") }
            return n
        }
        engine.registrationsPerAddress = try rate("limit-registrations", engine.registrationsPerAddress)
        engine.signInFailuresPerAddress = try rate("limit-sign-in-failures", engine.signInFailuresPerAddress)
        engine.sendsPerUser = try rate("limit-sends", engine.sendsPerUser)
        engine.sendsPerUser.burst = try count("limit-send-burst", engine.sendsPerUser.burst ?? 30)
        engine.conversationsPerUser = try rate("limit-conversations", engine.conversationsPerUser)
        engine.invitesPerUser = try rate("limit-invites", engine.invitesPerUser)
        // The defaults keep their bursts (a person renaming twice in a row, an app saving
        // a few keys at once); a rate the operator gives is its own burst.
        engine.changesPerUser = try keepingBurst(rate("limit-changes", engine.changesPerUser), engine.changesPerUser)
        engine.appDataWritesPerUser = try keepingBurst(rate("limit-app-data-writes", engine.appDataWritesPerUser), engine.appDataWritesPerUser)
        engine.playingPerUser = try keepingBurst(rate("limit-playing", engine.playingPerUser), engine.playingPerUser)
        engine.readMarksPerUser = try keepingBurst(rate("limit-read-marks", engine.readMarksPerUser), engine.readMarksPerUser)
        engine.typingPerUser = try keepingBurst(rate("limit-typing", engine.typingPerUser), engine.typingPerUser)
        engine.searchesPerUser = try keepingBurst(rate("limit-searches", engine.searchesPerUser), engine.searchesPerUser)
        engine.reportsPerUser = try keepingBurst(rate("limit-reports", engine.reportsPerUser), engine.reportsPerUser)
        engine.blocksPerUser = try keepingBurst(rate("limit-blocks", engine.blocksPerUser), engine.blocksPerUser)
        engine.uploadBytesPerUser = try rate("limit-upload-bytes", engine.uploadBytesPerUser)
        engine.storedImageBytesPerUser = try count("limit-stored-image-mb", engine.storedImageBytesPerUser >> 20) << 20
        newConnectionsPerAddress = try rate("limit-new-connections", newConnectionsPerAddress)
        engine.refusalsBeforeClose = max(1, try count("limit-refusals-before-close", engine.refusalsBeforeClose))
        engine.imageGraceSeconds = max(1, try count("image-grace-seconds", engine.imageGraceSeconds))
    }
}
