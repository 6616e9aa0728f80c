import CairnPlatform
import Fluent
import Foundation

/// The catalogue's version (`flora_catalogue_state`, one row): every import that changes a species, tag or
/// filter raises it, so each server process (and each device) knows when its copy is stale.
final class CatalogueState: VersionRow, @unchecked Sendable {
    static let schema = "flora_catalogue_state"

    @ID(custom: "id", generatedBy: .user) var id: Int?
    @Field(key: "version") var version: Int
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(version: Int, updatedAt: Date) {
        id = Self.rowID
        self.version = version
        self.updatedAt = updatedAt
    }
}
