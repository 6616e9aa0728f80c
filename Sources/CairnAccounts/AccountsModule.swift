import CairnAPI
import CairnPlatform
import Fluent
import Foundation
import Vapor

/// One identity for all five apps: registration, login and sessions, guest mode, password reset,
/// profile and picture, roles, and account deletion across every module.
///
/// Other modules get the signed-in user from the `Identity` the composition root hands them
/// (`identity.requireUser(req, to:)`, `currentUser(_:)`, `requireRole(_:_:)`) and implement
/// `CairnModule.deleteUserData` and, where guests keep data on the device, `adoptGuestData`; Accounts reaches
/// them through the `ModuleRegistry` it is given.
package struct AccountsModule: CairnModule {
    let accounts: AccountsContext

    /// - Parameter modules: every other module, in composition order (account deletion, guest data).
    package init(config: AccountsConfig, identity: Identity, platform: PlatformServices, modules: ModuleRegistry) {
        self.init(accounts: AccountsContext(config: config, platform: platform, identity: identity, modules: modules))
    }

    init(accounts: AccountsContext) {
        self.accounts = accounts
    }

    package var openAPIFragment: URL? { OpenAPIDocument.fragment("accounts", in: .module) }

    package var middleware: [any Middleware] {
        [CrossSiteRequestGuard(origins: accounts.platform.origins)]
    }

    package func boot(api: any RoutesBuilder) throws {
        guard !CommonPasswords.list.isEmpty else {
            throw StartupError("the common-password list is missing from the server's resources — rebuild Cairn")
        }
        try api.register(collection: RegistrationController(accounts: accounts))
        try api.register(collection: SessionController(accounts: accounts))
        try api.register(collection: AccountController(accounts: accounts))
        try api.register(collection: AvatarController(accounts: accounts))
        try api.register(collection: PasswordResetController(accounts: accounts))
        try api.register(collection: AdminUsersController(accounts: accounts))
    }

    /// Who is asking, as the other modules get it.
    package var identity: Identity { accounts.identity }

    /// Operators' account tasks (`cairn user create`, `cairn user set-role`).
    package var administration: AccountAdministration { accounts.administration }

    /// The user's sessions, reset codes, any sign-up still waiting with the user's email, and the user row;
    /// `AccountDeletion` runs it after every other module's.
    package func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {
        if let user = try await User.find(userID, on: db) {
            try await PendingRegistration.query(on: db).filter(\.$emailKey == user.emailKey).delete()
        }
        try await UserSession.query(on: db).filter(\.$user.$id == userID).delete()
        try await PasswordResetCode.query(on: db).filter(\.$user.$id == userID).delete()
        try await User.query(on: db).filter(\.$id == userID).delete()
    }

    /// The device's unit settings (`guest_data.settings.units`) become the account's when it has none yet.
    static func adoptUnits(_ data: GuestData, for userID: UUID, on db: any Database) async throws {
        struct Settings: Decodable { var units: UnitPreferences? }
        guard let units = data.decode("settings", as: Settings.self)?.units,
            let user = try await User.find(userID, on: db), user.units == nil
        else { return }
        user.units = units
        try await user.save(on: db)
    }

    /// The demo account (README): username `demo`, password `Summit-Path-42!`.
    package func seedDemo(on db: any Database) async throws {
        guard try await UserDirectory.byUsername(DemoAccount.username, on: db) == nil else { return }
        _ = try await accounts.administration.create(
            .init(
                username: DemoAccount.username, email: DemoAccount.email, firstName: "Dana", lastName: "Demo",
                password: DemoAccount.password, role: .user),
            on: db)
    }
}

/// The demo user `cairn seed-demo` creates.
public enum DemoAccount {
    public static let username = "demo"
    public static let email = "demo@cairn.invalid"
    public static let password = "Summit-Path-42!"
}
