/// Which OSM ways a pedestrian may use, with what class, and whether they are under a roof. The rule is
/// documented, with examples, in docs/streets.md; change both together.
public enum WalkableWayRule {
    /// `foot=*` values that grant access even where `access=*` forbids it.
    static let footGrants: Set<String> = ["yes", "designated", "permissive"]
    /// `foot=*` values that forbid walking (`use_sidepath`: walk on the separately mapped sidewalk).
    static let footForbids: Set<String> = ["no", "private", "use_sidepath"]
    /// `access=*` values that forbid walking unless `foot=*` grants it.
    static let accessForbids: Set<String> = ["no", "private"]
    /// `sidewalk=*` (and `sidewalk:left|right|both=*`) values saying a sidewalk is part of the road.
    static let sidewalkPresent: Set<String> = ["yes", "both", "left", "right"]
    /// Classes whose ways are routed along their outline when tagged `area=yes` (squares, platforms).
    static let areaClasses: Set<HighwayClass> = [.pedestrian, .footway, .path, .platform, .corridor]
    /// Classes for which `tunnel=yes` means a pedestrian underpass rather than a road tunnel.
    static let pedestrianClasses: Set<HighwayClass> = [
        .footway, .path, .pedestrian, .steps, .cycleway, .corridor, .platform,
    ]

    /// The class and flags of a way a pedestrian may walk along, or nil when the way is not walkable.
    public static func classify(_ tags: OSMTags) -> (highway: HighwayClass, flags: StreetGraph.EdgeFlags)? {
        let highwayClass: HighwayClass
        if let highway = tags["highway"] {
            // `trail` is not an approved value, but where mappers use it they mean a path.
            guard let known = highway == "trail" ? .path : HighwayClass(osmValue: highway) else { return nil }
            highwayClass = known
        } else if tags["railway"] == "platform" || tags["public_transport"] == "platform" {
            highwayClass = .platform
        } else {
            return nil
        }
        let foot = tags["foot"]
        let footGranted = foot.map(footGrants.contains) ?? false
        if let foot, footForbids.contains(foot) { return nil }
        if let access = tags["access"], accessForbids.contains(access), !footGranted { return nil }
        if tags["motorroad"] == "yes", !footGranted { return nil }
        if highwayClass == .trunk, !footGranted, !hasSidewalk(tags) { return nil }
        if tags["area"] == "yes", !areaClasses.contains(highwayClass) { return nil }
        return (highwayClass, isSheltered(tags, highwayClass) ? .sheltered : [])
    }

    static func hasSidewalk(_ tags: OSMTags) -> Bool {
        ["sidewalk", "sidewalk:both", "sidewalk:left", "sidewalk:right"].contains { key in
            tags[key].map(sidewalkPresent.contains) ?? false
        }
    }

    /// Under a roof: see docs/streets.md, "Sheltered".
    static func isSheltered(_ tags: OSMTags, _ highwayClass: HighwayClass) -> Bool {
        if let covered = tags["covered"], ["yes", "arcade", "colonnade"].contains(covered) { return true }
        switch tags["tunnel"] {
        case "building_passage": return true
        case "yes" where pedestrianClasses.contains(highwayClass): return true
        default: break
        }
        if highwayClass == .corridor { return true }
        if let indoor = tags["indoor"], indoor != "no" { return true }
        if let location = tags["location"], ["underground", "indoor"].contains(location),
            pedestrianClasses.contains(highwayClass)
        {
            return true
        }
        if tags.contains(where: { $0.key.hasPrefix("arcade:") && $0.value != "no" }) { return true }
        if highwayClass == .platform,
            tags["amenity"] == "shelter" || (tags["shelter"].map { $0 != "no" } ?? false)
        {
            return true
        }
        return false
    }
}
