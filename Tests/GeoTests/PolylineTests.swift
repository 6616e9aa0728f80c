import Testing

@testable import Geo

@Suite struct PolylineTests {
    /// The worked example from Google's Encoded Polyline Algorithm Format documentation.
    let example = [
        Coordinate(latitude: 38.5, longitude: -120.2),
        Coordinate(latitude: 40.7, longitude: -120.95),
        Coordinate(latitude: 43.252, longitude: -126.453),
    ]

    @Test func encodesGooglesExample() {
        #expect(Polyline.encode(example) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    }

    @Test func decodesGooglesExample() throws {
        let decoded = try Polyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@")

        #expect(decoded.count == 3)
        for (a, b) in zip(decoded, example) {
            #expect(abs(a.latitude - b.latitude) < 1e-9 && abs(a.longitude - b.longitude) < 1e-9)
        }
    }

    @Test func roundTripsAtPrecisionSix() throws {
        let track = [
            Coordinate(latitude: 60.170_123, longitude: 24.941_234),
            Coordinate(latitude: 60.170_999, longitude: 24.939_001),
        ]

        let decoded = try Polyline.decode(Polyline.encode(track, precision: 6), precision: 6)

        #expect(decoded == track)
    }

    @Test func rejectsTruncatedAndForeignText() {
        #expect(throws: Polyline.DecodingError.self) { try Polyline.decode("_p~iF~ps|U_ulL") }
        #expect(throws: Polyline.DecodingError.self) { try Polyline.decode("_p~iF\u{7f}") }
        #expect(throws: Polyline.DecodingError.self) { try Polyline.decode("_p~i") }
    }
}
