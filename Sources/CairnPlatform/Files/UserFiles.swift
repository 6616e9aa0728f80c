import Foundation
import NIOConcurrencyHelpers

/// Where modules keep files that belong to one user: `<data>/users/<user id>/<module>/`. Deleting an
/// account removes the user's whole folder, so a module that keeps its per-user files here needs no
/// file clean-up of its own.
package struct UserFiles: Sendable {
    /// `<data>/users`.
    package let root: URL

    package init(dataDirectory: URL) {
        root = dataDirectory.appendingPathComponent("users", isDirectory: true)
    }

    /// Everything of one user.
    package func folder(for userID: UUID) -> URL {
        root.appendingPathComponent(userID.uuidString.lowercased(), isDirectory: true)
    }

    /// One module's files of one user, created when missing.
    package func folder(for userID: UUID, module: String) throws -> URL {
        let folder = folder(for: userID).appendingPathComponent(module, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// Files to remove once an account's deletion has committed. Collected during the transaction, so a
/// rolled-back deletion leaves every file in place.
package final class UserFileDeletions: Sendable {
    private let files = NIOLockedValueBox<[URL]>([])

    package init() {}

    /// Schedules `url` (a file or a folder) for removal after the commit.
    package func remove(_ url: URL) {
        files.withLockedValue { $0.append(url) }
    }

    package var pending: [URL] { files.withLockedValue { $0 } }
}
