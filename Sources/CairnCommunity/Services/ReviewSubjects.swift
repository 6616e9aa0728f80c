import Fluent
import Foundation
import NIOConcurrencyHelpers

/// What may be reviewed, by kind: each module that offers reviews (Trails: `trail`, Ski: `mountain`) registers
/// its kind with a check that an id names something real, once at start-up. A subject is `KIND:ID`.
package final class ReviewSubjects: Sendable {
    /// One kind of subject.
    package struct Kind: Sendable {
        /// Lowercase letters, digits and hyphens: `trail`.
        package let name: String
        /// Whether `id` names something that exists.
        package let exists: @Sendable (_ id: String, _ db: any Database) async throws -> Bool

        package init(name: String, exists: @escaping @Sendable (_ id: String, _ db: any Database) async throws -> Bool)
        {
            self.name = name
            self.exists = exists
        }
    }

    private let kinds = NIOLockedValueBox<[String: Kind]>([:])

    package init() {}

    /// Adds a kind; registering a name twice replaces the check.
    package func register(_ kind: Kind) {
        precondition(kind.name.wholeMatch(of: /[a-z][a-z0-9-]{0,31}/) != nil, "bad review subject kind \(kind.name)")
        kinds.withLockedValue { $0[kind.name] = kind }
    }

    /// The registered kinds' names, sorted.
    package var names: [String] { kinds.withLockedValue { $0.keys.sorted() } }

    func kind(_ name: String) -> Kind? { kinds.withLockedValue { $0[name] } }

    /// The whole community: `community:best-moments` and `community:general`.
    package static let community = Kind(name: "community") { id, _ in ["best-moments", "general"].contains(id) }
}
