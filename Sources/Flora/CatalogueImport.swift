import CSVTables
import Foundation
import Geo

/// One problem of an import, where it is: file, line (1 is the header) and column.
public struct ImportIssue: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: String?
    public var message: String

    public init(file: String, line: Int?, column: String?, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `species.csv line 12, column family: …`.
    public var description: String {
        var place = file
        if let line { place += " line \(line)" }
        if let column { place += ", column \(column)" }
        return "\(place): \(message)"
    }
}

/// Every problem found in an import; nothing is imported when there is one.
public struct ImportReport: Error, Sendable, CustomStringConvertible {
    public var issues: [ImportIssue]

    public init(issues: [ImportIssue]) { self.issues = issues }

    public var description: String { issues.map(\.description).joined(separator: "\n") }
}

/// An observation row of an import (`observations.csv`): a sighting made outside the app, such as a
/// researcher's survey data.
public struct ImportedObservation: Sendable, Hashable {
    public var id: UUID
    public var speciesID: String
    public var coordinate: Coordinate
    public var accuracyMeters: Double?
    public var observedAt: Date
    public var recordedBy: String
    public var status: VerificationStatus
    public var comment: String
}

/// Whether a researcher has checked an observation's identification.
public enum VerificationStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case unverified, verified, rejected
}

/// The files of one import, parsed and validated together.
public struct CatalogueImport: Sendable {
    public var tags: [Tag] = []
    public var species: [Species] = []
    public var filters: [FilterDefinition] = []
    public var observations: [ImportedObservation] = []

    /// What the database already holds, for references the files do not define themselves.
    public struct Known: Sendable {
        public var tagIDs: Set<String>
        public var speciesIDs: Set<String>
        public var filters: [String: Bool]

        public init(tagIDs: Set<String> = [], speciesIDs: Set<String> = [], filters: [String: Bool] = [:]) {
            self.tagIDs = tagIDs
            self.speciesIDs = speciesIDs
            self.filters = filters
        }
    }

    public static let speciesColumns = [
        "id", "scientific_name", "common_name", "family", "group", "flower_colors", "flowering_months", "habitats",
        "elevation_min_m", "elevation_max_m", "sensitive", "tags", "image", "description",
    ]
    public static let requiredSpeciesColumns: Set<String> = ["id", "scientific_name", "common_name", "family", "group"]
    public static let tagColumns = ["id", "name", "kind", "parent_id"]
    public static let requiredTagColumns: Set<String> = ["id", "name"]
    public static let filterColumns = ["id", "group", "label", "exclusive", "field", "value", "applies_to"]
    public static let requiredFilterColumns: Set<String> = ["id", "group", "label", "field", "value"]
    public static let observationColumns = [
        "id", "species_id", "latitude", "longitude", "accuracy_m", "observed_at", "recorded_by", "status", "comment",
    ]
    public static let requiredObservationColumns: Set<String> = [
        "id", "species_id", "latitude", "longitude", "observed_at", "recorded_by",
    ]

    /// Parses and checks every row of every file; throws one report naming each bad row and column.
    /// `imageNames` are the files of the image folder, when one is given (a species' `image` must be there).
    public static func parse(
        species speciesTable: CSVTable?, tags tagTable: CSVTable?, filters filterTable: CSVTable?,
        observations observationTable: CSVTable?, imageNames: Set<String>? = nil, known: Known = Known()
    ) throws(ImportReport) -> CatalogueImport {
        var issues: [ImportIssue] = []
        var result = CatalogueImport()
        if let tagTable, checkColumns(tagTable, expected: tagColumns, required: requiredTagColumns, &issues) {
            result.tags = parseTags(tagTable, known: known, &issues)
        }
        let tagIDs = known.tagIDs.union(result.tags.map(\.id))
        if let speciesTable,
            checkColumns(speciesTable, expected: speciesColumns, required: requiredSpeciesColumns, &issues)
        {
            result.species = parseSpecies(speciesTable, tagIDs: tagIDs, imageNames: imageNames, &issues)
        }
        if let filterTable,
            checkColumns(filterTable, expected: filterColumns, required: requiredFilterColumns, &issues)
        {
            result.filters = parseFilters(filterTable, tagIDs: tagIDs, known: known, &issues)
        }
        if let observationTable,
            checkColumns(
                observationTable, expected: observationColumns, required: requiredObservationColumns, &issues)
        {
            let speciesIDs = known.speciesIDs.union(result.species.map(\.id))
            result.observations = parseObservations(observationTable, speciesIDs: speciesIDs, &issues)
        }
        guard issues.isEmpty else { throw ImportReport(issues: issues) }
        return result
    }

    /// Missing required columns and unknown columns, each an issue on line 1. False when the file cannot
    /// be read row by row.
    static func checkColumns(
        _ table: CSVTable, expected: [String], required: Set<String>, _ issues: inout [ImportIssue]
    ) -> Bool {
        var usable = true
        for column in expected where required.contains(column) && !table.columns.contains(column) {
            issues.append(
                ImportIssue(
                    file: table.name, line: 1, column: column,
                    message: "the required column \(column) is missing (columns: \(expected.joined(separator: ", "))).")
            )
            usable = false
        }
        var seen = Set<String>()
        for column in table.columns {
            if !expected.contains(column) {
                issues.append(
                    ImportIssue(
                        file: table.name, line: 1, column: column.isEmpty ? nil : column,
                        message: column.isEmpty
                            ? "a column has no name."
                            : "\(column) is not a column of this file (columns: \(expected.joined(separator: ", ")))."))
            } else if !seen.insert(column).inserted {
                issues.append(
                    ImportIssue(file: table.name, line: 1, column: column, message: "\(column) appears twice."))
                usable = false
            }
        }
        return usable
    }

    // MARK: Rows

    private struct Row {
        let table: CSVTable
        let record: CSVTable.Record
        var issues: [ImportIssue] = []

        init(_ table: CSVTable, _ record: CSVTable.Record) {
            self.table = table
            self.record = record
            if let count = record.fields[CSVTable.extraFieldsKey] {
                issue(nil, "the row has \(count) fields but the header names \(table.columns.count) columns.")
            }
        }

        mutating func issue(_ column: String?, _ message: String) {
            issues.append(ImportIssue(file: table.name, line: record.line, column: column, message: message))
        }

        func text(_ column: String) -> String {
            (record.fields[column] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }

        mutating func required(_ column: String, maxLength: Int = 200) -> String? {
            let value = text(column)
            if value.isEmpty {
                issue(column, "\(column) is required.")
                return nil
            }
            if value.count > maxLength {
                issue(column, "\(column) is longer than \(maxLength) characters.")
                return nil
            }
            return value
        }

        mutating func slug(_ column: String) -> String? {
            guard let value = required(column, maxLength: 80) else { return nil }
            guard value.unicodeScalars.allSatisfy({ Self.slugScalars.contains($0) }), value.first != "-" else {
                issue(column, "\(column) must be lowercase letters, digits and hyphens, such as silene-acaulis.")
                return nil
            }
            return value
        }

        static let slugScalars = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789-")

        func list(_ column: String) -> [String] {
            text(column).split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }

        mutating func bool(_ column: String) -> Bool? {
            switch text(column).lowercased() {
            case "", "no", "false", "0": return false
            case "yes", "true", "1": return true
            default:
                issue(column, "\(column) must be yes or no.")
                return nil
            }
        }

        mutating func integer(_ column: String, in range: ClosedRange<Int>) -> Int?? {
            let value = text(column)
            if value.isEmpty { return .some(nil) }
            guard let number = Int(value), range.contains(number) else {
                issue(column, "\(column) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
                return nil
            }
            return .some(number)
        }
    }

    /// Checks duplicates of `id` within the file.
    private static func unique(
        _ id: String?, _ row: inout Row, seen: inout [String: Int]
    ) -> Bool {
        guard let id else { return false }
        if let first = seen[id] {
            row.issue("id", "the id \(id) is used twice (first on line \(first)).")
            return false
        }
        seen[id] = row.record.line
        return true
    }

    static func parseTags(_ table: CSVTable, known: Known, _ issues: inout [ImportIssue]) -> [Tag] {
        var seen: [String: Int] = [:]
        var tags: [Tag] = []
        var rows: [(Row, Tag)] = []
        for record in table.records {
            var row = Row(table, record)
            let id = row.slug("id")
            let name = row.required("name")
            let kind = row.text("kind").isEmpty ? "tag" : row.text("kind").lowercased()
            let parent = row.text("parent_id")
            let isUnique = unique(id, &row, seen: &seen)
            if row.issues.isEmpty, isUnique, let id, let name {
                rows.append((row, Tag(id: id, name: name, kind: kind, parentID: parent.isEmpty ? nil : parent)))
            }
            issues += row.issues
        }
        let ids = known.tagIDs.union(rows.map(\.1.id))
        for (parsedRow, tag) in rows {
            var row = parsedRow
            if let parent = tag.parentID, !ids.contains(parent) || parent == tag.id {
                row.issue("parent_id", "no tag has the id \(parent).")
                issues += row.issues
                continue
            }
            tags.append(tag)
        }
        // A chain of parents must end.
        let ancestors = Catalogue.ancestors(of: tags)
        let parents = Dictionary(tags.map { ($0.id, $0.parentID) }, uniquingKeysWith: { first, _ in first })
        for tag in tags {
            if let chain = ancestors[tag.id], chain.contains(where: { parents[$0] == tag.id }) {
                issues.append(
                    ImportIssue(
                        file: table.name, line: seen[tag.id], column: "parent_id",
                        message: "the parents of \(tag.id) lead back to it."))
            }
        }
        return tags
    }

    static func parseSpecies(
        _ table: CSVTable, tagIDs: Set<String>, imageNames: Set<String>?, _ issues: inout [ImportIssue]
    ) -> [Species] {
        var seen: [String: Int] = [:]
        var seenNames: [String: Int] = [:]
        var result: [Species] = []
        for record in table.records {
            var row = Row(table, record)
            let id = row.slug("id")
            let scientific = row.required("scientific_name")
            let common = row.required("common_name")
            let family = row.required("family", maxLength: 80)
            if let family, !tagIDs.contains(Tag.familyID(family)) {
                row.issue(
                    "family",
                    "\(family) is not a known family: add a tag with the id \(Tag.familyID(family)) to the tags file.")
            }
            var group: PlantGroup?
            if let raw = row.required("group") {
                group = PlantGroup(rawValue: raw.lowercased())
                if group == nil {
                    row.issue(
                        "group",
                        "group must be one of \(PlantGroup.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
            }
            var colors: [FlowerColor] = []
            for raw in row.list("flower_colors") {
                if let color = FlowerColor(rawValue: raw.lowercased()) {
                    colors.append(color)
                } else {
                    row.issue(
                        "flower_colors",
                        "\(raw) is not a flower colour (\(FlowerColor.allCases.map(\.rawValue).joined(separator: ", ")))."
                    )
                }
            }
            var months: [Int] = []
            for raw in row.list("flowering_months") {
                if let month = Int(raw), (1...12).contains(month) {
                    months.append(month)
                } else {
                    row.issue("flowering_months", "flowering_months are month numbers 1–12 separated by ; (\(raw)).")
                }
            }
            var habitats: [String] = []
            for raw in row.list("habitats") {
                if raw.unicodeScalars.allSatisfy({ Row.slugScalars.contains($0) }) {
                    habitats.append(raw)
                } else {
                    row.issue("habitats", "habitats are slugs such as dry-meadow separated by ; (\(raw)).")
                }
            }
            let low = row.integer("elevation_min_m", in: -500...9000)
            let high = row.integer("elevation_max_m", in: -500...9000)
            if let low = low ?? nil, let high = high ?? nil, low > high {
                row.issue("elevation_max_m", "elevation_max_m is below elevation_min_m.")
            }
            let sensitive = row.bool("sensitive")
            let tags = row.list("tags")
            for tag in tags where !tagIDs.contains(tag) {
                row.issue("tags", "no tag has the id \(tag).")
            }
            let image = row.text("image")
            if !image.isEmpty {
                if image.contains("/") || image.contains("\\") || image.hasPrefix(".") {
                    row.issue("image", "image is a file name in the image folder, without a path.")
                } else if let imageNames, !imageNames.contains(image) {
                    row.issue("image", "\(image) is not in the image folder.")
                } else if imageNames == nil {
                    row.issue("image", "\(image) is named, but no image folder was given.")
                }
            }
            let description = row.text("description")
            if description.count > 4000 {
                row.issue("description", "description is longer than 4,000 characters.")
            }
            if let scientific {
                if let first = seenNames[scientific.lowercased()] {
                    row.issue("scientific_name", "\(scientific) is already on line \(first).")
                } else {
                    seenNames[scientific.lowercased()] = record.line
                }
            }
            let isUnique = unique(id, &row, seen: &seen)
            if row.issues.isEmpty, isUnique, let id, let scientific, let common, let family, let group,
                let low, let high, let sensitive
            {
                result.append(
                    Species(
                        id: id, scientificName: scientific, commonName: common, family: family, group: group,
                        flowerColors: colors, floweringMonths: Array(Set(months)).sorted(), habitats: habitats,
                        elevationMinMeters: low, elevationMaxMeters: high, sensitive: sensitive, tagIDs: tags,
                        image: image.isEmpty ? nil : image, description: description))
            }
            issues += row.issues
        }
        return result
    }

    static func parseFilters(
        _ table: CSVTable, tagIDs: Set<String>, known: Known, _ issues: inout [ImportIssue]
    ) -> [FilterDefinition] {
        var seen: [String: Int] = [:]
        var parsed: [(Row, FilterDefinition)] = []
        for (position, record) in table.records.enumerated() {
            var row = Row(table, record)
            let id = row.slug("id")
            let group = row.required("group", maxLength: 80)
            let label = row.required("label", maxLength: 120)
            let exclusive = row.bool("exclusive")
            var field: FilterDefinition.Field?
            if let raw = row.required("field") {
                field = FilterDefinition.Field(rawValue: raw.lowercased())
                if field == nil {
                    row.issue(
                        "field",
                        "field must be one of \(FilterDefinition.Field.allCases.map(\.rawValue).joined(separator: ", "))."
                    )
                }
            }
            let value = row.required("value", maxLength: 80)
            if let field, let value {
                switch field {
                case .group where PlantGroup(rawValue: value) == nil:
                    row.issue("value", "\(value) is not a plant group.")
                case .color where FlowerColor(rawValue: value) == nil:
                    row.issue("value", "\(value) is not a flower colour.")
                case .month where Int(value).map({ (1...12).contains($0) }) != true:
                    row.issue("value", "a month filter's value is a month number, 1–12.")
                case .tag where !tagIDs.contains(value):
                    row.issue("value", "no tag has the id \(value).")
                default: break
                }
            }
            let isUnique = unique(id, &row, seen: &seen)
            if row.issues.isEmpty, isUnique, let id, let group, let label, let exclusive, let field, let value {
                parsed.append(
                    (
                        row,
                        FilterDefinition(
                            id: id, group: group, label: label, exclusive: exclusive, field: field, value: value,
                            appliesTo: row.list("applies_to"), position: position)
                    ))
            }
            issues += row.issues
        }
        var exclusives = known.filters.filter(\.value).map(\.key).reduce(into: Set<String>()) { $0.insert($1) }
        for (_, filter) in parsed {
            if filter.exclusive { exclusives.insert(filter.id) } else { exclusives.remove(filter.id) }
        }
        var result: [FilterDefinition] = []
        for (parsedRow, filter) in parsed {
            var row = parsedRow
            for target in filter.appliesTo where !exclusives.contains(target) {
                row.issue("applies_to", "\(target) is not an exclusive filter.")
            }
            if filter.exclusive, !filter.appliesTo.isEmpty {
                row.issue("applies_to", "an exclusive filter applies to everything; leave applies_to empty.")
            }
            if row.issues.isEmpty { result.append(filter) } else { issues += row.issues }
        }
        return result
    }

    static func parseObservations(
        _ table: CSVTable, speciesIDs: Set<String>, _ issues: inout [ImportIssue]
    ) -> [ImportedObservation] {
        var seen: [String: Int] = [:]
        var result: [ImportedObservation] = []
        for record in table.records {
            var row = Row(table, record)
            let rawID = row.required("id")
            let id = rawID.flatMap(UUID.init(uuidString:))
            if rawID != nil, id == nil {
                row.issue("id", "id must be a UUID, such as 0f8fad5b-d9cb-469f-a165-70867728950e.")
            }
            let species = row.required("species_id")
            if let species, !speciesIDs.contains(species) {
                row.issue("species_id", "no species has the id \(species).")
            }
            let latitude = Double(row.text("latitude"))
            if latitude == nil || !(latitude!.isFinite && abs(latitude!) <= 90) {
                row.issue("latitude", "latitude must be decimal degrees from -90 to 90.")
            }
            let longitude = Double(row.text("longitude"))
            if longitude == nil || !(longitude!.isFinite && abs(longitude!) <= 180) {
                row.issue("longitude", "longitude must be decimal degrees from -180 to 180.")
            }
            var accuracy: Double?
            if !row.text("accuracy_m").isEmpty {
                accuracy = Double(row.text("accuracy_m"))
                if accuracy == nil || !(accuracy! >= 0 && accuracy! <= 100_000) {
                    row.issue("accuracy_m", "accuracy_m must be metres from 0 to 100000.")
                }
            }
            let observedAt = row.required("observed_at").flatMap(Self.date)
            if row.text("observed_at").isEmpty == false, observedAt == nil {
                row.issue(
                    "observed_at",
                    "observed_at must be an ISO 8601 date or date and time, such as 2024-07-14T10:30:00Z.")
            }
            let recordedBy = row.required("recorded_by")
            var status = VerificationStatus.unverified
            if !row.text("status").isEmpty {
                if let parsed = VerificationStatus(rawValue: row.text("status").lowercased()) {
                    status = parsed
                } else {
                    row.issue("status", "status must be unverified, verified or rejected.")
                }
            }
            let comment = row.text("comment")
            if comment.count > 2000 { row.issue("comment", "comment is longer than 2,000 characters.") }
            let isUnique = unique(rawID.map { $0.lowercased() }, &row, seen: &seen)
            if row.issues.isEmpty, isUnique, let id, let species, let latitude, let longitude, let observedAt,
                let recordedBy
            {
                result.append(
                    ImportedObservation(
                        id: id, speciesID: species, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                        accuracyMeters: accuracy, observedAt: observedAt, recordedBy: recordedBy, status: status,
                        comment: comment))
            }
            issues += row.issues
        }
        return result
    }

    /// `2024-07-14T10:30:00Z`, with fractional seconds or an offset, or a date alone (noon UTC).
    static func date(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(
            text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        {
            return date
        }
        if let day = try? Date(text, strategy: Date.ISO8601FormatStyle().year().month().day()) {
            return day.addingTimeInterval(12 * 3600)
        }
        return nil
    }
}
