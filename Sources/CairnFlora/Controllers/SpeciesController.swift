import CairnAPI
import CairnPlatform
import Flora
import Fluent
import Foundation
import SQLKit
import Vapor

extension FloraSpeciesList: Content {}
extension FloraSpeciesDetail: Content {}
extension FloraCatalogue: Content {}

/// The field guide's catalogue (seed 1.2, 1.3, 2.1, 2.2): species lists filtered with facet counts, species
/// pages, their images, and the whole catalogue for the device's offline copy. Open to everyone.
struct SpeciesController: RouteCollection {
    let store: CatalogueStore
    let imagesFolder: URL

    func boot(routes: any RoutesBuilder) throws {
        let flora = routes.grouped("flora")
        flora.get("species", use: list)
        flora.get("species", ":id", use: show)
        flora.get("species", ":id", "image", use: image)
        flora.get("catalogue", use: catalogue)
    }

    func list(req: Request) async throws -> FloraSpeciesList {
        let query = try SpeciesQuery(req)
        let snapshot = try await store.current(on: req.db)
        let result: SearchResult
        do {
            result = try snapshot.index.search(query.selection)
        } catch {
            throw FloraProblem.filters(error)
        }
        let chosen = Set(query.selection.filters)
        func option(_ filter: FilterDefinition) -> FloraFilterOption {
            FloraFilterOption(
                id: filter.id, group: filter.group, label: filter.label, exclusive: filter.exclusive,
                count: result.facets[filter.id] ?? 0,
                selected: filter.exclusive ? filter.id == query.selection.exclusive : chosen.contains(filter.id))
        }
        let page = result.species.dropFirst(query.offset).prefix(query.limit)
        return FloraSpeciesList(
            species: page.map(Self.summary), count: result.species.count, limit: query.limit, offset: query.offset,
            exclusive: query.selection.exclusive, filters: query.selection.filters,
            exclusiveFilters: result.exclusiveFilters.map(option), availableFilters: result.offeredFilters.map(option),
            catalogueVersion: snapshot.version)
    }

    func show(req: Request) async throws -> FloraSpeciesDetail {
        let snapshot = try await store.current(on: req.db)
        guard let id = req.parameters.get("id"), let species = snapshot.index.species.first(where: { $0.id == id })
        else { throw FloraProblem.speciesNotFound }
        let counts = try await Self.observationCounts(of: [id], on: req.db)[id] ?? (0, 0)
        return Self.detail(species, catalogue: snapshot.index, counts: counts)
    }

    func image(req: Request) async throws -> Response {
        guard let id = req.parameters.get("id"), let record = try await SpeciesRecord.find(id, on: req.db),
            let file = record.imageFile
        else { throw Problem.notFound("This species has no image.") }
        let path = imagesFolder.appendingPathComponent(file).path
        guard FileManager.default.fileExists(atPath: path) else { throw Problem.notFound("This species has no image.") }
        let response = try await req.fileio.asyncStreamFile(
            at: path, mediaType: file.hasSuffix(".png") ? .png : .jpeg)
        response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=86400")
        return response
    }

    /// Everything, for the device: it keeps this and filters without a signal.
    func catalogue(req: Request) async throws -> Response {
        let snapshot = try await store.current(on: req.db)
        let etag = "\"flora-\(snapshot.version)\""
        if req.headers.first(name: .ifNoneMatch) == etag {
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .eTag, value: etag)
            return Response(status: .notModified, headers: headers)
        }
        let counts = try await Self.observationCounts(of: nil, on: req.db)
        let catalogue = snapshot.index
        let body = FloraCatalogue(
            version: snapshot.version,
            species: catalogue.species.map { Self.detail($0, catalogue: catalogue, counts: counts[$0.id] ?? (0, 0)) },
            tags: catalogue.tags.map(Self.tag),
            filters: catalogue.filters.map {
                FloraFilterDefinition(
                    id: $0.id, group: $0.group, label: $0.label, exclusive: $0.exclusive, field: $0.field.rawValue,
                    value: $0.value, appliesTo: $0.appliesTo)
            })
        let response = try await body.encodeResponse(for: req)
        response.headers.replaceOrAdd(name: .eTag, value: etag)
        return response
    }

    static func summary(_ species: Species) -> FloraSpeciesSummary {
        FloraSpeciesSummary(
            id: species.id, scientificName: species.scientificName, commonName: species.commonName,
            family: species.family, group: species.group.rawValue, flowerColors: species.flowerColors.map(\.rawValue),
            floweringMonths: species.floweringMonths, habitats: species.habitats, sensitive: species.sensitive,
            imageUrl: species.image == nil ? nil : "/api/flora/species/\(species.id)/image")
    }

    static func tag(_ tag: Tag) -> FloraTagInfo {
        FloraTagInfo(id: tag.id, name: tag.name, kind: tag.kind, parentId: tag.parentID)
    }

    static func detail(
        _ species: Species, catalogue: Catalogue, counts: (all: Int, verified: Int)
    ) -> FloraSpeciesDetail {
        let tagsByID = Dictionary(catalogue.tags.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var tags: [Tag] = []
        var next: String? = species.familyTagID
        while let id = next, let tag = tagsByID[id], !tags.contains(tag) {
            tags.append(tag)
            next = tag.parentID
        }
        tags += species.tagIDs.compactMap { tagsByID[$0] }
        return FloraSpeciesDetail(
            species: summary(species), description: species.description,
            elevationMinM: species.elevationMinMeters, elevationMaxM: species.elevationMaxMeters,
            tags: tags.map(tag), observationCount: counts.all, verifiedCount: counts.verified)
    }

    /// Observations that are not rejected, and the verified ones, per species (`ids` nil: every species).
    static func observationCounts(
        of ids: [String]?, on db: any Database
    ) async throws -> [String: (all: Int, verified: Int)] {
        let sql = db as! any SQLDatabase
        var query = sql.select().column("species_id").column("status")
            .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from(Observation.schema)
            .where("status", .notEqual, VerificationStatus.rejected.rawValue)
        if let ids { query = query.where("species_id", .in, ids) }
        let rows = try await query.groupBy("species_id").groupBy("status").all()
        var counts: [String: (all: Int, verified: Int)] = [:]
        for row in rows {
            let id = try row.decode(column: "species_id", as: String.self)
            let n = try row.decode(column: "n", as: Int.self)
            counts[id, default: (0, 0)].all += n
            if try row.decode(column: "status", as: String.self) == VerificationStatus.verified.rawValue {
                counts[id, default: (0, 0)].verified += n
            }
        }
        return counts
    }
}
