import CairnAPI
import CairnPlatform
import Fluent
import Foundation
import Geo
import Vapor

/// The filters Browse and the map share: `q`, `difficulty=easy,moderate`, `min_length_km`, `max_length_km`,
/// `accessible=true`.
struct TrailFilters: Sendable {
    var text: String?
    var difficulties: Set<TrailDifficulty>
    var minLengthMeters: Double?
    var maxLengthMeters: Double?
    var accessibleOnly: Bool

    init(_ input: inout RequestInput) {
        text = input.text("q", label: "the search", length: 1...100, required: false)?.lowercased()
        difficulties = []
        if let raw = input.plainText("difficulty", label: "the difficulty", required: false) {
            for name in raw.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
                guard let difficulty = TrailDifficulty(rawValue: name) else {
                    input.fail(
                        "difficulty", "difficulty must be easy, moderate or hard, or several separated by commas.")
                    break
                }
                difficulties.insert(difficulty)
            }
        }
        minLengthMeters = input.number("min_length_km", in: 0...1_000, required: false).map { $0 * 1_000 }
        maxLengthMeters = input.number("max_length_km", in: 0...1_000, required: false).map { $0 * 1_000 }
        if let low = minLengthMeters, let high = maxLengthMeters, low > high {
            input.fail("max_length_km", "max_length_km must be at least min_length_km.")
        }
        accessibleOnly = input.boolean("accessible", default: false)
    }

    func apply(to query: QueryBuilder<TrailRecord>) -> QueryBuilder<TrailRecord> {
        var query = query
        if let text {
            query = query.filter(\.$searchText ~~ Self.escapeLike(text))
        }
        if !difficulties.isEmpty { query = query.filter(\.$difficulty ~~ difficulties.map(\.rawValue)) }
        if let minLengthMeters { query = query.filter(\.$lengthMeters >= minLengthMeters) }
        if let maxLengthMeters { query = query.filter(\.$lengthMeters <= maxLengthMeters) }
        if accessibleOnly { query = query.filter(\.$accessible == true) }
        return query
    }

    /// Whether a trail of the map's index passes: the tests `apply` makes in SQL, on the values in memory (the
    /// search as `LIKE '%text%'` on the lower-cased search text, byte for byte).
    func admit(_ trail: TrailMapIndex.Entry) -> Bool {
        if !difficulties.isEmpty && !difficulties.contains(where: { $0.rawValue == trail.difficulty }) { return false }
        if let minLengthMeters, trail.lengthMeters < minLengthMeters { return false }
        if let maxLengthMeters, trail.lengthMeters > maxLengthMeters { return false }
        if accessibleOnly && !trail.accessible { return false }
        if let text {
            let needle = Array(Self.escapeLike(text).utf8)
            if !needle.isEmpty && trail.searchText.firstRange(of: needle) == nil { return false }
        }
        return true
    }

    /// `%` and `_` match themselves: they are dropped from the search (names rarely hold them).
    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "").replacingOccurrences(of: "_", with: "")
    }
}

/// `GET /api/trails?q=&difficulty=&min_length_km=&max_length_km=&accessible=&near=LAT,LON&radius_km=&sort=&page=&limit=`.
struct TrailsListQuery {
    enum SortKey: String, CaseIterable, Sendable { case name, length, distance }

    let filters: TrailFilters
    let near: Coordinate?
    let radiusMeters: Double
    let sort: CairnPlatform.SortOrder<SortKey>
    let page: NumberedPage

    init(_ req: Request) throws {
        var input = RequestInput(query: req)
        filters = TrailFilters(&input)
        let origin = input.point("near", required: false)
        near = origin
        radiusMeters = input.number("radius_km", in: 0.1...500, default: 100) * 1_000
        sort = input.sort(default: CairnPlatform.SortOrder(origin == nil ? SortKey.name : .distance))
        if sort.key == .distance && origin == nil {
            input.fail("sort", "sort=distance needs near=LAT,LON: where to measure from.")
        }
        page = input.numberedPage(defaultLimit: 20, maxLimit: 100)
        // The map's zoom matters only with a bbox, but a bad one is refused here too, as the document says.
        _ = input.integer("zoom", in: 0...20, default: 13)
        try input.finish()
    }
}

/// `GET /api/trails?bbox=W,S,E,N&zoom=&limit=&pois=` and the filters: the map's trails in view, with the
/// points of interest of the kinds in `pois` (the map's overlays: scenic overlooks, waterfalls).
struct TrailsMapQuery {
    let box: BoundingBox
    let zoom: Int
    let limit: Int
    let filters: TrailFilters
    /// Empty when the map asked for no points of interest.
    let poiKinds: Set<TrailPOIKind>

    init(_ req: Request) throws {
        var input = RequestInput(query: req)
        let box = input.box("bbox", maxSpanDegrees: 2)
        zoom = input.integer("zoom", in: 0...20, default: 13)
        limit = input.integer("limit", in: 1...2_000, default: 500)
        filters = TrailFilters(&input)
        var kinds: Set<TrailPOIKind> = []
        if let raw = input.plainText("pois", label: "the points of interest", required: false) {
            for name in raw.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
                guard let kind = TrailPOIKind(rawValue: name) else {
                    input.fail(
                        "pois",
                        "pois must be one or more of \(TrailPOIKind.allCases.map(\.rawValue).joined(separator: ", ")), separated by commas."
                    )
                    break
                }
                kinds.insert(kind)
            }
        }
        poiKinds = kinds
        self.box = try input.finish(box)
    }
}

/// `PATCH /api/trails/{id}`: an admin's edit of any of the trail's facts; members left out stay as they are.
struct TrailEdit {
    static let fields: Set<String> = [
        "name", "description", "region", "city", "difficulty", "accessible", "photo_url", "trailhead", "fees",
        "season_hours", "parking_rules", "additional_fees", "rangers", "safety", "hunting_area", "hunting_notice",
        "points_of_interest", "amenities", "focal_points", "demo_facts",
    ]

    var name: String?
    var description: String?
    var region: String?
    var city: String?
    var difficulty: TrailDifficulty?
    var accessible: Bool?
    var photoURL: String??
    var trailhead: Coordinate?
    var fees: String?
    var seasonHours: String?
    var parkingRules: String?
    var additionalFees: String?
    var rangers: [TrailRanger]?
    var safety: [TrailSafetyItem]?
    var huntingArea: Bool?
    var huntingNotice: String??
    var pointsOfInterest: [TrailPOI]?
    var amenities: [TrailAmenity]?
    var focalPoints: [StoredFocalPoint]?
    var demoFacts: Bool?

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        // A trail keeps a name: a blank one sent is refused, not taken as "unchanged".
        name = input.has("name") ? input.text("name", label: "the trail's name", length: 1...120) : nil
        description = Self.longText(&input, "description", label: "the description", limit: 4_000)
        region = Self.longText(&input, "region", label: "the region or state", limit: 100)
        city = Self.longText(&input, "city", label: "the city", limit: 100)
        difficulty = input.choice("difficulty", as: TrailDifficulty.self, required: false)
        accessible = input.has("accessible") ? input.boolean("accessible", default: false) : nil
        if input.has("photo_url") { photoURL = .some(Self.photo(&input, "photo_url")) }
        trailhead = input.point("trailhead", required: false)
        fees = Self.longText(&input, "fees", label: "the admission fees", limit: 1_000)
        seasonHours = Self.longText(&input, "season_hours", label: "the season hours", limit: 1_000)
        parkingRules = Self.longText(&input, "parking_rules", label: "the parking rules", limit: 1_000)
        additionalFees = Self.longText(&input, "additional_fees", label: "the additional fees", limit: 1_000)
        huntingArea = input.has("hunting_area") ? input.boolean("hunting_area", default: false) : nil
        if input.has("hunting_notice") {
            huntingNotice = .some(
                input.text(
                    "hunting_notice", label: "the hunting notice", length: 0...1_000, multiline: true,
                    required: false))
        }
        demoFacts = input.has("demo_facts") ? input.boolean("demo_facts", default: false) : nil
        rangers = Self.list(&input, "rangers", max: 10) { item in
            let name = item.text("name", label: "the ranger's name", length: 1...100)
            var phones: [String] = []
            if case .array(let values)? = item.json("phones"), (1...5).contains(values.count) {
                for (index, value) in values.enumerated() {
                    guard case .string(let phone) = value,
                        phone.range(of: #"^\+?[0-9 ()\-]{3,25}$"#, options: .regularExpression) != nil
                    else {
                        item.fail(
                            "phones[\(index)]",
                            "A phone number holds digits, spaces, ( ) and - only, with an optional + first.")
                        continue
                    }
                    phones.append(phone)
                }
            } else {
                item.fail("phones", "phones must be a list of 1 to 5 phone numbers.")
            }
            guard let name else { return nil }
            return TrailRanger(name: name, phones: phones)
        }
        safety = Self.list(&input, "safety", max: 40) { item in
            let kind = item.choice("kind", as: TrailSafetyKind.self)
            let name = item.text("name", label: "the name", length: 1...120)
            let text = item.text("text", label: "the text", length: 1...2_000, multiline: true)
            let signs = item.text(
                "warning_signs", label: "the warning signs", length: 1...1_000, multiline: true, required: false)
            let photo = Self.photo(&item, "photo_url")
            guard let kind, let name, let text else { return nil }
            return TrailSafetyItem(kind: kind, name: name, text: text, warningSigns: signs, photoURL: photo)
        }
        pointsOfInterest = Self.list(&input, "points_of_interest", max: 50) { item in
            let name = item.text("name", label: "the name", length: 1...120)
            let kind = item.choice("kind", as: TrailPOIKind.self)
            let history = item.text("history", label: "the history", length: 0...4_000, multiline: true, default: "")
            let position = item.point("position")
            let photo = Self.photo(&item, "photo_url")
            guard let name, let kind, let position else { return nil }
            return TrailPOI(
                name: name, kind: kind, history: history,
                position: TrailPoint(lat: position.latitude, lon: position.longitude), photoURL: photo)
        }
        if let raw = input.json("amenities") {
            if case .array(let values) = raw {
                var kinds: [TrailAmenity] = []
                for value in values {
                    guard case .string(let name) = value, let kind = TrailAmenity(rawValue: name) else {
                        input.fail(
                            "amenities",
                            "amenities must be a list of: \(TrailAmenity.allCases.map(\.rawValue).joined(separator: ", "))."
                        )
                        break
                    }
                    if !kinds.contains(kind) { kinds.append(kind) }
                }
                amenities = TrailAmenity.allCases.filter(kinds.contains)
            } else {
                input.fail("amenities", "amenities must be a list.")
            }
        }
        focalPoints = Self.list(&input, "focal_points", max: 30) { item in
            let id = item.text("id", label: "the id", length: 1...40)
            if let id, id.range(of: "^[a-z0-9-]+$", options: .regularExpression) == nil {
                item.fail("id", "An id holds lower-case letters, digits and hyphens only.")
            }
            let kind = item.choice("kind", as: TrailFocalKind.self)
            let name = item.text("name", label: "the name", length: 1...120)
            let text = item.text("text", label: "the text", length: 0...1_000, multiline: true, default: "")
            let photo = Self.photo(&item, "photo_url")
            guard let id, let kind, let name else { return nil }
            return StoredFocalPoint(id: id, kind: kind, name: name, text: text, photoURL: photo)
        }
        if let points = focalPoints, Set(points.map(\.id)).count != points.count {
            input.fail("focal_points", "Each focal point needs an id of its own.")
        }
        try input.finish()
    }

    static func longText(_ input: inout RequestInput, _ field: String, label: String, limit: Int) -> String? {
        guard input.has(field) else { return nil }
        return input.text(field, label: label, length: 0...limit, multiline: true, required: false) ?? ""
    }

    /// A photo address: an absolute https URL or a path on this server.
    static func photo(_ input: inout RequestInput, _ field: String) -> String? {
        guard let text = input.text(field, label: "the photo address", length: 1...500, required: false) else {
            return nil
        }
        guard text.hasPrefix("/") || text.lowercased().hasPrefix("https://") else {
            input.fail(
                field, "\(input.path(field)) must be an https:// address or a path on this server such as /media/x.jpg."
            )
            return nil
        }
        return text
    }

    static func list<T>(
        _ input: inout RequestInput, _ field: String, max: Int, _ read: (inout RequestInput) -> T?
    ) -> [T]? {
        guard let raw = input.json(field) else { return nil }
        guard case .array(let values) = raw, values.count <= max else {
            input.fail(field, "\(input.path(field)) must be a list of at most \(max) objects.")
            return nil
        }
        var items: [T] = []
        for (index, value) in values.enumerated() {
            guard case .object(let members) = value else {
                input.fail("\(field)[\(index)]", "\(input.path(field))[\(index)] must be a JSON object.")
                continue
            }
            var nested = RequestInput(json: members, prefix: input.path("\(field)[\(index)]."))
            if let item = read(&nested) { items.append(item) }
            input.merge(nested)
        }
        return items
    }
}
