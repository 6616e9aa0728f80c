import CairnAPI
import Fluent
import Foundation

/// The catalogue's trail with this id, as an activity keeps it (name, difficulty, region), or nil when there is
/// none. The composition root passes the Trails module's; without one, no trail id is known.
package typealias TrailLookup = @Sendable (UUID, any Database) async throws -> ActivityTrail?
