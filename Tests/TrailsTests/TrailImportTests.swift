import Foundation
import Geo
import Routing
import Testing

@testable import Trails

/// The OpenStreetMap importer on the real Helsinki extract (`make demo-data`), the file reader on GPX and
/// GeoJSON (good and bad), the difficulty rule and the map's simplification.
@Suite struct TrailImportTests {
    static let osmFolder =
        ProcessInfo.processInfo.environment["CAIRN_OSM_DIR"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("var/osm")

    @Test func helsinkisRoutesAndNamedPathsBecomeTrails() throws {
        let path = Self.osmFolder.appendingPathComponent("Helsinki.osm.pbf").path
        let drafts = try OSMTrailImporter(region: "Uusimaa").read(try OSMFile.reader(for: path))

        #expect(drafts.count >= 3)
        #expect(drafts.contains { $0.source.hasPrefix("osm:park/") })
        #expect(Set(drafts.map(\.source)).count == drafts.count)
        for draft in drafts {
            #expect(!draft.name.isEmpty)
            #expect(draft.lines.allSatisfy { $0.count >= 2 })
            #expect(["easy", "moderate", "hard"].contains(draft.difficulty))
            #expect(draft.region == "Uusimaa")
            #expect(!draft.city.isEmpty)
            #expect(draft.geometry.boundingBox!.north - draft.geometry.boundingBox!.south < 0.5)
        }
        let chains = drafts.filter { $0.source.hasPrefix("osm:way/") }
        #expect(chains.allSatisfy { $0.figures.lengthMeters >= 800 })
        let again = try OSMTrailImporter(region: "Uusimaa").read(try OSMFile.reader(for: path))
        #expect(again.map(\.source) == drafts.map(\.source))
    }

    @Test func waysJoinEndToEndWhateverTheirDirection() {
        let chains = WayChains.chains([[1, 2, 3], [5, 4, 3], [5, 6], [10, 11]])
        #expect(chains == [[1, 2, 3, 4, 5, 6], [10, 11]])
    }

    @Test(
        arguments: [
            ("hiking", nil, 20_000.0, "easy"),
            ("mountain_hiking", nil, 1_000.0, "moderate"),
            ("demanding_mountain_hiking", nil, 1_000.0, "hard"),
            ("alpine_hiking", nil, 1_000.0, "hard"),
            ("hiking", "intermediate", 1_000.0, "moderate"),
            ("hiking", "bad", 1_000.0, "hard"),
            (nil, "horrible", 1_000.0, "hard"),
            (nil, nil, 5_000.0, "easy"),
            (nil, nil, 12_000.0, "moderate"),
            (nil, nil, 25_000.0, "hard"),
        ] as [(String?, String?, Double, String)])
    func sacScaleAndVisibilityGiveTheDifficulty(sac: String?, visibility: String?, length: Double, tier: String) {
        #expect(
            TrailDifficultyRule.difficulty(
                stated: nil, sacScale: sac, trailVisibility: visibility, lengthMeters: length,
                elevationGainMeters: nil) == tier)
    }

    static func gpx(_ points: String, doctype: String = "") -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>\(doctype)
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><name>Nuuksio loop</name><trkseg>\(points)</trkseg></trk></gpx>
            """.utf8)
    }

    @Test func aGPXTrackGivesLengthClimbGradeAndSteps() throws {
        var points = ""
        for index in 0..<21 {
            let ele = index <= 10 ? Double(index) * 5 : Double(20 - index) * 5
            points += "<trkpt lat=\"\(60.3 + Double(index) * 0.0009)\" lon=\"24.5\"><ele>\(ele)</ele></trkpt>"
        }
        let drafts = try TrailFileReader.read(Self.gpx(points), maxBytes: 1_000_000)

        #expect(drafts.count == 1)
        let figures = drafts[0].figures
        #expect(drafts[0].name == "Nuuksio loop")
        #expect(abs(figures.lengthMeters - 2_001) < 5)
        #expect(figures.elevationGainMeters == 50)
        #expect(figures.elevationLossMeters == 50)
        #expect(abs(figures.maxGradePercent! - 5) < 0.2)
        #expect(figures.steps == Int((figures.lengthMeters / 0.75).rounded()))
    }

    @Test func badFilesAreRefusedWithAReason() {
        #expect(throws: TrailFileError.empty) { try TrailFileReader.read(Data("  \n".utf8), maxBytes: 100) }
        #expect(throws: TrailFileError.unknownFormat) { try TrailFileReader.read(Data("hello".utf8), maxBytes: 100) }
        #expect(throws: TrailFileError.tooLarge(bytes: 101, maxBytes: 100)) {
            try TrailFileReader.read(Data(repeating: 0x20, count: 101), maxBytes: 100)
        }
        #expect(throws: TrailFileError.gpx(.documentTypeDeclaration)) {
            try TrailFileReader.read(
                Self.gpx("<trkpt lat=\"1\" lon=\"1\"/>", doctype: "<!DOCTYPE gpx [<!ENTITY a \"b\">]>"),
                maxBytes: 100_000)
        }
        #expect(throws: TrailFileError.gpx(.noTrack(hasRoute: false))) {
            try TrailFileReader.read(Self.gpx(""), maxBytes: 100_000)
        }
        #expect(throws: TrailFileError.noLine) {
            try TrailFileReader.read(Data(#"{"type":"Point","coordinates":[24.9,60.2]}"#.utf8), maxBytes: 100_000)
        }
        #expect(throws: TrailFileError.invalidGeoJSON("a LineString needs at least 2 positions")) {
            try TrailFileReader.read(
                Data(#"{"type":"LineString","coordinates":[[24.9,60.2]]}"#.utf8), maxBytes: 100_000)
        }
        #expect(throws: TrailFileError.invalidGeoJSON("position [24.9, 95.0] is out of range")) {
            try TrailFileReader.read(
                Data(#"{"type":"LineString","coordinates":[[24.9,60.2],[24.9,95]]}"#.utf8), maxBytes: 100_000)
        }
        #expect(throws: TrailFileError.invalidGeoJSON("it is not valid JSON")) {
            try TrailFileReader.read(Data(#"{"type":"LineString","coordinates":[[24.9,60.2],"#.utf8), maxBytes: 100_000)
        }
    }

    @Test func geoJSONFeaturesKeepTheirProperties() throws {
        let text = """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","properties":{"name":"Shore path","difficulty":"hard","city":"Espoo"},
               "geometry":{"type":"LineString","coordinates":[[24.80,60.15,10],[24.81,60.15,30]]}},
              {"type":"Feature","properties":{"name":"A bench"},"geometry":{"type":"Point","coordinates":[24.8,60.1]}}
            ]}
            """
        let drafts = try TrailFileReader.read(Data(text.utf8), maxBytes: 100_000)

        #expect(drafts.count == 1)
        #expect(drafts[0].name == "Shore path")
        #expect(drafts[0].difficulty == "hard")
        #expect(drafts[0].city == "Espoo")
        #expect(drafts[0].figures.elevationGainMeters == 20)
    }

    @Test func theMapSendsFewerPointsWhenZoomedOut() {
        let line = (0..<500).map {
            Coordinate(latitude: 60.2 + Double($0) * 0.0001, longitude: 24.9 + sin(Double($0) / 7) * 0.0005)
        }
        let near = TrailMapShape.simplified([line], zoom: 17)[0]
        let far = TrailMapShape.simplified([line], zoom: 12)[0]

        #expect(far.count < near.count)
        #expect(near.count < line.count)
        #expect(far.first == Coordinate(latitude: 60.2, longitude: 24.9))
    }
}
