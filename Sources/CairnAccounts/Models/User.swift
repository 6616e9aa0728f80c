import CairnAPI
import Fluent
import Foundation

/// A person with an account: credentials, role and profile. Usernames and emails are unique regardless
/// of case (`usernameKey`, `emailKey` hold the lowercased forms); the password is kept only as a hash.
package final class User: Model, @unchecked Sendable {
    package static let schema = "users"

    @ID(key: .id) package var id: UUID?
    @Field(key: "username") package var username: String
    @Field(key: "username_key") var usernameKey: String
    @Field(key: "email") package var email: String
    @Field(key: "email_key") var emailKey: String
    @Field(key: "email_verified") package var emailVerified: Bool
    /// SHA-256 of the token in the confirmation email's link, until the email is confirmed.
    @OptionalField(key: "email_verification_hash") var emailVerificationHash: String?
    @Field(key: "password_hash") var passwordHash: String
    @Field(key: "role") package var role: AccountRole
    @Field(key: "first_name") package var firstName: String
    @Field(key: "last_name") package var lastName: String
    @Field(key: "about_me") package var aboutMe: String
    @OptionalField(key: "age") package var age: Int?
    @OptionalField(key: "weight_kg") package var weightKg: Double?
    @OptionalField(key: "height_cm") package var heightCm: Double?
    @OptionalField(key: "distance_unit") var distanceUnit: DistanceUnit?
    @OptionalField(key: "temperature_unit") var temperatureUnit: TemperatureUnit?
    @OptionalField(key: "elevation_unit") var elevationUnit: ElevationUnit?
    /// `png` or `jpeg` when the user uploaded a picture.
    @OptionalField(key: "avatar_format") var avatarFormat: String?
    @OptionalField(key: "avatar_updated_at") var avatarUpdatedAt: Date?
    @Field(key: "created_at") package var createdAt: Date
    @Field(key: "password_changed_at") var passwordChangedAt: Date

    package init() {}

    /// A new account with an empty profile.
    init(
        username: String, email: String, passwordHash: String, firstName: String, lastName: String, role: AccountRole,
        emailVerified: Bool, now: Date
    ) {
        self.username = username
        self.usernameKey = Self.key(username)
        self.email = email
        self.emailKey = Self.key(email)
        self.emailVerified = emailVerified
        self.passwordHash = passwordHash
        self.role = role
        self.firstName = firstName
        self.lastName = lastName
        self.aboutMe = ""
        self.createdAt = now
        self.passwordChangedAt = now
    }

    /// "First Last".
    package var displayName: String {
        [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The user's units, when they chose all three.
    package var units: UnitPreferences? {
        get {
            guard let distanceUnit, let temperatureUnit, let elevationUnit else { return nil }
            return UnitPreferences(distance: distanceUnit, temperature: temperatureUnit, elevation: elevationUnit)
        }
        set {
            distanceUnit = newValue?.distance
            temperatureUnit = newValue?.temperature
            elevationUnit = newValue?.elevation
        }
    }

    /// The form uniqueness is checked on: Unicode normal form C, trimmed, lowercased.
    static func key(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}
