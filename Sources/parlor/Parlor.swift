import ArgumentParser

@main
struct Parlor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parlor",
        abstract: "A self-hosted messaging server with interactive in-conversation apps.",
        subcommands: [Serve.self, BenchEngine.self],
        defaultSubcommand: Serve.self
    )
}
