import Testing

@testable import Routing

@Suite struct WalkableWayRuleTests {
    func classify(_ tags: [(String, String)]) -> (HighwayClass, Bool)? {
        WalkableWayRule.classify(OSMTags(tags)).map { ($0.highway, $0.flags.contains(.sheltered)) }
    }

    @Test(arguments: [
        [("highway", "motorway")], [("highway", "motorway_link")], [("highway", "trunk")],
        [("highway", "trunk"), ("sidewalk", "no")], [("highway", "primary"), ("motorroad", "yes")],
        [("highway", "footway"), ("foot", "no")], [("highway", "cycleway"), ("foot", "use_sidepath")],
        [("highway", "service"), ("access", "private")], [("highway", "footway"), ("access", "no")],
        [("highway", "construction")], [("highway", "proposed")], [("highway", "bus_stop")],
        [("highway", "service"), ("area", "yes")], [("building", "yes")], [("railway", "rail")],
    ])
    func notWalkable(_ tags: [(String, String)]) {
        #expect(classify(tags) == nil)
    }

    @Test func walkableWaysGetTheirClass() {
        #expect(classify([("highway", "residential")])! == (.residential, false))
        #expect(classify([("highway", "primary_link")])! == (.primary, false))
        #expect(classify([("highway", "trunk"), ("sidewalk", "both")])! == (.trunk, false))
        #expect(classify([("highway", "trunk"), ("sidewalk:right", "yes")])! == (.trunk, false))
        #expect(classify([("highway", "trunk"), ("foot", "designated")])! == (.trunk, false))
        #expect(
            classify([("highway", "service"), ("access", "private"), ("foot", "permissive")])! == (.service, false))
        #expect(classify([("highway", "pedestrian"), ("area", "yes")])! == (.pedestrian, false))
        #expect(classify([("railway", "platform")])! == (.platform, false))
        #expect(classify([("highway", "trail")])! == (.path, false))
        #expect(classify([("highway", "cycleway"), ("access", "destination")])! == (.cycleway, false))
    }

    @Test func shelteredWays() {
        #expect(classify([("highway", "footway"), ("covered", "yes")])!.1)
        #expect(classify([("highway", "footway"), ("covered", "arcade")])!.1)
        #expect(classify([("highway", "pedestrian"), ("covered", "colonnade")])!.1)
        #expect(classify([("highway", "service"), ("tunnel", "building_passage")])!.1)
        #expect(classify([("highway", "footway"), ("tunnel", "yes")])!.1)
        #expect(classify([("highway", "steps"), ("tunnel", "yes")])!.1)
        #expect(classify([("highway", "corridor")])!.1)
        #expect(classify([("highway", "footway"), ("indoor", "yes")])!.1)
        #expect(classify([("highway", "residential"), ("arcade:left", "yes")])!.1)
        #expect(classify([("railway", "platform"), ("shelter", "yes")])!.1)
        #expect(classify([("public_transport", "platform"), ("amenity", "shelter")])!.1)
    }

    @Test func unshelteredWays() {
        #expect(!classify([("highway", "residential"), ("tunnel", "yes")])!.1, "a road tunnel is not a shelter")
        #expect(!classify([("highway", "footway"), ("covered", "no")])!.1)
        #expect(!classify([("highway", "footway"), ("indoor", "no")])!.1)
        #expect(!classify([("highway", "footway"), ("arcade:left", "no")])!.1)
        #expect(!classify([("railway", "platform"), ("shelter", "no")])!.1)
        #expect(!classify([("highway", "footway"), ("shelter", "yes")])!.1, "shelter=yes counts on platforms only")
    }
}
