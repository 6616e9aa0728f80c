import Fluent
import Vapor

/// One identity for all five apps: registration, login and sessions, guest mode, password reset,
/// profile and picture, roles, and account deletion across every module.
///
/// Other modules get the signed-in user from `req.requireUser(to:)` / `req.currentUser()` /
/// `req.requireRole(_:)` (Services/Request+Account.swift) and implement `CairnModule.deleteUserData`
/// and, where guests keep data on the device, `adoptGuestData`.
struct AccountsModule: CairnModule {
    var migrations: [any Migration] {
        [CreateUser(), CreateUserSession(), CreatePasswordResetCode()]
    }

    func boot(api: any RoutesBuilder, app: Application) throws {
        guard !CommonPasswords.list.isEmpty else {
            throw StartupError("the common-password list is missing from the server's resources — rebuild Cairn")
        }
        app.middleware.use(CrossSiteRequestGuard())
        try api.register(collection: RegistrationController())
        try api.register(collection: SessionController())
        try api.register(collection: AccountController())
        try api.register(collection: AvatarController(maxBytes: app.appConfig.accounts.avatarMaxBytes))
        try api.register(collection: PasswordResetController())
        try api.register(collection: AdminUsersController())
    }

    func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {
        try await UserSession.query(on: db).filter(\.$user.$id == userID).delete()
        try await PasswordResetCode.query(on: db).filter(\.$user.$id == userID).delete()
        try await User.query(on: db).filter(\.$id == userID).delete()
    }

    /// The device's unit settings (`guest_data.settings.units`) become the account's when it has none yet.
    func adoptGuestData(_ data: GuestData, for userID: UUID, on db: any Database, app: Application) async throws {
        struct Settings: Decodable { var units: UnitPreferences? }
        guard let units = data.decode("settings", as: Settings.self)?.units,
            ["km", "mi"].contains(units.distance), ["C", "F"].contains(units.temperature),
            ["m", "ft"].contains(units.elevation),
            let user = try await User.find(userID, on: db), user.units == nil
        else { return }
        user.units = units
        try await user.save(on: db)
    }

    /// The demo account (README): username `demo`, password `Summit-Path-42!`.
    func seedDemo(on app: Application) async throws {
        guard try await UserDirectory.byUsername(DemoAccount.username, on: app.db) == nil else { return }
        _ = try await AccountAdministration.create(
            .init(
                username: DemoAccount.username, email: DemoAccount.email, firstName: "Dana", lastName: "Demo",
                password: DemoAccount.password, role: .user),
            app: app)
    }
}

/// The demo user `cairn seed-demo` creates.
public enum DemoAccount {
    public static let username = "demo"
    public static let email = "demo@cairn.invalid"
    public static let password = "Summit-Path-42!"
}
