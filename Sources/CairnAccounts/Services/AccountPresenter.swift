import CairnAPI
import Foundation

/// Models to wire types.
enum AccountPresenter {
    static let defaultAvatarURL = "/icons/avatar-default.svg"

    static func account(_ user: User) throws -> Account {
        Account(
            id: try user.requireID(), username: user.username, email: user.email, emailVerified: user.emailVerified,
            role: user.role, profile: try profile(user), createdAt: user.createdAt)
    }

    static func profile(_ user: User) throws -> Profile {
        let id = try user.requireID()
        let avatar = user.avatarUpdatedAt.map {
            "/api/users/\(id.uuidString.lowercased())/avatar?v=\(Int($0.timeIntervalSince1970))"
        }
        return Profile(
            firstName: user.firstName, lastName: user.lastName, displayName: user.displayName, aboutMe: user.aboutMe,
            age: user.age, weightKg: user.weightKg, heightCm: user.heightCm, units: user.units,
            avatarURL: avatar ?? defaultAvatarURL, hasCustomAvatar: avatar != nil)
    }

    static func summary(_ user: User) throws -> AccountSummary {
        AccountSummary(
            id: try user.requireID(), username: user.username, email: user.email, role: user.role,
            createdAt: user.createdAt)
    }
}
