import Foundation
import GPXSchemaCheck
import Testing

@testable import Geo

@Suite struct GPXWritingTests {
    static let start = Date(timeIntervalSince1970: 1_717_228_800)  // 2024-06-01T08:00:00Z

    /// Two tracks, one of two segments, names that need escaping, points with and without elevation and time.
    static let document = GPXDocument(
        name: "Töölö & back <evening> \"loop\" 🏃", time: start,
        tracks: [
            GPXTrack(
                name: "Morning run", type: "running",
                segments: [
                    [
                        GPXTrackPoint(
                            coordinate: Coordinate(latitude: 60.1699, longitude: 24.9384), elevationMeters: 12.34,
                            time: start),
                        GPXTrackPoint(
                            coordinate: Coordinate(latitude: 60.17012346, longitude: 24.93901234),
                            elevationMeters: -1.5,
                            time: start.addingTimeInterval(1.25)),
                    ],
                    [GPXTrackPoint(coordinate: Coordinate(latitude: 60.171, longitude: 24.94))],
                ]),
            GPXTrack(
                segments: [
                    [
                        GPXTrackPoint(
                            coordinate: Coordinate(latitude: -45, longitude: 180), time: start.addingTimeInterval(60))
                    ]
                ]),
        ])

    @Test func writtenGPXIsValidAgainstTheGPX11Schema() {
        let xml = Self.document.xml()

        let violations = GPXSchema.violations(of: xml)

        #expect(violations.isEmpty, "\(violations)\n\(xml)")
    }

    @Test func theSchemaCheckRejectsInvalidGPX() {
        let withoutCreator = Self.document.xml().replacingOccurrences(of: "creator=\"Cairn\" ", with: "")
        let latitudeOutOfRange = Self.document.xml().replacingOccurrences(of: "lat=\"60.171\"", with: "lat=\"95\"")
        let elementsOutOfOrder = Self.document.xml().replacingOccurrences(
            of: "<name>Morning run</name>\n    <type>running</type>",
            with: "<type>running</type>\n    <name>Morning run</name>")

        #expect(!GPXSchema.violations(of: withoutCreator).isEmpty)
        #expect(!GPXSchema.violations(of: latitudeOutOfRange).isEmpty)
        #expect(!GPXSchema.violations(of: elementsOutOfOrder).isEmpty)
    }

    @Test func writesPositionsTimesAndEscapedText() {
        let xml = Self.document.xml()

        #expect(xml.contains("<name>Töölö &amp; back &lt;evening&gt; &quot;loop&quot; 🏃</name>"))
        #expect(
            xml.contains(
                "<trkpt lat=\"60.1701235\" lon=\"24.9390123\"><ele>-1.5</ele><time>2024-06-01T08:00:01.250Z</time></trkpt>"
            ))
        #expect(xml.contains("<trkpt lat=\"60.171\" lon=\"24.94\"/>"))
        #expect(xml.contains("<trkpt lat=\"-45\" lon=\"-180\"><time>2024-06-01T08:01:00Z</time></trkpt>"))
        #expect(xml.contains("<bounds minlat=\"-45\" minlon=\"24.9384\" maxlat=\"60.171\" maxlon=\"179.9999999\"/>"))
        #expect(xml.contains("<type>running</type>"))
    }

    @Test func roundTripsThroughTheReader() throws {
        let read = try GPXDocument(parsing: Data(Self.document.xml().utf8))

        #expect(read.name == Self.document.name)
        #expect(read.time == Self.document.time)
        #expect(read.creator == "Cairn")
        #expect(read.tracks.count == 2)
        #expect(read.tracks[0].segments.map(\.count) == [2, 1])
        #expect(read.tracks[0].name == "Morning run" && read.tracks[0].type == "running")
        for (a, b) in zip(read.allPoints, Self.document.allPoints) {
            #expect(abs(a.coordinate.latitude - b.coordinate.latitude) < 1e-7)
            #expect(abs(a.coordinate.longitude - b.coordinate.longitude).truncatingRemainder(dividingBy: 360) < 1e-7)
            #expect(a.elevationMeters.map { ($0 * 10).rounded() } == b.elevationMeters.map { ($0 * 10).rounded() })
            #expect(a.time == b.time)
        }
    }
}

@Suite struct GPXReadingTests {
    static func gpx11(_ body: String) -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
            \(body)
            </gpx>
            """.utf8)
    }

    static let onePoint = #"<trk><trkseg><trkpt lat="60.17" lon="24.94"/></trkseg></trk>"#

    @Test func readsAGPX10Track() throws {
        let data = Data(
            """
            <?xml version="1.0"?>
            <gpx version="1.0" creator="GPSBabel" xmlns="http://www.topografix.com/GPX/1/0">
              <name>Old device</name>
              <time>2009-07-04T10:00:00Z</time>
              <wpt lat="60.0" lon="24.0"><name>Somewhere</name></wpt>
              <trk>
                <name>Hike</name>
                <trkseg>
                  <trkpt lat="60.2" lon="24.9"><ele>35.2</ele><time>2009-07-04T10:00:05Z</time><course>90</course><speed>1.2</speed></trkpt>
                  <trkpt lat="60.2001" lon="24.9002"><ele>36</ele><time>2009-07-04T13:00:07+03:00</time></trkpt>
                </trkseg>
              </trk>
            </gpx>
            """.utf8)

        let document = try GPXDocument(parsing: data)

        #expect(document.name == "Old device")
        #expect(document.tracks.count == 1 && document.tracks[0].name == "Hike")
        let points = document.allPoints
        #expect(points.count == 2)
        #expect(
            points[0].coordinate == Coordinate(latitude: 60.2, longitude: 24.9) && points[0].elevationMeters == 35.2)
        #expect(points[1].time!.timeIntervalSince(points[0].time!) == 2)
    }

    @Test func skipsExtensionsOfOtherNamespaces() throws {
        let data = Self.gpx11(
            """
            <trk><name>Run</name><extensions><x:colour xmlns:x="urn:x"><name>not the track</name></x:colour></extensions>
            <trkseg><trkpt lat="60.1" lon="24.9"><ele>5</ele><time>2024-06-01T08:00:00.5Z</time>
            <extensions><g:TrackPointExtension xmlns:g="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><g:hr>141</g:hr></g:TrackPointExtension></extensions>
            </trkpt></trkseg></trk>
            """)

        let document = try GPXDocument(parsing: data)

        #expect(document.tracks[0].name == "Run")
        #expect(document.allPoints.count == 1)
        #expect(document.allPoints[0].time == Date(timeIntervalSince1970: 1_717_228_800.5))
    }

    @Test func refusesDocumentTypeDeclarations() {
        let billionLaughs = Data(
            """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>&lol2;</name>
            <trkseg><trkpt lat="1" lon="1"/></trkseg></trk></gpx>
            """.utf8)
        let externalEntity = Data(
            """
            <?xml version="1.0"?>
            <!DOCTYPE gpx SYSTEM "file:///etc/passwd">
            <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lat="1" lon="1"/></trkseg></trk></gpx>
            """.utf8)

        #expect(throws: GPXError.documentTypeDeclaration) { try GPXDocument(parsing: billionLaughs) }
        #expect(throws: GPXError.documentTypeDeclaration) { try GPXDocument(parsing: externalEntity) }
    }

    @Test func refusesOversizeFilesAndTracks() {
        let data = Self.gpx11(String(repeating: Self.onePoint, count: 20))

        #expect(throws: GPXError.tooLarge(bytes: data.count, maxBytes: 100)) {
            try GPXDocument(parsing: data, limits: .init(maxBytes: 100))
        }
        #expect(throws: GPXError.tooManyPoints(maxPoints: 10)) {
            try GPXDocument(parsing: data, limits: .init(maxPoints: 10))
        }
        #expect((try? GPXDocument(parsing: data, limits: .init(maxPoints: 20)))?.allPoints.count == 20)
    }

    @Test func refusesFilesWithoutATrack() {
        let waypoints = Self.gpx11(#"<wpt lat="60.1" lon="24.9"/>"#)
        let route = Self.gpx11(#"<rte><rtept lat="60.1" lon="24.9"/><rtept lat="60.2" lon="24.9"/></rte>"#)
        let emptyTrack = Self.gpx11("<trk><name>Nothing</name><trkseg></trkseg></trk>")

        #expect(throws: GPXError.noTrack(hasRoute: false)) { try GPXDocument(parsing: waypoints) }
        #expect(throws: GPXError.noTrack(hasRoute: true)) { try GPXDocument(parsing: route) }
        #expect(throws: GPXError.noTrack(hasRoute: false)) { try GPXDocument(parsing: emptyTrack) }
    }

    @Test func refusesWhatIsNotGPX() {
        let kml = Data(#"<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>"#.utf8)
        let gpx2 = Data(
            #"<gpx version="2.0" creator="x"><trk><trkseg><trkpt lat="1" lon="1"/></trkseg></trk></gpx>"#.utf8)
        let broken = Self.gpx11("<trk><trkseg><trkpt lat=\"1\" lon=\"1\"></trkseg></trk>")
        let utf16 = Data([0xFF, 0xFE]) + "<gpx/>".data(using: .utf16LittleEndian)!
        let declaredLatin2 = Data(#"<?xml version="1.0" encoding="ISO-8859-2"?><gpx version="1.1" creator="x"/>"#.utf8)

        #expect(throws: GPXError.notGPX(rootElement: "kml")) { try GPXDocument(parsing: kml) }
        #expect(throws: GPXError.unsupportedVersion("2.0")) { try GPXDocument(parsing: gpx2) }
        #expect(throws: GPXError.unsupportedEncoding("UTF-16")) { try GPXDocument(parsing: utf16) }
        #expect(throws: GPXError.unsupportedEncoding("ISO-8859-2")) { try GPXDocument(parsing: declaredLatin2) }
        do {
            _ = try GPXDocument(parsing: broken)
            Issue.record("malformed XML was read")
        } catch {
            if case .malformed(let line, _) = error {
                #expect(line == 3)
            } else {
                Issue.record("got \(error)")
            }
        }
    }

    @Test func refusesPointsItCannotRead() {
        let cases: [(String, String)] = [
            (#"<trkpt lat="95" lon="24.9"/>"#, "is not a position on Earth"),
            (#"<trkpt lon="24.9"/>"#, "lat and lon are required"),
            (#"<trkpt lat="north" lon="24.9"/>"#, "decimal degrees"),
            (#"<trkpt lat="60" lon="24.9"><ele>high</ele></trkpt>"#, "elevation “high” is not a number"),
            (#"<trkpt lat="60" lon="24.9"><time>yesterday</time></trkpt>"#, "time “yesterday”"),
        ]
        for (point, reason) in cases {
            do {
                _ = try GPXDocument(parsing: Self.gpx11("<trk><trkseg>\n\(point)\n</trkseg></trk>"))
                Issue.record("\(point) was read")
            } catch {
                guard case .invalidPoint(let line, let message) = error else {
                    Issue.record("\(point): got \(error)")
                    continue
                }
                #expect(line == 4, "\(point)")
                #expect(message.contains(reason), "\(message)")
                #expect(error.description.hasPrefix("Track point on line 4: "))
            }
        }
    }

    @Test func errorsSayWhatToDo() {
        #expect(
            GPXError.tooLarge(bytes: 20_000_000, maxBytes: 16_777_216).description
                == "The file is too large (19.1 MiB): GPX files of up to 16.0 MiB can be imported.")
        #expect(GPXError.noTrack(hasRoute: true).description.contains("planned route but no recorded track"))
        #expect(GPXError.documentTypeDeclaration.description.contains("<!DOCTYPE"))
    }
}

@Suite struct GPXTimestampTests {
    @Test func readsTheFormsFoundInFiles() {
        let base = Date(timeIntervalSince1970: 1_717_228_800)
        #expect(GPXTimestamp.parse("2024-06-01T08:00:00Z") == base)
        #expect(GPXTimestamp.parse("2024-06-01T08:00:00") == base)
        #expect(GPXTimestamp.parse("2024-06-01T11:00:00+03:00") == base)
        #expect(GPXTimestamp.parse("2024-06-01T03:30:00-0430") == base)
        #expect(GPXTimestamp.parse("2024-06-01T08:00:00.125Z") == base.addingTimeInterval(0.125))
        #expect(GPXTimestamp.parse("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
        #expect(GPXTimestamp.parse("2024-02-29T00:00:00Z") == Date(timeIntervalSince1970: 1_709_164_800))
    }

    @Test func refusesWhatIsNotADateAndTime() {
        for text in ["", "2024-06-01", "2024-13-01T00:00:00Z", "2024-06-01T08:00Z", "2024-06-01T08:00:00.Z", "today"] {
            #expect(GPXTimestamp.parse(text[...]) == nil, "\(text)")
        }
    }

    @Test func writesUTCWithMillisecondsOnlyWhenThereAreAny() {
        let base = Date(timeIntervalSince1970: 1_717_228_800)
        #expect(GPXTimestamp.format(base) == "2024-06-01T08:00:00Z")
        #expect(GPXTimestamp.format(base.addingTimeInterval(0.5)) == "2024-06-01T08:00:00.500Z")
        #expect(GPXTimestamp.format(Date(timeIntervalSince1970: -1.5)) == "1969-12-31T23:59:58.500Z")
        for seconds in stride(from: -86_400.0 * 800, to: 86_400 * 20_000, by: 86_399.7) {
            let date = Date(timeIntervalSince1970: (seconds * 1000).rounded() / 1000)
            #expect(GPXTimestamp.parse(GPXTimestamp.format(date)[...]) == date)
        }
    }
}
