import Flora
import Fluent
import Foundation

/// A stored species (`flora_species`). Lists are kept as `;`-separated text, as the import files write them.
final class SpeciesRecord: Model, @unchecked Sendable {
    static let schema = "flora_species"

    @ID(custom: "id", generatedBy: .user) var id: String?
    @Field(key: "scientific_name") var scientificName: String
    @Field(key: "common_name") var commonName: String
    @Field(key: "family") var family: String
    @Field(key: "plant_group") var group: String
    @Field(key: "flower_colors") var flowerColors: String
    @Field(key: "flowering_months") var floweringMonths: String
    @Field(key: "habitats") var habitats: String
    @OptionalField(key: "elevation_min_m") var elevationMinMeters: Int?
    @OptionalField(key: "elevation_max_m") var elevationMaxMeters: Int?
    @Field(key: "sensitive") var sensitive: Bool
    @Field(key: "tag_ids") var tagIDs: String
    /// The stored image's file name in the data folder's `flora/images`, when the species has one.
    @OptionalField(key: "image_file") var imageFile: String?
    @Field(key: "description") var descriptionText: String

    init() {}

    init(_ species: Species, imageFile: String?) {
        id = species.id
        update(species, imageFile: imageFile)
    }

    func update(_ species: Species, imageFile: String?) {
        scientificName = species.scientificName
        commonName = species.commonName
        family = species.family
        group = species.group.rawValue
        flowerColors = species.flowerColors.map(\.rawValue).joined(separator: ";")
        floweringMonths = species.floweringMonths.map(String.init).joined(separator: ";")
        habitats = species.habitats.joined(separator: ";")
        elevationMinMeters = species.elevationMinMeters
        elevationMaxMeters = species.elevationMaxMeters
        sensitive = species.sensitive
        tagIDs = species.tagIDs.joined(separator: ";")
        self.imageFile = imageFile
        descriptionText = species.description
    }

    var species: Species {
        func list(_ text: String) -> [String] { text.split(separator: ";").map(String.init) }
        return Species(
            id: id ?? "", scientificName: scientificName, commonName: commonName, family: family,
            group: PlantGroup(rawValue: group) ?? .wildflower,
            flowerColors: list(flowerColors).compactMap(FlowerColor.init(rawValue:)),
            floweringMonths: list(floweringMonths).compactMap { Int($0) }, habitats: list(habitats),
            elevationMinMeters: elevationMinMeters, elevationMaxMeters: elevationMaxMeters, sensitive: sensitive,
            tagIDs: list(tagIDs), image: imageFile, description: descriptionText)
    }
}
