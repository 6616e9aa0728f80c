import Foundation
import Geo

// Wire types of the accounts API (`/api/account`, `/api/session`, `/api/password-reset`, `/api/admin`).
// Request members are optional so the server can answer every missing or invalid one at once, as a 422
// naming each field, instead of stopping at the first.

/// What a user may do beyond their own data.
public enum AccountRole: String, Codable, Sendable, CaseIterable {
    /// Everyone who signs up.
    case user
    /// May confirm observations and see research data (field guide).
    case researcher
    /// Looks after what people post: the queue of reported reviews, forum posts and messages (community).
    case moderator
    /// Runs the installation: manages roles and content.
    case admin
}

extension AccountRole {
    /// Whether this role looks after what people post (moderators, and administrators, who may do everything).
    public var moderates: Bool { self == .moderator || self == .admin }
}

/// How distances are shown: kilometres or miles (speeds follow: km/h, mph).
public enum DistanceUnit: String, Codable, Sendable, CaseIterable {
    case kilometres = "km"
    case miles = "mi"
}

/// How temperatures are shown: degrees Celsius or Fahrenheit.
public enum TemperatureUnit: String, Codable, Sendable, CaseIterable {
    case celsius = "C"
    case fahrenheit = "F"
}

/// How heights and elevations are shown: metres or feet.
public enum ElevationUnit: String, Codable, Sendable, CaseIterable {
    case metres = "m"
    case feet = "ft"
}

/// The units a user reads measurements in.
public struct UnitPreferences: Codable, Sendable, Equatable {
    public var distance: DistanceUnit
    public var temperature: TemperatureUnit
    public var elevation: ElevationUnit

    public init(distance: DistanceUnit, temperature: TemperatureUnit, elevation: ElevationUnit) {
        self.distance = distance
        self.temperature = temperature
        self.elevation = elevation
    }
}

/// How a client wants its session: a cookie (the web app) or a bearer token in the body (API clients).
public enum SessionTransport: String, Codable, Sendable, CaseIterable {
    case cookie
    case token
}

/// `POST /api/account`: sign up.
public struct RegistrationRequest: Codable, Sendable {
    public var firstName: String?
    public var lastName: String?
    public var username: String?
    public var email: String?
    public var password: String?
    public var passwordConfirmation: String?
    /// The units the guest chose on this device; the locale's otherwise.
    public var units: UnitPreferences?
    /// What the guest did on this device, by module (see `CairnModule.adoptGuestData`).
    public var guestData: [String: JSONValue]?
    public var session: SessionTransport?

    public init(
        firstName: String?, lastName: String?, username: String?, email: String?, password: String?,
        passwordConfirmation: String?, units: UnitPreferences? = nil, guestData: [String: JSONValue]? = nil,
        session: SessionTransport? = nil
    ) {
        self.firstName = firstName
        self.lastName = lastName
        self.username = username
        self.email = email
        self.password = password
        self.passwordConfirmation = passwordConfirmation
        self.units = units
        self.guestData = guestData
        self.session = session
    }

    enum CodingKeys: String, CodingKey {
        case firstName = "first_name"
        case lastName = "last_name"
        case username, email, password
        case passwordConfirmation = "password_confirmation"
        case units
        case guestData = "guest_data"
        case session
    }
}

/// The answer to a sign-up when the server hides which emails are registered (`CAIRN_RESET_UNKNOWN_EMAIL=hide`):
/// the same for every address. The account is made when the link mailed to the address is opened
/// (`SignUpConfirmation`).
public struct RegistrationPending: Codable, Sendable, Equatable {
    public var detail: String
    /// How long the mailed link works.
    public var expiresInSeconds: Int

    public init(detail: String, expiresInSeconds: Int) {
        self.detail = detail
        self.expiresInSeconds = expiresInSeconds
    }

    enum CodingKeys: String, CodingKey {
        case detail
        case expiresInSeconds = "expires_in_seconds"
    }
}

/// `POST /api/account/sign-up-confirmation`: the token from the link a sign-up mailed, which makes the account
/// and signs in. `guest_data` (what the guest did on the device that opens the link) replaces what the sign-up
/// sent when it holds anything.
public struct SignUpConfirmation: Codable, Sendable {
    public var token: String?
    public var guestData: [String: JSONValue]?
    public var session: SessionTransport?

    public init(token: String?, guestData: [String: JSONValue]? = nil, session: SessionTransport? = nil) {
        self.token = token
        self.guestData = guestData
        self.session = session
    }

    enum CodingKeys: String, CodingKey {
        case token
        case guestData = "guest_data"
        case session
    }
}

/// `POST /api/session`: log in with a username or an email.
public struct LoginRequest: Codable, Sendable {
    /// Username or email.
    public var login: String?
    public var password: String?
    public var guestData: [String: JSONValue]?
    public var session: SessionTransport?

    public init(
        login: String?, password: String?, guestData: [String: JSONValue]? = nil, session: SessionTransport? = nil
    ) {
        self.login = login
        self.password = password
        self.guestData = guestData
        self.session = session
    }

    enum CodingKeys: String, CodingKey {
        case login, password
        case guestData = "guest_data"
        case session
    }
}

/// A signed-in session: the account, and for `session: "token"` the bearer token (shown once).
public struct SessionResponse: Codable, Sendable {
    public var account: Account
    public var token: String?
    public var expiresAt: Date

    public init(account: Account, token: String?, expiresAt: Date) {
        self.account = account
        self.token = token
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case account, token
        case expiresAt = "expires_at"
    }
}

/// The signed-in user's own account.
public struct Account: Codable, Sendable, Equatable {
    public var id: UUID
    public var username: String
    public var email: String
    public var emailVerified: Bool
    public var role: AccountRole
    public var profile: Profile
    public var createdAt: Date

    public init(
        id: UUID, username: String, email: String, emailVerified: Bool, role: AccountRole, profile: Profile,
        createdAt: Date
    ) {
        self.id = id
        self.username = username
        self.email = email
        self.emailVerified = emailVerified
        self.role = role
        self.profile = profile
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, username, email
        case emailVerified = "email_verified"
        case role, profile
        case createdAt = "created_at"
    }
}

/// What a user tells about themselves.
public struct Profile: Codable, Sendable, Equatable {
    public var firstName: String
    public var lastName: String
    /// "First Last".
    public var displayName: String
    /// At most 300 characters.
    public var aboutMe: String
    public var age: Int?
    public var weightKg: Double?
    public var heightCm: Double?
    public var units: UnitPreferences?
    /// The picture to show: the user's own, or the default avatar.
    public var avatarURL: String
    public var hasCustomAvatar: Bool

    public init(
        firstName: String, lastName: String, displayName: String, aboutMe: String, age: Int?, weightKg: Double?,
        heightCm: Double?, units: UnitPreferences?, avatarURL: String, hasCustomAvatar: Bool
    ) {
        self.firstName = firstName
        self.lastName = lastName
        self.displayName = displayName
        self.aboutMe = aboutMe
        self.age = age
        self.weightKg = weightKg
        self.heightCm = heightCm
        self.units = units
        self.avatarURL = avatarURL
        self.hasCustomAvatar = hasCustomAvatar
    }

    enum CodingKeys: String, CodingKey {
        case firstName = "first_name"
        case lastName = "last_name"
        case displayName = "display_name"
        case aboutMe = "about_me"
        case age
        case weightKg = "weight_kg"
        case heightCm = "height_cm"
        case units
        case avatarURL = "avatar_url"
        case hasCustomAvatar = "has_custom_avatar"
    }
}

/// `PUT /api/account/profile`: the whole editable profile. Optional members left out (or null) are cleared.
public struct ProfileUpdate: Codable, Sendable {
    public var firstName: String?
    public var lastName: String?
    public var aboutMe: String?
    public var age: Int?
    public var weightKg: Double?
    public var heightCm: Double?
    public var units: UnitPreferences?

    public init(
        firstName: String?, lastName: String?, aboutMe: String? = nil, age: Int? = nil, weightKg: Double? = nil,
        heightCm: Double? = nil, units: UnitPreferences? = nil
    ) {
        self.firstName = firstName
        self.lastName = lastName
        self.aboutMe = aboutMe
        self.age = age
        self.weightKg = weightKg
        self.heightCm = heightCm
        self.units = units
    }

    enum CodingKeys: String, CodingKey {
        case firstName = "first_name"
        case lastName = "last_name"
        case aboutMe = "about_me"
        case age
        case weightKg = "weight_kg"
        case heightCm = "height_cm"
        case units
    }
}

/// `PUT /api/account/password`.
public struct PasswordChange: Codable, Sendable {
    public var currentPassword: String?
    public var newPassword: String?
    public var newPasswordConfirmation: String?

    public init(currentPassword: String?, newPassword: String?, newPasswordConfirmation: String?) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
        self.newPasswordConfirmation = newPasswordConfirmation
    }

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
        case newPassword = "new_password"
        case newPasswordConfirmation = "new_password_confirmation"
    }
}

/// `PUT /api/account/username`.
public struct UsernameChange: Codable, Sendable {
    public var username: String?
    public var currentPassword: String?

    public init(username: String?, currentPassword: String?) {
        self.username = username
        self.currentPassword = currentPassword
    }

    enum CodingKeys: String, CodingKey {
        case username
        case currentPassword = "current_password"
    }
}

/// `DELETE /api/account`: the password confirms it is really the owner.
public struct AccountDeletionRequest: Codable, Sendable {
    public var currentPassword: String?

    public init(currentPassword: String?) {
        self.currentPassword = currentPassword
    }

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
    }
}

/// `POST /api/password-reset`: send a 6-digit code to this email.
public struct PasswordResetRequest: Codable, Sendable {
    public var email: String?

    public init(email: String?) {
        self.email = email
    }
}

/// The answer to a reset request.
public struct PasswordResetRequested: Codable, Sendable {
    public var detail: String
    public var expiresInSeconds: Int
    public var attempts: Int

    public init(detail: String, expiresInSeconds: Int, attempts: Int) {
        self.detail = detail
        self.expiresInSeconds = expiresInSeconds
        self.attempts = attempts
    }

    enum CodingKeys: String, CodingKey {
        case detail
        case expiresInSeconds = "expires_in_seconds"
        case attempts
    }
}

/// `POST /api/password-reset/verify`: the code from the email.
public struct PasswordResetVerification: Codable, Sendable {
    public var email: String?
    public var code: String?

    public init(email: String?, code: String?) {
        self.email = email
        self.code = code
    }
}

/// A correct code gives a one-time token for choosing the new password.
public struct PasswordResetVerified: Codable, Sendable {
    public var resetToken: String

    public init(resetToken: String) {
        self.resetToken = resetToken
    }

    enum CodingKeys: String, CodingKey {
        case resetToken = "reset_token"
    }
}

/// `POST /api/password-reset/complete`.
public struct PasswordResetCompletion: Codable, Sendable {
    public var resetToken: String?
    public var newPassword: String?
    public var newPasswordConfirmation: String?

    public init(resetToken: String?, newPassword: String?, newPasswordConfirmation: String?) {
        self.resetToken = resetToken
        self.newPassword = newPassword
        self.newPasswordConfirmation = newPasswordConfirmation
    }

    enum CodingKeys: String, CodingKey {
        case resetToken = "reset_token"
        case newPassword = "new_password"
        case newPasswordConfirmation = "new_password_confirmation"
    }
}

/// `POST /api/account/email-verification`: the token from the confirmation email's link.
public struct EmailVerificationRequest: Codable, Sendable {
    public var token: String?

    public init(token: String?) {
        self.token = token
    }
}

/// `PUT /api/admin/users/{id}/role`.
public struct RoleChange: Codable, Sendable {
    /// `user`, `researcher` or `admin`.
    public var role: String?

    public init(role: String?) {
        self.role = role
    }
}

/// One user as administrators see them in the user list.
public struct AccountSummary: Codable, Sendable, Equatable {
    public var id: UUID
    public var username: String
    public var email: String
    public var role: AccountRole
    public var createdAt: Date

    public init(id: UUID, username: String, email: String, role: AccountRole, createdAt: Date) {
        self.id = id
        self.username = username
        self.email = email
        self.role = role
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, username, email, role
        case createdAt = "created_at"
    }
}
