import CairnAPI
import CairnPlatform
import Fluent
import Foundation

/// A sign-up waiting for its email to be confirmed (`CAIRN_RESET_UNKNOWN_EMAIL=hide`): everything the account
/// will be made of, kept until the link mailed to the address is opened or the link expires. The link's token
/// is kept only as its SHA-256, the password only as its bcrypt hash.
final class PendingRegistration: Model, @unchecked Sendable {
    static let schema = "pending_registrations"

    @ID(key: .id) var id: UUID?
    /// SHA-256 of the token in the mailed link.
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "username") var username: String
    @Field(key: "username_key") var usernameKey: String
    @Field(key: "email") var email: String
    @Field(key: "email_key") var emailKey: String
    @Field(key: "password_hash") var passwordHash: String
    @Field(key: "first_name") var firstName: String
    @Field(key: "last_name") var lastName: String
    @OptionalField(key: "distance_unit") var distanceUnit: DistanceUnit?
    @OptionalField(key: "temperature_unit") var temperatureUnit: TemperatureUnit?
    @OptionalField(key: "elevation_unit") var elevationUnit: ElevationUnit?
    /// The guest's device data sent with the sign-up (`guest_data`, JSON), adopted when the account is made.
    @Field(key: "guest_data") var guestData: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "expires_at") var expiresAt: Date

    init() {}

    init(
        tokenHash: String, username: String, email: String, passwordHash: String, firstName: String,
        lastName: String, units: UnitPreferences?, guestData: GuestData, now: Date, expiresAt: Date
    ) throws {
        self.tokenHash = tokenHash
        self.username = username
        self.usernameKey = User.key(username)
        self.email = email
        self.emailKey = User.key(email)
        self.passwordHash = passwordHash
        self.firstName = firstName
        self.lastName = lastName
        self.distanceUnit = units?.distance
        self.temperatureUnit = units?.temperature
        self.elevationUnit = units?.elevation
        self.guestData = String(decoding: try JSONEncoder().encode(guestData), as: UTF8.self)
        self.createdAt = now
        self.expiresAt = expiresAt
    }

    var units: UnitPreferences? {
        guard let distanceUnit, let temperatureUnit, let elevationUnit else { return nil }
        return UnitPreferences(distance: distanceUnit, temperature: temperatureUnit, elevation: elevationUnit)
    }

    /// The stored guest data; empty when it no longer decodes.
    var storedGuestData: GuestData {
        (try? JSONDecoder().decode(GuestData.self, from: Data(guestData.utf8))) ?? GuestData()
    }
}
