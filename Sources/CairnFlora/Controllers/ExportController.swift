import CairnAPI
import CairnPlatform
import Flora
import Fluent
import Foundation
import Vapor

/// `GET /api/flora/export/dwca.zip`: every observation that is not rejected, as a Darwin Core Archive
/// (`DarwinCoreArchive` documents the columns and vocabulary). The export is public: sensitive species appear
/// only at their generalised points, whoever asks.
struct ExportController: RouteCollection {
    let heavyWork: BoundedExecutor
    let now: @Sendable () -> Date

    func boot(routes: any RoutesBuilder) throws {
        routes.grouped("flora", "export").get("dwca.zip", use: export)
    }

    func export(req: Request) async throws -> Response {
        let rows = try await Observation.query(on: req.db).filter(\.$status != .rejected)
            .sort(\.$observedAt).sort(\.$id).with(\.$species).all()
        let occurrences = rows.map { row in
            DarwinCoreArchive.Occurrence(
                occurrenceID: "urn:uuid:\((row.id ?? UUID()).uuidString.lowercased())",
                scientificName: row.species.scientificName, vernacularName: row.species.commonName,
                family: row.species.family, decimalLatitude: row.publicLatitude,
                decimalLongitude: row.publicLongitude, coordinateUncertaintyInMeters: row.publicUncertaintyMeters,
                eventDate: row.observedAt, recordedBy: row.recordedBy, verified: row.status == .verified,
                dataGeneralizations: row.generalised ? Generalization.note : nil, occurrenceRemarks: row.comment)
        }
        let created = now()
        let bytes = try await heavyWork.run("writing the Darwin Core export") {
            try DarwinCoreArchive.archive(occurrences, title: "Cairn field guide observations", created: created)
        }
        let response = Response(status: .ok, body: .init(data: Data(bytes)))
        response.headers.contentType = HTTPMediaType(type: "application", subType: "zip")
        let day = created.formatted(Date.ISO8601FormatStyle().year().month().day())
        response.headers.replaceOrAdd(
            name: .contentDisposition, value: "attachment; filename=\"cairn-flora-dwca-\(day).zip\"")
        return response
    }
}
