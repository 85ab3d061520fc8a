import ArgumentParser
import ParlorCore

@main
struct Parlor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parlor",
        abstract: "A self-hosted messaging server with interactive in-conversation apps.",
        version: ParlorVersion.current,
        subcommands: [Serve.self, Admin.self, BenchEngine.self],
        defaultSubcommand: Serve.self
    )
}

enum ParlorVersion {
    /// With the database versions it writes: a rollback's binary can be told from the
    /// current one (both said 0.2.0; an outside test of a rollback).
    static let current = "0.2.0 (SQLite \(SQLiteStore.schemaVersion), PostgreSQL schema \(PostgresStore.schemaVersion))"
}
