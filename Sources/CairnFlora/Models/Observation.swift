import CairnAccounts
import Flora
import Fluent
import Foundation

/// A sighting of a species (`flora_observations`): recorded in the app by a user (its id made on the device,
/// so a retried upload is the same row), or imported from a researcher's file (no user, `recorded_by`).
final class Observation: Model, @unchecked Sendable {
    static let schema = "flora_observations"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Parent(key: "species_id") var species: SpeciesRecord
    @OptionalParent(key: "user_id") var user: User?
    @Field(key: "recorded_by") var recordedBy: String
    @Field(key: "latitude") var latitude: Double
    @Field(key: "longitude") var longitude: Double
    @OptionalField(key: "accuracy_m") var accuracyMeters: Double?
    /// Where the public sees it: the true point, or for a sensitive species a point drawn once in its cell.
    @Field(key: "public_latitude") var publicLatitude: Double
    @Field(key: "public_longitude") var publicLongitude: Double
    @OptionalField(key: "public_uncertainty_m") var publicUncertaintyMeters: Double?
    @Field(key: "generalised") var generalised: Bool
    @Field(key: "observed_at") var observedAt: Date
    @Field(key: "comment") var comment: String
    @Field(key: "status") var status: VerificationStatus
    @OptionalField(key: "rejection_reason") var rejectionReason: String?
    @OptionalField(key: "verified_by") var verifiedBy: String?
    @OptionalField(key: "verified_at") var verifiedAt: Date?
    /// `jpeg` or `png` when the observation has a photo (files `<id>.<ext>` and `<id>-thumb.<ext>`).
    @OptionalField(key: "photo_format") var photoFormat: String?
    /// SHA-256 of the upload, so the same upload again is recognised and a different one refused.
    @Field(key: "upload_hash") var uploadHash: String
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
