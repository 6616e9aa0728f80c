/// A plant species of the field guide.
public struct Species: Sendable, Hashable, Codable {
    /// A stable slug (`silene-acaulis`), the key every import and observation uses.
    public var id: String
    public var scientificName: String
    public var commonName: String
    /// The family's scientific name (`Caryophyllaceae`); its tag is `family-<lowercased name>`.
    public var family: String
    public var group: PlantGroup
    /// Colours of the flowers, from `FlowerColor`'s vocabulary; empty for plants without showy flowers.
    public var flowerColors: [FlowerColor]
    /// Months it flowers in, 1–12, ascending; empty for plants that do not flower (ferns, conifers).
    public var floweringMonths: [Int]
    /// Habitats, as slugs (`fellfield`, `snowbed`).
    public var habitats: [String]
    public var elevationMinMeters: Int?
    public var elevationMaxMeters: Int?
    /// Whether the public sees only generalised coordinates of its observations.
    public var sensitive: Bool
    /// Its tags besides the family's (`form-cushion`).
    public var tagIDs: [String]
    /// The image's file name in the import's image folder, if it has one.
    public var image: String?
    public var description: String

    public init(
        id: String, scientificName: String, commonName: String, family: String, group: PlantGroup,
        flowerColors: [FlowerColor], floweringMonths: [Int], habitats: [String], elevationMinMeters: Int?,
        elevationMaxMeters: Int?, sensitive: Bool, tagIDs: [String], image: String?, description: String
    ) {
        self.id = id
        self.scientificName = scientificName
        self.commonName = commonName
        self.family = family
        self.group = group
        self.flowerColors = flowerColors
        self.floweringMonths = floweringMonths
        self.habitats = habitats
        self.elevationMinMeters = elevationMinMeters
        self.elevationMaxMeters = elevationMaxMeters
        self.sensitive = sensitive
        self.tagIDs = tagIDs
        self.image = image
        self.description = description
    }

    /// The family's tag id.
    public var familyTagID: String { Tag.familyID(family) }
}

/// The broad kinds of plant the guide is organised by.
public enum PlantGroup: String, Sendable, Hashable, Codable, CaseIterable {
    case wildflower
    case graminoid
    case shrubTree = "shrub-tree"
    case fernAlly = "fern-ally"
}

/// Flower colours, as a field naturalist would name them at a glance.
public enum FlowerColor: String, Sendable, Hashable, Codable, CaseIterable {
    case white, yellow, pink, red, purple, blue, green, brown
}

/// A tag of species: a family (whose parent is its order), an order, a growth form… Selecting a tag selects
/// its descendants too, so "Asterales" finds daisies and bellflowers.
public struct Tag: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    /// `family`, `order`, `form` or any other word the catalogue uses.
    public var kind: String
    public var parentID: String?

    public init(id: String, name: String, kind: String, parentID: String?) {
        self.id = id
        self.name = name
        self.kind = kind
        self.parentID = parentID
    }

    /// `family-asteraceae` for `Asteraceae`.
    public static func familyID(_ family: String) -> String { "family-" + family.lowercased() }
}

/// A filter of the guide's filter menu. Filters of one group are alternatives (any of them may match);
/// filters of different groups must all match. An exclusive filter (a plant group) is chosen first and
/// narrows the menu to the filters that apply to it (`appliesTo`).
public struct FilterDefinition: Sendable, Hashable, Codable {
    public enum Field: String, Sendable, Hashable, Codable, CaseIterable {
        case group, color, month, habitat, tag
    }

    public var id: String
    public var group: String
    public var label: String
    public var exclusive: Bool
    public var field: Field
    public var value: String
    /// The exclusive filters this filter is offered with; empty for all.
    public var appliesTo: [String]
    /// Its place in the menu (the file's order).
    public var position: Int

    public init(
        id: String, group: String, label: String, exclusive: Bool, field: Field, value: String, appliesTo: [String],
        position: Int
    ) {
        self.id = id
        self.group = group
        self.label = label
        self.exclusive = exclusive
        self.field = field
        self.value = value
        self.appliesTo = appliesTo
        self.position = position
    }
}
