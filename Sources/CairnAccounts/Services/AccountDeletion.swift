import CairnPlatform
import Fluent
import Foundation
import Vapor

/// Deletes an account and everything of its user in every module: one transaction over every other module's
/// `deleteUserData` (latest module first) and then Accounts' own rows; then, once the rows are gone, its live
/// connections, its files, and its messages in the outbox folder when mail goes there.
struct AccountDeletion {
    let accounts: AccountsContext

    func delete(_ userID: UUID, on db: any Database) async throws {
        let platform = accounts.platform
        let email = try await User.find(userID, on: db)?.email
        let files = UserFileDeletions()
        try await platform.writer.transaction(on: db) { transaction in
            try await accounts.modules.deleteUserData(userID, on: transaction, files: files)
            try await AccountsModule(accounts: accounts).deleteUserData(userID, on: transaction, files: files)
        }
        await accounts.endLiveConnections(of: userID)
        // Removing a folder tree is file IO: on the thread pool, never on the cooperative pool.
        let leftBehind = try await platform.fileWork.run {
            var failures: [(path: String, error: String)] = []
            for url in files.pending + [platform.userFiles.folder(for: userID)]
            where FileManager.default.fileExists(atPath: url.path) {
                do {
                    try FileManager.default.removeItem(at: url)
                } catch {
                    failures.append((url.path, "\(error)"))
                }
            }
            if let email, let outbox = platform.mail as? OutboxMailTransport {
                outbox.removeMessages(to: email)
            }
            return failures
        }
        for failure in leftBehind {
            platform.logger.error(
                "file of a deleted user left behind",
                metadata: ["path": "\(failure.path)", "error": "\(failure.error)"])
        }
        platform.logger.notice("account deleted", metadata: ["user": "\(userID)"])
    }
}
