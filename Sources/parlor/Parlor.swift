import ArgumentParser

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
    static let current = "0.2.0"
}
