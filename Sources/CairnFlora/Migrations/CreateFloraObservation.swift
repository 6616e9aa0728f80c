import CairnAccounts
import CairnPlatform
import Fluent

/// Observations, indexed by species (the distribution map, newest first), by user (their list, account
/// deletion), by status (the review queue) and by place (`ObservationArea`'s box queries).
package struct CreateFloraObservation: AsyncMigration {
    static let indexes = [
        TableIndex("flora_observations_species_id_observed_at", on: Observation.schema, "species_id", "observed_at"),
        TableIndex("flora_observations_user_id_created_at", on: Observation.schema, "user_id", "created_at"),
        TableIndex("flora_observations_status_created_at", on: Observation.schema, "status", "created_at"),
        TableIndex("flora_observations_latitude_longitude", on: Observation.schema, "latitude", "longitude"),
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(Observation.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field(
                "species_id", .string, .required,
                .references(SpeciesRecord.schema, "id", onDelete: .restrict)
            )
            .field("user_id", .uuid, .references(User.schema, "id", onDelete: .cascade))
            .field("recorded_by", .string, .required)
            .field("latitude", .double, .required)
            .field("longitude", .double, .required)
            .field("accuracy_m", .double)
            .field("public_latitude", .double, .required)
            .field("public_longitude", .double, .required)
            .field("public_uncertainty_m", .double)
            .field("generalised", .bool, .required)
            .field("observed_at", .datetime, .required)
            .field("comment", .string, .required)
            .field("status", .string, .required)
            .field("rejection_reason", .string)
            .field("verified_by", .string)
            .field("verified_at", .datetime)
            .field("photo_format", .string)
            .field("upload_hash", .string, .required)
            .field("created_at", .datetime, .required)
            .create()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        try await database.schema(Observation.schema).delete()
    }
}
