/// What the user's profile says about their body, for steps and calories (Trailz 3.2.3.2.3). Every value is
/// optional: steps use a default height, calories need all three.
public struct BodyProfile: Sendable, Hashable, Codable {
    public var ageYears: Int?
    public var weightKilograms: Double?
    public var heightCentimeters: Double?

    /// The height steps are estimated with when the profile has none: 170 cm, about the adult mean.
    public static let defaultHeightCentimeters = 170.0

    public init(ageYears: Int? = nil, weightKilograms: Double? = nil, heightCentimeters: Double? = nil) {
        self.ageYears = ageYears
        self.weightKilograms = weightKilograms
        self.heightCentimeters = heightCentimeters
    }

    /// Whether calories can be estimated: age, weight and height are all known.
    public var allowsCalories: Bool { ageYears != nil && weightKilograms != nil && heightCentimeters != nil }
}

/// What kind of activity is recorded: it decides the MET table and the stride.
public enum ActivityKind: String, Sendable, Hashable, Codable, CaseIterable {
    case run
    case hike
}
