import Basemap
import CairnAPI
import CairnServer
import CairnTestSupport
import Foundation
import Geo
import Routing
import Testing
import Vapor
import VaporTesting
import Zlib

@testable import CairnStreets

/// `/api/streets/basemap…` on the real Helsinki extract, through the whole application.
@Suite struct BasemapAPITests {
    /// The zoom-16 tile holding the Market Square and the harbour basin beside it.
    let marketSquare = TileID(z: 16, x: 37_310, y: 18_970)

    func info(_ app: Application) async throws -> BasemapInfo {
        try await app.testing().sendRequest(.GET, "/api/streets/basemap").decoded(BasemapInfo.self)
    }

    func tilePath(_ info: BasemapInfo, _ tile: TileID) -> String {
        info.tiles[0].replacingOccurrences(of: "{z}", with: "\(tile.z)").replacingOccurrences(
            of: "{x}", with: "\(tile.x)"
        )
        .replacingOccurrences(of: "{y}", with: "\(tile.y)")
    }

    @Test func theTileJSONSaysWhatTheMapCoversAndWhereItsTilesAre() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let response = try await app.testing().sendRequest(.GET, "/api/streets/basemap")

            #expect(response.status == .ok)
            #expect(response.headers.first(name: .cacheControl) == "no-cache")
            let info = try response.decoded(BasemapInfo.self)
            #expect(info.tilejson == "3.0.0" && info.name == "Helsinki" && info.source == "Helsinki.osm.pbf")
            #expect(info.tiles == ["/api/streets/basemap/\(info.version)/{z}/{x}/{y}.mvt"])
            #expect(info.minzoom == 0 && info.maxzoom == 16 && info.coverageDeclared)
            // The extract's header box, 24.935–24.953 E, 60.164–60.179 N.
            #expect(abs(info.bounds[0] - 24.9351762) < 1e-6 && abs(info.bounds[3] - 60.179113) < 1e-6)
            #expect(info.attribution.contains("OpenStreetMap"))
            #expect(
                Set(info.vectorLayers.map(\.id)).isSuperset(of: [
                    "water", "landcover", "building", "road", "poi", "place",
                ]))
            #expect((info.features["building"] ?? 0) > 400 && (info.features["water"] ?? 0) > 0)
            #expect(response.headers.first(name: .eTag) == "\"\(info.version)\"")
        }
    }

    @Test func aTileIsAGzippedVectorTileCachedForEver() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let info = try await info(app)

            let response = try await app.testing().sendRequest(
                .GET, tilePath(info, marketSquare), headers: ["Accept-Encoding": "gzip, deflate"])

            #expect(response.status == .ok)
            #expect(response.headers.contentType?.subType == "vnd.mapbox-vector-tile")
            #expect(response.headers.first(name: .contentEncoding) == "gzip")
            #expect(response.headers.first(name: .cacheControl) == "public, max-age=31536000, immutable")
            #expect(response.headers.first(name: .vary) == "Accept-Encoding")
            let gzipped = [UInt8](Data(buffer: response.body))
            #expect(gzipped.starts(with: [0x1F, 0x8B]))
            let layers = try VectorTile.decode(try Zlib.inflate(gzipped, limit: 64 << 20, format: .gzip))
            let names = Set(layers.map(\.name))
            #expect(names.isSuperset(of: ["water", "building", "road"]))
            let water = try #require(layers.first { $0.name == "water" })
            #expect(water.features.contains { $0.properties["class"] == .string("sea") })
            let roads = try #require(layers.first { $0.name == "road" })
            #expect(roads.features.contains { $0.properties["name"]?.string != nil })
        }
    }

    @Test func aClientThatDoesNotAcceptGzipGetsThePlainTile() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let info = try await info(app)

            let plain = try await app.testing().sendRequest(.GET, tilePath(info, marketSquare))
            let gzipped = try await app.testing().sendRequest(
                .GET, tilePath(info, marketSquare), headers: ["Accept-Encoding": "gzip"])

            #expect(plain.status == .ok && plain.headers.first(name: .contentEncoding) == nil)
            let inflated = try Zlib.inflate([UInt8](Data(buffer: gzipped.body)), limit: 64 << 20, format: .gzip)
            #expect([UInt8](Data(buffer: plain.body)) == inflated)
        }
    }

    @Test func everyZoomOfTheCoveredAreaHasTiles() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let info = try await info(app)
            let covered = WorldBox(
                BoundingBox(south: info.bounds[1], west: info.bounds[0], north: info.bounds[3], east: info.bounds[2]))

            for zoom in 0...16 {
                let tiles = TileID.covering(covered, zoom: zoom)
                var drawn = 0
                for tile in tiles {
                    let response = try await app.testing().sendRequest(
                        .GET, tilePath(info, tile), headers: ["Accept-Encoding": "gzip"])
                    #expect(response.status == .ok, "zoom \(zoom)")
                    if response.body.readableBytes > 0 { drawn += 1 }
                }
                // Below zoom 10 the whole extract is a few pixels: the web map marks it itself.
                if zoom >= 10 { #expect(drawn == tiles.count, "zoom \(zoom): \(drawn) of \(tiles.count) tiles draw") }
            }
        }
    }

    @Test func aTileOutsideTheCoveredAreaIsEmpty() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let info = try await info(app)
            // Tallinn, across the gulf.
            let tallinn = TileID.covering(
                WorldBox(BoundingBox(south: 59.43, west: 24.74, north: 59.44, east: 24.75)), zoom: 15)[0]

            let response = try await app.testing().sendRequest(
                .GET, tilePath(info, tallinn), headers: ["Accept-Encoding": "gzip"])

            #expect(response.status == .ok)
            #expect(response.body.readableBytes == 0)
            #expect(response.headers.first(name: .contentEncoding) == nil)
        }
    }

    @Test func tilesThatDoNotExistAreRefusedSayingWhy() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let info = try await info(app)
            let version = info.version

            let deep = try await app.testing().sendRequest(.GET, "/api/streets/basemap/\(version)/17/74620/37941.mvt")
            #expect(deep.status == .notFound)
            #expect(deep.problem?.detail == "Tiles go down to zoom 16; deeper zooms are drawn from zoom-16 tiles.")

            let outside = try await app.testing().sendRequest(.GET, "/api/streets/basemap/\(version)/3/8/2.mvt")
            #expect(outside.status == .notFound)
            #expect(outside.problem?.detail == "There is no tile 8/2 at zoom 3: x and y go from 0 to 7.")

            let old = try await app.testing().sendRequest(.GET, "/api/streets/basemap/0badc0de/3/4/2.mvt")
            #expect(old.status == .notFound)
            #expect(old.problem?.detail.contains("imported again. Reload the map") == true)
        }
    }

    @Test func malformedTileNumbersAreA422NamingEach() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let version = try await info(app).version

            let response = try await app.testing().sendRequest(.GET, "/api/streets/basemap/\(version)/-1/x/2.5.mvt")

            #expect(response.status == .unprocessableEntity)
            #expect(response.invalidFields == ["z", "x", "y"])
            #expect(response.problem?.errors?.first?.detail == "z must be a whole number from 0 up.")
        }
    }

    @Test func withoutAStreetNetworkTheBasemapIs503() async throws {
        try await withCairn { app in
            let response = try await app.testing().sendRequest(.GET, "/api/streets/basemap")

            #expect(response.status == .serviceUnavailable)
            #expect(response.problem?.detail.contains("cairn graph import") == true)
        }
    }

    @Test func aGraphImportedWithoutABasemapSaysHowToGetOne() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cairn-no-basemap-\(UUID()).cairngraph")
        defer { try? FileManager.default.removeItem(at: file) }
        try StreetMap.write(try TestStreets.helsinkiMap().network, to: file.path)

        let withoutBasemap: (inout CairnConfig) -> Void = {
            $0.streets = StreetsConfig(graphFile: file, required: true)
        }
        try await withCairn(withoutBasemap) { app in
            let response = try await app.testing().sendRequest(.GET, "/api/streets/basemap")
            let streets = try await app.testing().sendRequest(.GET, "/api/streets")

            #expect(response.status == .serviceUnavailable)
            #expect(response.problem?.detail.contains("imported without an offline map") == true)
            #expect(streets.status == .ok, "the streets still work")
        }
    }
}
