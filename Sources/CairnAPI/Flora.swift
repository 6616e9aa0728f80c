import Foundation

/// The field guide API (`/api/flora…`): the species catalogue with its filters, observations with photos,
/// researchers' verification, distribution maps and the Darwin Core export. Members are snake_case.

/// A species in a list.
public struct FloraSpeciesSummary: Codable, Sendable, Equatable {
    public var id: String
    public var scientificName: String
    public var commonName: String
    public var family: String
    /// `wildflower`, `graminoid`, `shrub-tree` or `fern-ally`.
    public var group: String
    public var flowerColors: [String]
    public var floweringMonths: [Int]
    public var habitats: [String]
    public var sensitive: Bool
    /// The species' image, when the catalogue has one (a drawn placeholder of its family is shown otherwise).
    public var imageUrl: String?

    public init(
        id: String, scientificName: String, commonName: String, family: String, group: String,
        flowerColors: [String], floweringMonths: [Int], habitats: [String], sensitive: Bool, imageUrl: String?
    ) {
        self.id = id
        self.scientificName = scientificName
        self.commonName = commonName
        self.family = family
        self.group = group
        self.flowerColors = flowerColors
        self.floweringMonths = floweringMonths
        self.habitats = habitats
        self.sensitive = sensitive
        self.imageUrl = imageUrl
    }

    enum CodingKeys: String, CodingKey {
        case id, family, group, habitats, sensitive
        case scientificName = "scientific_name"
        case commonName = "common_name"
        case flowerColors = "flower_colors"
        case floweringMonths = "flowering_months"
        case imageUrl = "image_url"
    }
}

/// A tag as a species page shows it.
public struct FloraTagInfo: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var kind: String
    public var parentId: String?

    public init(id: String, name: String, kind: String, parentId: String?) {
        self.id = id
        self.name = name
        self.kind = kind
        self.parentId = parentId
    }

    enum CodingKeys: String, CodingKey {
        case id, name, kind
        case parentId = "parent_id"
    }
}

/// `GET /api/flora/species/{id}`: everything the species page shows.
public struct FloraSpeciesDetail: Codable, Sendable, Equatable {
    public var species: FloraSpeciesSummary
    public var description: String
    public var elevationMinM: Int?
    public var elevationMaxM: Int?
    /// The family's tag, its order, and the species' other tags.
    public var tags: [FloraTagInfo]
    /// Observations that are not rejected, and how many of them a researcher verified.
    public var observationCount: Int
    public var verifiedCount: Int

    public init(
        species: FloraSpeciesSummary, description: String, elevationMinM: Int?, elevationMaxM: Int?,
        tags: [FloraTagInfo], observationCount: Int, verifiedCount: Int
    ) {
        self.species = species
        self.description = description
        self.elevationMinM = elevationMinM
        self.elevationMaxM = elevationMaxM
        self.tags = tags
        self.observationCount = observationCount
        self.verifiedCount = verifiedCount
    }

    enum CodingKeys: String, CodingKey {
        case species, description, tags
        case elevationMinM = "elevation_min_m"
        case elevationMaxM = "elevation_max_m"
        case observationCount = "observation_count"
        case verifiedCount = "verified_count"
    }
}

/// A filter of the menu with how many species it would leave.
public struct FloraFilterOption: Codable, Sendable, Equatable {
    public var id: String
    public var group: String
    public var label: String
    public var exclusive: Bool
    public var count: Int
    public var selected: Bool

    public init(id: String, group: String, label: String, exclusive: Bool, count: Int, selected: Bool) {
        self.id = id
        self.group = group
        self.label = label
        self.exclusive = exclusive
        self.count = count
        self.selected = selected
    }
}

/// `GET /api/flora/species`: the species matching the chosen filters, and the menu with facet counts.
public struct FloraSpeciesList: Codable, Sendable, Equatable {
    /// One page of the matching species (`limit` from `offset`), by common name.
    public var species: [FloraSpeciesSummary]
    /// How many species match in all.
    public var count: Int
    public var limit: Int
    public var offset: Int
    public var exclusive: String?
    public var filters: [String]
    /// The exclusive filters (chosen first).
    public var exclusiveFilters: [FloraFilterOption]
    /// The other filters on offer with the chosen exclusive filter, in menu order.
    public var availableFilters: [FloraFilterOption]
    /// Changes whenever an import changes the catalogue.
    public var catalogueVersion: Int

    public init(
        species: [FloraSpeciesSummary], count: Int, limit: Int, offset: Int, exclusive: String?, filters: [String],
        exclusiveFilters: [FloraFilterOption], availableFilters: [FloraFilterOption], catalogueVersion: Int
    ) {
        self.species = species
        self.count = count
        self.limit = limit
        self.offset = offset
        self.exclusive = exclusive
        self.filters = filters
        self.exclusiveFilters = exclusiveFilters
        self.availableFilters = availableFilters
        self.catalogueVersion = catalogueVersion
    }

    enum CodingKeys: String, CodingKey {
        case species, count, limit, offset, exclusive, filters
        case exclusiveFilters = "exclusive_filters"
        case availableFilters = "available_filters"
        case catalogueVersion = "catalogue_version"
    }
}

/// A filter as the catalogue defines it (for filtering on the device).
public struct FloraFilterDefinition: Codable, Sendable, Equatable {
    public var id: String
    public var group: String
    public var label: String
    public var exclusive: Bool
    /// `group`, `color`, `month`, `habitat` or `tag`.
    public var field: String
    public var value: String
    public var appliesTo: [String]

    public init(
        id: String, group: String, label: String, exclusive: Bool, field: String, value: String, appliesTo: [String]
    ) {
        self.id = id
        self.group = group
        self.label = label
        self.exclusive = exclusive
        self.field = field
        self.value = value
        self.appliesTo = appliesTo
    }

    enum CodingKeys: String, CodingKey {
        case id, group, label, exclusive, field, value
        case appliesTo = "applies_to"
    }
}

/// `GET /api/flora/catalogue`: the whole guide, kept on the device so it works without a signal.
public struct FloraCatalogue: Codable, Sendable, Equatable {
    public var version: Int
    public var species: [FloraSpeciesDetail]
    public var tags: [FloraTagInfo]
    public var filters: [FloraFilterDefinition]

    public init(version: Int, species: [FloraSpeciesDetail], tags: [FloraTagInfo], filters: [FloraFilterDefinition]) {
        self.version = version
        self.species = species
        self.tags = tags
        self.filters = filters
    }
}

/// An observation as the API shows it. For a sensitive species the public sees generalised coordinates
/// (`generalised` true); the observer and researchers see the true point.
public struct FloraObservation: Codable, Sendable, Equatable {
    public var id: UUID
    public var speciesId: String
    public var speciesCommonName: String
    public var speciesScientificName: String
    public var latitude: Double
    public var longitude: Double
    public var accuracyM: Double?
    public var generalised: Bool
    public var observedAt: Date
    public var comment: String
    /// `unverified`, `verified` or `rejected`.
    public var status: String
    public var rejectionReason: String?
    public var verifiedBy: String?
    public var verifiedAt: Date?
    public var recordedBy: String
    public var mine: Bool
    public var photoUrl: String?
    public var thumbnailUrl: String?
    public var createdAt: Date

    public init(
        id: UUID, speciesId: String, speciesCommonName: String, speciesScientificName: String, latitude: Double,
        longitude: Double, accuracyM: Double?, generalised: Bool, observedAt: Date, comment: String, status: String,
        rejectionReason: String?, verifiedBy: String?, verifiedAt: Date?, recordedBy: String, mine: Bool,
        photoUrl: String?, thumbnailUrl: String?, createdAt: Date
    ) {
        self.id = id
        self.speciesId = speciesId
        self.speciesCommonName = speciesCommonName
        self.speciesScientificName = speciesScientificName
        self.latitude = latitude
        self.longitude = longitude
        self.accuracyM = accuracyM
        self.generalised = generalised
        self.observedAt = observedAt
        self.comment = comment
        self.status = status
        self.rejectionReason = rejectionReason
        self.verifiedBy = verifiedBy
        self.verifiedAt = verifiedAt
        self.recordedBy = recordedBy
        self.mine = mine
        self.photoUrl = photoUrl
        self.thumbnailUrl = thumbnailUrl
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, latitude, longitude, generalised, comment, status, mine
        case speciesId = "species_id"
        case speciesCommonName = "species_common_name"
        case speciesScientificName = "species_scientific_name"
        case accuracyM = "accuracy_m"
        case observedAt = "observed_at"
        case rejectionReason = "rejection_reason"
        case verifiedBy = "verified_by"
        case verifiedAt = "verified_at"
        case recordedBy = "recorded_by"
        case photoUrl = "photo_url"
        case thumbnailUrl = "thumbnail_url"
        case createdAt = "created_at"
    }
}

/// A list of observations (the user's own, or a researcher's review queue).
public struct FloraObservationList: Codable, Sendable, Equatable {
    public var observations: [FloraObservation]

    public init(observations: [FloraObservation]) { self.observations = observations }
}

/// How many rows of one kind an import created, changed and found unchanged.
public struct FloraImportCounts: Codable, Sendable, Equatable {
    public var created: Int
    public var updated: Int
    public var unchanged: Int

    public init(created: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.created = created
        self.updated = updated
        self.unchanged = unchanged
    }
}

/// `POST /api/flora/import`: what an import did.
public struct FloraImportResult: Codable, Sendable, Equatable {
    public var tags: FloraImportCounts
    public var species: FloraImportCounts
    public var filters: FloraImportCounts
    public var observations: FloraImportCounts
    public var catalogueVersion: Int

    public init(
        tags: FloraImportCounts, species: FloraImportCounts, filters: FloraImportCounts,
        observations: FloraImportCounts, catalogueVersion: Int
    ) {
        self.tags = tags
        self.species = species
        self.filters = filters
        self.observations = observations
        self.catalogueVersion = catalogueVersion
    }

    enum CodingKeys: String, CodingKey {
        case tags, species, filters, observations
        case catalogueVersion = "catalogue_version"
    }
}
