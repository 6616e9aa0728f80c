import ArgumentParser
import CairnAPI
import CairnAccounts
import CairnServer
import Foundation

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage accounts: create the first administrator, change roles.",
        subcommands: [CreateUser.self, SetRole.self])
}

struct CreateUser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an account (its email counts as confirmed).",
        discussion: "Without --password-stdin a strong password is generated and printed once.")

    @Option(help: "Username: 3–30 letters, digits, dots, dashes or underscores.")
    var username: String

    @Option(help: "Email address.")
    var email: String

    @Option(help: "First name.")
    var firstName = "Cairn"

    @Option(help: "Last name.")
    var lastName = "Administrator"

    @Flag(help: "Make the account an administrator.")
    var admin = false

    @Flag(help: "Read the password from the first line of standard input instead of generating one.")
    var passwordStdin = false

    func run() async throws {
        Lifecycle.bootstrapLogging()
        let password = passwordStdin ? readLine(strippingNewline: true) ?? "" : nil
        let generated = try await Lifecycle.createUser(
            .init(
                username: username, email: email, firstName: firstName, lastName: lastName, password: password,
                role: admin ? .admin : .user),
            config: try CairnConfig.fromEnvironment())
        print("Created \(admin ? "administrator" : "user") \(username).")
        if let generated { print("Password (shown once): \(generated)") }
    }
}

struct SetRole: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-role", abstract: "Give a user the role user, researcher, moderator or admin.")

    @Argument(help: "The username.")
    var username: String

    @Argument(help: "user, researcher, moderator or admin.")
    var role: String

    func validate() throws {
        guard AccountRole(rawValue: role) != nil else {
            throw ValidationError("the role is one of: user, researcher, moderator, admin")
        }
    }

    func run() async throws {
        Lifecycle.bootstrapLogging()
        try await Lifecycle.setRole(
            AccountRole(rawValue: role)!, username: username, config: try CairnConfig.fromEnvironment())
        print("\(username) is now \(role).")
    }
}

struct PasswordCost: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password-cost",
        abstract: "Time one password hash at each bcrypt cost on this machine, to choose CAIRN_PASSWORD_HASH_COST.")

    @Option(help: "Hashes per cost; the median is reported.")
    var samples = 5

    func run() async throws {
        print("cost  median ms  (aim for 50–150 ms)")
        for cost in 8...13 {
            let times = try PasswordHashTiming.measure(cost: cost, samples: samples)
            print(String(format: "%4d  %9.1f", cost, times))
        }
    }
}
