import Fluent

/// Finding users by what people type: usernames and emails, regardless of case.
enum UserDirectory {
    static func byUsername(_ username: String, on db: any Database) async throws -> User? {
        try await User.query(on: db).filter(\.$usernameKey == User.key(username)).first()
    }

    static func byEmail(_ email: String, on db: any Database) async throws -> User? {
        try await User.query(on: db).filter(\.$emailKey == User.key(email)).first()
    }

    /// By username or email, as the login form takes either.
    static func byLogin(_ login: String, on db: any Database) async throws -> User? {
        let key = User.key(login)
        return try await User.query(on: db).group(.or) { $0.filter(\.$usernameKey == key).filter(\.$emailKey == key) }
            .first()
    }
}
