import ArgumentParser
import CairnServer

@main
struct CairnCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cairn",
        abstract: "Cairn: trails, runs, parking, field guide and ski on one self-hosted server.",
        discussion: "Configuration comes from environment variables; see docs/configuration.md.",
        subcommands: [
            Serve.self, Migrate.self, SeedDemo.self, UserCommand.self, PasswordCost.self, GraphCommand.self,
            RunsCommand.self, FloraCommand.self, ParkingCommand.self, TrailsCommand.self, SkiCommand.self,
            BackupCommand.self,
            RestoreCommand.self,
        ]
    )
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Migrate the database and serve the web app and API.")

    @Option(help: "Address to listen on; 0.0.0.0 serves the whole network.")
    var hostname = "127.0.0.1"

    @Option(help: "TCP port to listen on.")
    var port = 8080

    /// `cairn-bench http` compares Cairn's HTTP server with Vapor's; not for serving anyone.
    @Flag(name: .customLong("bench-vapor-server"), help: .hidden)
    var benchVaporServer = false

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be between 1 and 65535") }
    }

    func run() async throws {
        Lifecycle.bootstrapLogging()
        try await Lifecycle.serve(
            config: try CairnConfig.fromEnvironment(), hostname: hostname, port: port, vaporServer: benchVaporServer)
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations.")

    func run() async throws {
        Lifecycle.bootstrapLogging()
        try await Lifecycle.migrate(config: try CairnConfig.fromEnvironment())
    }
}

struct SeedDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed-demo", abstract: "Load the demo data (safe to run again).")

    func run() async throws {
        Lifecycle.bootstrapLogging()
        try await Lifecycle.seedDemo(config: try CairnConfig.fromEnvironment())
    }
}
