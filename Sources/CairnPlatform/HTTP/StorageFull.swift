import CairnAPI
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import NIOCore
import Vapor

/// The disk under the data folder (or PostgreSQL's) is full: SQLite said SQLITE_FULL, PostgreSQL disk_full
/// (53100), or a file write failed with ENOSPC or EDQUOT. The write that met it was rolled back — SQLite and
/// PostgreSQL undo the whole transaction, and Cairn's file writes leave no partial file (`WholeFile`) — so
/// nothing was changed, and the same request succeeds once the operator frees space, without a restart.
/// The client is told 507 Insufficient Storage with `Retry-After`, not a server fault (500); reads go on.
package enum StorageFull {
    /// How long a client should wait before trying again, in seconds: freeing space takes a person.
    package static let retryAfterSeconds = 300

    package static let problem = Problem(
        status: .insufficientStorage,
        detail:
            "The server has run out of storage space, so this could not be saved. Nothing was changed; try again later.",
        type: "/problems/storage-full",
        retryAfterSeconds: retryAfterSeconds)

    /// PostgreSQL's SQLSTATE disk_full ("could not extend file …: No space left on device").
    private static let postgresDiskFull = "53100"

    /// Whether `error`, or an error it wraps, says the storage is full.
    package static func matches(_ error: any Error) -> Bool {
        switch error {
        case let sqlite as SQLiteError:
            return sqlite.reason == .full
        case let postgres as PSQLError:
            return postgres.serverInfo?[.sqlState] == postgresDiskFull
        case let io as IOError:
            return isOutOfSpace(errno: io.errnoCode)
        case let posix as POSIXError:
            return isOutOfSpace(errno: posix.code.rawValue)
        case let cocoa as CocoaError where cocoa.code == .fileWriteOutOfSpace:
            return true
        default:
            let error = error as NSError
            if error.domain == NSPOSIXErrorDomain, isOutOfSpace(errno: Int32(truncatingIfNeeded: error.code)) {
                return true
            }
            if error.domain == NSCocoaErrorDomain, error.code == CocoaError.fileWriteOutOfSpace.rawValue {
                return true
            }
            guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error else { return false }
            return matches(underlying)
        }
    }

    /// ENOSPC (no space left on the device) or EDQUOT (the user's quota is used up).
    private static func isOutOfSpace(errno code: Int32) -> Bool {
        code == ENOSPC || code == EDQUOT
    }
}
