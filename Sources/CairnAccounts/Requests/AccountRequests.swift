import CairnAPI
import CairnPlatform
import Foundation
import Geo
import Vapor

/// `POST /api/account`: sign up. Members other than these are refused (a client cannot set `role` or
/// `email_verified`).
struct RegistrationForm {
    static let fields: Set<String> = [
        "first_name", "last_name", "username", "email", "password", "password_confirmation", "units", "guest_data",
        "session",
    ]

    let firstName: String
    let lastName: String
    let username: String
    let email: String
    let password: String
    let units: UnitPreferences?
    let guestData: GuestData
    let session: SessionTransport?

    /// Reads and checks the body; `lookups` adds what only the database knows (a username or email already
    /// taken) to the same 422.
    init(
        _ req: Request, lookups: (_ username: String?, _ email: String?) async throws -> [Problem.FieldError]
    ) async throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let firstName = input.personName("first_name", label: "first name")
        let lastName = input.personName("last_name", label: "last name")
        let username = input.username()
        let email = input.email()
        let password = input.newPassword("password", confirmation: "password_confirmation", username: username)
        units = input.units()
        guestData = input.guestData()
        session = input.sessionTransport()
        for error in try await lookups(username, email) { input.fail(error.field, error.detail) }
        (self.firstName, self.lastName, self.username, self.email, self.password) = try input.finish(
            firstName, lastName, username, email, password)
    }
}

/// `POST /api/session`: log in with a username or an email address.
struct LoginForm {
    static let fields: Set<String> = ["login", "password", "guest_data", "session"]

    let login: String
    let password: String
    let guestData: GuestData
    let session: SessionTransport?

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let login = input.plainText("login", label: "your username or email")
        let password = input.secret("password", missing: "Enter your current password.")
        guestData = input.guestData()
        session = input.sessionTransport()
        (self.login, self.password) = try input.finish(login, password)
    }
}

/// `PUT /api/account/profile`: the whole editable profile; optional members left out (or null) are cleared.
struct ProfileForm {
    static let fields: Set<String> = [
        "first_name", "last_name", "about_me", "age", "weight_kg", "height_cm", "units",
    ]

    let firstName: String
    let lastName: String
    let aboutMe: String
    let age: Int?
    /// Rounded to 0.1 kg.
    let weightKg: Double?
    /// Rounded to 0.1 cm.
    let heightCm: Double?
    let units: UnitPreferences?

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let firstName = input.personName("first_name", label: "first name")
        let lastName = input.personName("last_name", label: "last name")
        aboutMe = input.text(
            "about_me", label: "About Me", length: 0...RequestInput.aboutMeLimit, multiline: true, default: "")
        age = input.integer(
            "age", in: 13...120, required: false, message: "Age must be a whole number from 13 to 120.")
        weightKg = input.number(
            "weight_kg", in: 20...400, required: false, message: "Weight must be between 20 and 400 kg."
        ).map { ($0 * 10).rounded() / 10 }
        heightCm = input.number(
            "height_cm", in: 50...250, required: false, message: "Height must be between 50 and 250 cm."
        ).map { ($0 * 10).rounded() / 10 }
        units = input.units()
        (self.firstName, self.lastName) = try input.finish(firstName, lastName)
    }
}

/// `PUT /api/account/username`.
struct UsernameChangeForm {
    static let fields: Set<String> = ["username", "current_password"]

    let username: String
    let currentPassword: String

    /// `taken` says whether another account has the username.
    init(_ req: Request, taken: (String) async throws -> Bool) async throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let username = input.username()
        let password = input.currentPassword()
        if let username, try await taken(username) {
            input.fail("username", "The username \(username) is taken. Choose another.")
        }
        (self.username, currentPassword) = try input.finish(username, password)
    }
}

/// `PUT /api/account/password`.
struct PasswordChangeForm {
    static let fields: Set<String> = ["current_password", "new_password", "new_password_confirmation"]

    let currentPassword: String
    let newPassword: String

    init(_ req: Request, username: String) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let current = input.currentPassword()
        let new = input.newPassword("new_password", confirmation: "new_password_confirmation", username: username)
        if let current, let new, current == new {
            input.fail("new_password", "The new password must be different from the current one.")
        }
        (currentPassword, newPassword) = try input.finish(current, new)
    }
}

/// `DELETE /api/account`: the current password confirms it.
struct AccountDeletionForm {
    static let fields: Set<String> = ["current_password"]

    let currentPassword: String

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let password = input.currentPassword()
        currentPassword = try input.finish(password)
    }
}

/// `POST /api/account/email-verification`: the token from the confirmation link.
struct EmailVerificationForm {
    static let fields: Set<String> = ["token"]

    let token: String

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let token = input.plainText("token", label: "your confirmation token")
        self.token = try input.finish(token)
    }
}

/// `POST /api/account/sign-up-confirmation`: the link a hidden sign-up mailed, with the guest's data and how
/// the session should travel.
struct SignUpConfirmationForm {
    static let fields: Set<String> = ["token", "guest_data", "session"]

    let token: String
    let guestData: GuestData
    let session: SessionTransport?

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let token = input.plainText("token", label: "your sign-up link")
        guestData = input.guestData()
        session = input.sessionTransport()
        self.token = try input.finish(token)
    }
}

/// `POST /api/password-reset`: where to send a code.
struct PasswordResetForm {
    static let fields: Set<String> = ["email"]

    let email: String

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let email = input.email()
        self.email = try input.finish(email)
    }
}

/// `POST /api/password-reset/verify`: the email and the 6-digit code sent to it.
struct ResetCodeForm {
    static let fields: Set<String> = ["email", "code"]

    let email: String
    let code: String

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let email = input.email()
        var code = ""
        if case .json(.string(let text))? = input.raw("code") { code = text.trimmingCharacters(in: .whitespaces) }
        if code.count != 6 || !code.allSatisfy(\.isASCII) || !code.allSatisfy(\.isNumber) {
            input.fail("code", code.isEmpty ? "Enter the 6-digit code from the email." : "The code has 6 digits.")
        }
        self.email = try input.finish(email)
        self.code = code
    }
}

/// `POST /api/password-reset/complete`: the one-time reset token and the new password. A missing or unknown
/// token is `AccountError.resetTokenInvalid` (the code must be verified again), checked before the password.
struct ResetCompletionForm {
    static let fields: Set<String> = ["reset_token", "new_password", "new_password_confirmation"]

    private var input: RequestInput
    /// The token as sent, never empty: a form without one is refused with every bad field (422), not as a
    /// dead reset (410), which is for a token that was given and is no longer valid.
    let resetToken: String

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        func given(_ field: String) -> String? {
            guard case .json(.string(let text))? = input.raw(field), !text.isEmpty else { return nil }
            return text
        }
        // A form without the token or without both passwords is refused with every bad field (422) before
        // the token is looked up, so that a well-formed token is not called dead (410) for a missing field.
        let token = given("reset_token")
        guard let token, given("new_password") != nil, given("new_password_confirmation") != nil else {
            if token == nil { input.fail("reset_token", "reset_token is required: the token a right code gave.") }
            _ = input.newPassword("new_password", confirmation: "new_password_confirmation", username: "")
            throw input.problem
        }
        self.input = input
        resetToken = token
    }

    /// The new password for `username`'s account, checked under `PasswordPolicy`.
    mutating func newPassword(for username: String) throws -> String {
        let password = input.newPassword("new_password", confirmation: "new_password_confirmation", username: username)
        return try input.finish(password)
    }
}

/// `PUT /api/admin/users/{id}/role`.
struct RoleChangeForm {
    static let fields: Set<String> = ["role"]

    let userID: UUID
    let role: AccountRole

    /// The id in the path is not a form field: an id that is no UUID is a user that does not exist (404).
    init(_ req: Request) throws {
        guard let id = req.parameters.get("id", as: UUID.self) else { throw Problem.notFound("There is no such user.") }
        var input = try RequestInput(body: req, allowed: Self.fields)
        let role = input.choice("role", as: AccountRole.self)
        userID = id
        self.role = try input.finish(role)
    }
}
