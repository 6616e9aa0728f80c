import CairnAPI
import Foundation
import Geo
import Testing

/// The wire shape of a repeated stretch, as runs.yaml's `RunRoute.repeated` requires it.
@Suite struct RunRepeatedStretchTests {
    @Test func anUnnamedStretchSaysNameNullInsteadOfLeavingTheMemberOut() throws {
        let stretch = RunRepeatedStretch(
            name: nil, lengthM: 120, startsAtM: 40,
            geometry: .lineString([
                Position(Coordinate(latitude: 60.17, longitude: 24.94)),
                Position(Coordinate(latitude: 60.17, longitude: 24.95)),
            ]))

        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(stretch)) as? [String: Any])

        #expect(object.keys.sorted() == ["geometry", "length_m", "name", "starts_at_m"])
        #expect(object["name"] is NSNull)
        #expect(try JSONDecoder().decode(RunRepeatedStretch.self, from: JSONEncoder().encode(stretch)) == stretch)
    }
}
