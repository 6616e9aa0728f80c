import Basemap
import CairnAPI
import CairnPlatform
import Geo
import Routing

/// What Streets declares for other modules: the loaded street network (`map`, nil when the installation has
/// none), the 503 that says so, and the 422 for a point too far from any walkable way. The composition root
/// hands it to the modules that need streets (`RunsModule(streets:)`).
package struct Streets: Sendable {
    /// The loaded street network, or nil when the installation has none.
    package let map: StreetMap?
    /// The offline basemap drawn from the same extract, or nil when the graph was imported without one.
    let basemap: Basemap?
    let config: StreetsConfig

    /// The street network, or 503 saying how the operator adds one.
    package func requireMap() throws -> StreetMap {
        guard let map else { throw StreetsProblem.noNetwork }
        return map
    }

    /// 503: this installation has no street network.
    package var unavailable: Problem { StreetsProblem.noNetwork }

    /// The walkable point nearest to `coordinate`; 422 "No walkable path near this point." on `field`.
    package func snap(_ coordinate: Coordinate, field: String, on map: StreetMap) throws -> EdgePosition {
        do {
            return try map.router.snap(coordinate)
        } catch {
            throw StreetsProblem.noWalkablePath(field: field)
        }
    }

    /// The street network in a few words, for the start-up log line.
    package var description: String {
        guard let summary = map?.network.summary else {
            return
                "none (\(config.graphFile.path) is missing: street layer, place search and run planner are off)"
        }
        let basemap =
            self.basemap.map { "basemap of \($0.metadata.name), \($0.featureCount) features" }
            ?? "no basemap (re-import the graph to draw the offline map)"
        return
            "\(summary.source): \(summary.nodes) nodes, \(summary.edges) edges, \(summary.landmarks) landmarks; \(basemap)"
    }
}

/// How street questions fail over HTTP.
enum StreetsProblem {
    static let noNetwork = Problem(
        status: .serviceUnavailable,
        detail: "This server has no street network loaded, so streets, place search and routes are unavailable. "
            + "An administrator can import one with `cairn graph import` (see docs/streets.md).")

    /// 422 for a point too far from any walkable way, naming the request field it came from.
    static func noWalkablePath(field: String) -> Problem {
        Problem.invalid(field: field, "No walkable path near this point.")
    }
}

extension LandmarkSummary {
    /// A landmark as the API lists it (the street API and the run planner), `distanceMeters` to 0.1 m.
    package init(_ landmark: Landmark, distanceMeters: Double) {
        self.init(
            id: landmark.id.description, name: landmark.name, category: landmark.category.rawValue,
            lat: landmark.coordinate.latitude, lon: landmark.coordinate.longitude,
            distanceM: (distanceMeters * 10).rounded() / 10)
    }
}
