import Basemap
import CairnAPI
import CairnPlatform
import Foundation
import Vapor
import Zlib

extension BasemapInfo: Content {}

/// `/api/streets/basemap…`: the offline basemap drawn from the same OpenStreetMap extract as the street
/// network (docs/basemap.md) — its TileJSON, and vector tiles cut on demand, gzipped and cached in memory.
/// Tile URLs carry the basemap's version, so a tile may be cached for ever by browsers and the web app's
/// offline store; a re-import changes the version and clients fetch afresh.
struct BasemapController: RouteCollection {
    let streets: Streets
    let tiles: TileCache?
    /// Threads for cutting tiles on a cache miss.
    let work: BoundedExecutor

    func boot(routes: any RoutesBuilder) throws {
        let basemap = routes.grouped("streets", "basemap")
        basemap.get(use: info)
        basemap.get(":version", ":z", ":x", ":y", use: tile)
    }

    func info(req: Request) throws -> Response {
        let tiles = try available()
        let metadata = tiles.basemap.metadata
        let coverage = metadata.coverage
        let info = BasemapInfo(
            name: metadata.name, attribution: "© OpenStreetMap contributors", version: metadata.version,
            tiles: ["/api/streets/basemap/\(metadata.version)/{z}/{x}/{y}.mvt"], minzoom: 0, maxzoom: metadata.maxZoom,
            bounds: [coverage.west, coverage.south, coverage.east, coverage.north],
            center: [coverage.center.longitude, coverage.center.latitude, 15], vectorLayers: Self.vectorLayers,
            source: metadata.source, coverageDeclared: metadata.coverageDeclared, features: metadata.features)
        let response = Response(status: .ok)
        try response.content.encode(info)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
        response.headers.replaceOrAdd(name: .eTag, value: "\"\(metadata.version)\"")
        return response
    }

    func tile(req: Request) async throws -> Response {
        let tiles = try available()
        let id = try TileRequest(req, basemap: tiles.basemap).tile
        let gzipped: [UInt8]
        if let hit = tiles.cachedTile(id) {
            gzipped = hit
        } else {
            gzipped = try await work.run("drawing map tiles") { try tiles.gzippedTile(id) }
        }
        let response = Response(status: .ok)
        response.headers.contentType = HTTPMediaType(type: "application", subType: "vnd.mapbox-vector-tile")
        response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=31536000, immutable")
        response.headers.replaceOrAdd(name: .vary, value: "Accept-Encoding")
        // The bytes are gzipped once, here; the server's own compression must not wrap them again.
        response.headers.responseCompression = .disable
        if gzipped.isEmpty {
            response.body = .empty
        } else if Self.acceptsGzip(req) {
            response.headers.replaceOrAdd(name: .contentEncoding, value: "gzip")
            response.body = .init(data: Data(gzipped))
        } else {
            response.body = .init(data: Data(try Zlib.inflate(gzipped, limit: 64 << 20, format: .gzip)))
        }
        return response
    }

    private func available() throws -> TileCache {
        guard streets.map != nil else { throw StreetsProblem.noNetwork }
        guard let tiles else { throw BasemapProblem.noBasemap }
        return tiles
    }

    static func acceptsGzip(_ req: Request) -> Bool {
        req.headers[.acceptEncoding].joined(separator: ",").split(separator: ",").contains { part in
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard fields.first == "gzip" || fields.first == "*" else { return false }
            return !fields.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "") == "q=0" }
        }
    }

    static let vectorLayers: [BasemapInfo.VectorLayer] = [
        .init(
            id: "landuse",
            description:
                "Residential, commercial, industrial, railway, education, hospital areas; squares, piers, parkings",
            fields: ["class": "String"]),
        .init(
            id: "landcover",
            description: "Parks, gardens, grass, meadows, woods, scrub, wetland, sand, pitches, cemeteries",
            fields: ["class": "String"]),
        .init(
            id: "water", description: "Sea (from the coastline), lakes, rivers, basins, pools",
            fields: ["class": "String"]),
        .init(
            id: "waterway", description: "Rivers, canals, streams, drains",
            fields: ["class": "String", "brunnel": "String"]),
        .init(id: "building", description: "Buildings", fields: ["class": "String"]),
        .init(
            id: "road", description: "Roads by class, paths, steps",
            fields: ["class": "String", "name": "String", "brunnel": "String", "layer": "Number"]),
        .init(
            id: "railway", description: "Railways, subways, trams",
            fields: ["class": "String", "brunnel": "String", "layer": "Number"]),
        .init(
            id: "place", description: "Cities, towns, suburbs, neighbourhoods",
            fields: ["class": "String", "name": "String", "rank": "Number"]),
        .init(
            id: "poi", description: "Stations, cafés, restaurants, toilets, drinking water, shops, parkings…",
            fields: ["class": "String", "name": "String", "rank": "Number"]),
        .init(
            id: "label", description: "Names of parks, water, squares and buildings",
            fields: ["class": "String", "name": "String", "rank": "Number"]),
    ]
}

/// The path parameters of a tile request, checked: z, x and y whole numbers (y may end in `.mvt`), the
/// version the one served, z at most the basemap's deepest zoom, x and y inside that zoom's grid.
struct TileRequest {
    let tile: TileID

    init(_ req: Request, basemap: Basemap) throws {
        var errors: [Problem.FieldError] = []
        func number(_ name: String, _ raw: String?) -> Int? {
            guard let raw, let value = Int(raw), value >= 0 else {
                errors.append(.init(field: name, detail: "\(name) must be a whole number from 0 up."))
                return nil
            }
            return value
        }
        let z = number("z", req.parameters.get("z")), x = number("x", req.parameters.get("x"))
        var yText = req.parameters.get("y")
        if let text = yText, text.hasSuffix(".mvt") { yText = String(text.dropLast(4)) }
        let y = number("y", yText)
        guard errors.isEmpty, let z, let x, let y else { throw Problem.invalid(errors) }
        let version = req.parameters.get("version") ?? ""
        guard version == basemap.metadata.version else { throw BasemapProblem.otherVersion(version) }
        let maxZoom = basemap.metadata.maxZoom
        guard z <= maxZoom else {
            throw Problem.notFound(
                "Tiles go down to zoom \(maxZoom); deeper zooms are drawn from zoom-\(maxZoom) tiles.")
        }
        let tile = TileID(z: z, x: x, y: y)
        guard tile.isValid else {
            let last = (1 << z) - 1
            throw Problem.notFound("There is no tile \(x)/\(y) at zoom \(z): x and y go from 0 to \(last).")
        }
        self.tile = tile
    }
}

/// How basemap questions fail over HTTP.
enum BasemapProblem {
    static let noBasemap = Problem(
        status: .serviceUnavailable,
        detail: "This server's street graph was imported without an offline map. An administrator can import it again "
            + "with `cairn graph import` (see docs/basemap.md); until then maps show streets only.")

    static func otherVersion(_ version: String) -> Problem {
        Problem.notFound(
            "Map version \(version) is not served here any more: the map was imported again. Reload the map to get the current one."
        )
    }
}
