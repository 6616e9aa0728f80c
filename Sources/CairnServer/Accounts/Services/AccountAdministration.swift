import Fluent
import Vapor

/// Account tasks for operators, behind `cairn user create` and `cairn user set-role`.
public enum AccountAdministration {
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
    public static func create(_ new: NewUser, config: AppConfig) async throws -> String? {
        try await Lifecycle.withApplication(config: config) { app in
            try await app.autoMigrate()
            return try await create(new, app: app)
        }
    }

    /// Gives the user `username` the role `role`.
    public static func setRole(_ role: AccountRole, username: String, config: AppConfig) async throws {
        try await Lifecycle.withApplication(config: config) { app in
            try await app.autoMigrate()
            guard let user = try await UserDirectory.byUsername(username, on: app.db) else {
                throw StartupError("there is no user \(username)")
            }
            do {
                try await AccountRoles.set(role, for: user, app: app, on: app.db)
            } catch let problem as Problem {
                throw StartupError(problem.detail)
            }
        }
    }

    static func create(_ new: NewUser, app: Application) async throws -> String? {
        let generated = new.password == nil ? generatedPassword() : nil
        let password = new.password ?? generated!
        var check = AccountValidation()
        let firstName = check.name(new.firstName, field: "--first-name", label: "first name")
        let lastName = check.name(new.lastName, field: "--last-name", label: "last name")
        let username = check.username(new.username, field: "--username")
        let email = check.email(new.email, field: "--email")
        _ = check.newPassword(
            password, confirmation: password, field: "password", confirmationField: "password", username: username)
        if let username, try await UserDirectory.byUsername(username, on: app.db) != nil {
            check.fail("--username", "The username \(username) is taken.")
        }
        if let email, try await UserDirectory.byEmail(email, on: app.db) != nil {
            check.fail("--email", "The email \(email) is already registered.")
        }
        guard check.isValid, let firstName, let lastName, let username, let email else {
            throw StartupError(check.errors.map { "\($0.field): \($0.detail)" }.joined(separator: " "))
        }
        let now = app.externalServices.now()
        let hasher = PasswordHasher(cost: app.appConfig.accounts.passwordHashCost, executor: app.passwordWork)
        let user = User(
            username: username, email: email, passwordHash: try await hasher.hash(password), firstName: firstName,
            lastName: lastName, role: new.role, emailVerified: true, now: now)
        try await app.writeTransaction { try await user.create(on: $0) }
        return generated
    }

    /// 20 characters from a base64url token, with a symbol, digit and capital guaranteed.
    static func generatedPassword() -> String {
        "Cn-7" + SecretToken.make(byteCount: 12)
    }
}
