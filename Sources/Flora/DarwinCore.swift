import Foundation

/// A Darwin Core Archive (TDWG Darwin Core Text Guide) of observations: `meta.xml` describing
/// `occurrence.txt` (tab-separated, UTF-8, one header line) and `eml.xml`, the dataset's metadata.
///
/// `identificationVerificationStatus` uses this vocabulary: `verified` (a researcher confirmed the
/// identification, or a researcher made the observation) and `unverified` (not yet reviewed). Rejected
/// observations are not exported. A sensitive species' coordinates are its public, generalised ones,
/// `coordinateUncertaintyInMeters` covers the cell, and `dataGeneralizations` says so.
public enum DarwinCoreArchive {
    /// One occurrence row.
    public struct Occurrence: Sendable {
        public var occurrenceID: String
        public var scientificName: String
        public var vernacularName: String
        public var family: String
        public var decimalLatitude: Double
        public var decimalLongitude: Double
        public var coordinateUncertaintyInMeters: Double?
        public var eventDate: Date
        public var recordedBy: String
        public var verified: Bool
        public var dataGeneralizations: String?
        public var occurrenceRemarks: String

        public init(
            occurrenceID: String, scientificName: String, vernacularName: String, family: String,
            decimalLatitude: Double, decimalLongitude: Double, coordinateUncertaintyInMeters: Double?,
            eventDate: Date, recordedBy: String, verified: Bool, dataGeneralizations: String?,
            occurrenceRemarks: String
        ) {
            self.occurrenceID = occurrenceID
            self.scientificName = scientificName
            self.vernacularName = vernacularName
            self.family = family
            self.decimalLatitude = decimalLatitude
            self.decimalLongitude = decimalLongitude
            self.coordinateUncertaintyInMeters = coordinateUncertaintyInMeters
            self.eventDate = eventDate
            self.recordedBy = recordedBy
            self.verified = verified
            self.dataGeneralizations = dataGeneralizations
            self.occurrenceRemarks = occurrenceRemarks
        }
    }

    /// The columns of occurrence.txt: Darwin Core terms, in order.
    public static let terms = [
        "occurrenceID", "basisOfRecord", "scientificName", "vernacularName", "kingdom", "family",
        "decimalLatitude", "decimalLongitude", "geodeticDatum", "coordinateUncertaintyInMeters", "eventDate",
        "recordedBy", "identificationVerificationStatus", "dataGeneralizations", "occurrenceRemarks",
    ]

    /// The archive's bytes. `title` names the dataset in eml.xml; `created` stamps it.
    public static func archive(_ occurrences: [Occurrence], title: String, created: Date) throws -> [UInt8] {
        var zip = ZipArchive(modified: created)
        try zip.add("meta.xml", Array(meta.utf8))
        try zip.add("eml.xml", Array(eml(title: title, created: created).utf8))
        try zip.add("occurrence.txt", Array(occurrenceText(occurrences).utf8))
        return zip.bytes
    }

    public static func occurrenceText(_ occurrences: [Occurrence]) -> String {
        var text = terms.joined(separator: "\t") + "\n"
        for occurrence in occurrences {
            let fields: [String] = [
                occurrence.occurrenceID, "HumanObservation", occurrence.scientificName, occurrence.vernacularName,
                "Plantae", occurrence.family, String(format: "%.6f", occurrence.decimalLatitude),
                String(format: "%.6f", occurrence.decimalLongitude), "WGS84",
                occurrence.coordinateUncertaintyInMeters.map { String(format: "%.0f", $0) } ?? "",
                occurrence.eventDate.formatted(.iso8601), occurrence.recordedBy,
                occurrence.verified ? "verified" : "unverified", occurrence.dataGeneralizations ?? "",
                occurrence.occurrenceRemarks,
            ]
            text += fields.map(clean).joined(separator: "\t") + "\n"
        }
        return text
    }

    /// A field without tabs or line breaks (the file encloses nothing).
    static func clean(_ value: String) -> String {
        value.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\t", with: " ")
            .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }

    static var meta: String {
        let fields = terms.enumerated().map { index, term in
            "    <field index=\"\(index)\" term=\"http://rs.tdwg.org/dwc/terms/\(term)\"/>"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <archive xmlns="http://rs.tdwg.org/dwc/text/" metadata="eml.xml">
              <core encoding="UTF-8" fieldsTerminatedBy="\\t" linesTerminatedBy="\\n" fieldsEnclosedBy="" ignoreHeaderLines="1" rowType="http://rs.tdwg.org/dwc/terms/Occurrence">
                <files>
                  <location>occurrence.txt</location>
                </files>
                <id index="0"/>
            \(fields.joined(separator: "\n"))
              </core>
            </archive>

            """
    }

    static func eml(title: String, created: Date) -> String {
        let escaped = title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        let day = created.formatted(Date.ISO8601FormatStyle().year().month().day())
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <eml:eml xmlns:eml="eml://ecoinformatics.org/eml-2.1.1" packageId="cairn-flora-\(day)" system="cairn" scope="system">
              <dataset>
                <title>\(escaped)</title>
                <creator><organizationName>Cairn field guide</organizationName></creator>
                <pubDate>\(day)</pubDate>
                <abstract><para>Plant observations recorded with the Cairn field guide. identificationVerificationStatus is "verified" when a researcher confirmed the identification and "unverified" otherwise; sensitive species are generalised as dataGeneralizations says.</para></abstract>
                <contact><organizationName>Cairn field guide</organizationName></contact>
              </dataset>
            </eml:eml>

            """
    }
}
