import CairnPlatform
import Fluent

/// The catalogue's tables: tags (with their parent), species, the filter menu and the catalogue's version.
package struct CreateFloraCatalogue: AsyncMigration {
    static let indexes = [TableIndex("flora_tags_parent_id", on: TagRecord.schema, "parent_id")]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(TagRecord.schema)
            .field("id", .string, .identifier(auto: false))
            .field("name", .string, .required)
            .field("kind", .string, .required)
            .field("parent_id", .string)
            .create()
        try await TableIndex.create(Self.indexes, on: database)
        try await database.schema(SpeciesRecord.schema)
            .field("id", .string, .identifier(auto: false))
            .field("scientific_name", .string, .required)
            .field("common_name", .string, .required)
            .field("family", .string, .required)
            .field("plant_group", .string, .required)
            .field("flower_colors", .string, .required)
            .field("flowering_months", .string, .required)
            .field("habitats", .string, .required)
            .field("elevation_min_m", .int)
            .field("elevation_max_m", .int)
            .field("sensitive", .bool, .required)
            .field("tag_ids", .string, .required)
            .field("image_file", .string)
            .field("description", .string, .required)
            .unique(on: "scientific_name")
            .create()
        try await database.schema(FilterRecord.schema)
            .field("id", .string, .identifier(auto: false))
            .field("group_name", .string, .required)
            .field("label", .string, .required)
            .field("exclusive", .bool, .required)
            .field("field", .string, .required)
            .field("value", .string, .required)
            .field("applies_to", .string, .required)
            .field("position", .int, .required)
            .create()
        try await database.schema(CatalogueState.schema)
            .field("id", .int, .identifier(auto: false))
            .field("version", .int, .required)
            .field("updated_at", .datetime, .required)
            .create()
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        try await database.schema(CatalogueState.schema).delete()
        try await database.schema(FilterRecord.schema).delete()
        try await database.schema(SpeciesRecord.schema).delete()
        try await database.schema(TagRecord.schema).delete()
    }
}
