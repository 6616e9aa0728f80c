import CairnAPI
import CairnPlatform
import Encodings
import Fluent
import Geo
import Vapor

/// Account tasks for operators, behind `cairn user create` and `cairn user set-role` (the composition root
/// runs them on a migrated application), and the demo account.
public struct AccountAdministration: Sendable {
    let accounts: AccountsContext

    public struct NewUser: Sendable {
        public var username: String
        public var email: String
        public var firstName: String
        public var lastName: String
        /// nil: generate a strong one.
        public var password: String?
        public var role: AccountRole

        public init(
            username: String, email: String, firstName: String, lastName: String, password: String?, role: AccountRole
        ) {
            self.username = username
            self.email = email
            self.firstName = firstName
            self.lastName = lastName
            self.password = password
            self.role = role
        }
    }

    /// Creates a user under the same rules as sign-up (its email counts as confirmed). Returns the
    /// password when it was generated, to be shown once.
    /// - Throws: `StartupError` listing what is wrong with `new`.
    package func create(_ new: NewUser, on db: any Database) async throws -> String? {
        let generated = new.password == nil ? Self.generatedPassword() : nil
        let password = new.password ?? generated!
        var input = RequestInput(json: [
            "--first-name": .string(new.firstName), "--last-name": .string(new.lastName),
            "--username": .string(new.username), "--email": .string(new.email), "password": .string(password),
        ])
        let firstName = input.personName("--first-name", label: "first name")
        let lastName = input.personName("--last-name", label: "last name")
        let username = input.username("--username")
        let email = input.email("--email")
        _ = input.newPassword("password", confirmation: "password", username: username)
        if let username, try await UserDirectory.byUsername(username, on: db) != nil {
            input.fail("--username", "The username \(username) is taken.")
        }
        if let email, try await UserDirectory.byEmail(email, on: db) != nil {
            input.fail("--email", "The email \(email) is already registered.")
        }
        guard input.isValid, let firstName, let lastName, let username, let email else {
            throw StartupError(input.errors.map { "\($0.field): \($0.detail)" }.joined(separator: " "))
        }
        let now = accounts.now()
        let hasher = accounts.hasher
        let user = User(
            username: username, email: email, passwordHash: try await hasher.hash(password), firstName: firstName,
            lastName: lastName, role: new.role, emailVerified: true, now: now)
        try await accounts.writer.transaction(on: db) { try await user.create(on: $0) }
        return generated
    }

    /// Gives the user `username` the role `role`.
    /// - Throws: `StartupError` when there is no such user or the change would leave no administrator.
    package func setRole(_ role: AccountRole, username: String, on db: any Database) async throws {
        guard let user = try await UserDirectory.byUsername(username, on: db) else {
            throw StartupError("there is no user \(username)")
        }
        do {
            try await accounts.roles.set(role, for: user, on: db)
        } catch let problem as Problem {
            throw StartupError(problem.detail)
        }
    }

    /// 20 characters from a base64url token, with a symbol, digit and capital guaranteed.
    static func generatedPassword() -> String {
        "Cn-7" + Base64URL.random(byteCount: 12)
    }
}
