import Fluent
import Foundation
import Vapor

/// Deletes an account and everything of its user in every module: one transaction over every module's
/// `deleteUserData` (latest module first, Accounts last), then the files, once the rows are gone, and the
/// user's messages in the outbox folder when mail goes there.
enum AccountDeletion {
    static func delete(_ userID: UUID, app: Application, on db: any Database) async throws {
        let email = try await User.find(userID, on: db)?.email
        let files = UserFileDeletions()
        try await app.writeTransaction(on: db) { transaction in
            for module in CairnModules.all.reversed() {
                try await module.deleteUserData(userID, on: transaction, files: files)
            }
        }
        for url in files.pending + [app.userFiles.folder(for: userID)]
        where FileManager.default.fileExists(atPath: url.path) {
            do {
                try FileManager.default.removeItem(at: url)
            } catch {
                app.logger.error(
                    "file of a deleted user left behind", metadata: ["path": "\(url.path)", "error": "\(error)"])
            }
        }
        if let email, let outbox = app.externalServices.mail as? OutboxMailTransport {
            outbox.removeMessages(to: email)
        }
        app.logger.notice("account deleted", metadata: ["user": "\(userID)"])
    }
}
