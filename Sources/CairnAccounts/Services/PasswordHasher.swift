import CairnPlatform
import Crypto
import Encodings
import Foundation
import NIOConcurrencyHelpers
import NIOPosix
import Vapor

/// bcrypt with a SHA-256 pre-hash: bcrypt reads only the first 72 bytes of its input, so the password is
/// first hashed with SHA-256 and base64-encoded (44 bytes, no NUL), and every byte of a long password
/// counts. Hashing runs on the password executor (`PlatformServices.passwordWork`), threads of its own, so it never holds up an event loop, an
/// async handler or a database query, and planning never holds up a login.
///
/// The cost (`CAIRN_PASSWORD_HASH_COST`, default 10) is stored in each hash, so raising it later keeps
/// old hashes valid; see docs/accounts.md for the measured time per hash.
struct PasswordHasher: Sendable {
    let cost: Int
    let executor: BoundedExecutor

    /// The bcrypt input for `password`.
    static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }

    func hash(_ password: String) async throws -> String {
        let cost = cost
        return try await executor.run("checking passwords") { try Bcrypt.hash(Self.prehash(password), cost: cost) }
    }

    func verify(_ password: String, against hash: String) async throws -> Bool {
        try await executor.run("checking passwords") { try Bcrypt.verify(Self.prehash(password), created: hash) }
    }

    /// Spends the time of one verification without a stored hash, so that a login for an unknown user
    /// takes as long as one with a wrong password and response times do not tell which usernames exist.
    func verifyNothing(_ password: String) async throws {
        _ = try await verify(password, against: Self.decoy(cost: cost))
    }

    private static let decoys = NIOLockedValueBox<[Int: String]>([:])

    private static func decoy(cost: Int) throws -> String {
        if let hash = decoys.withLockedValue({ $0[cost] }) { return hash }
        let hash = try Bcrypt.hash(Base64URL.random(), cost: cost)
        decoys.withLockedValue { $0[cost] = hash }
        return hash
    }
}
