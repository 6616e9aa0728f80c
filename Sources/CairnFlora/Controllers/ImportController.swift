import CairnAPI
import CairnAccounts
import CairnPlatform
import Foundation
import Vapor

extension FloraImportResult: Content {}

/// `POST /api/flora/import` (seed 5.2.4): researchers and admins add species, tags, filters and observations
/// from CSV files, sent as `multipart/form-data` with the files in the fields `species`, `tags`, `filters`
/// and `observations` (any of them). All or nothing: a bad row rejects the whole import with a 422 naming
/// every bad row by file, line and column.
struct ImportController: RouteCollection {
    /// The largest import sent at once.
    static let maxBytes = 32 << 20

    let identity: Identity
    let importer: CatalogueImporter
    let limit: RateLimited

    func boot(routes: any RoutesBuilder) throws {
        routes.grouped("flora").limited(by: limit).on(.POST, "import", bodyLimit: Self.maxBytes, use: run)
    }

    struct Form: Content {
        var species: File?
        var tags: File?
        var filters: File?
        var observations: File?
    }

    func run(req: Request) async throws -> FloraImportResult {
        let user = try await identity.requireRole(req, .researcher)
        guard req.headers.contentType?.type == "multipart" else {
            throw Problem(
                status: .unsupportedMediaType,
                detail: "Send the CSV files as multipart/form-data in the fields species, tags, filters, observations.")
        }
        let form: Form
        do {
            form = try req.content.decode(Form.self)
        } catch let error as any AbortError {
            throw error
        } catch {
            throw Problem(
                status: .badRequest,
                detail: "The upload is not readable multipart/form-data; send the CSV files in the fields species, "
                    + "tags, filters, observations.")
        }
        func file(_ file: File?, _ fallback: String) -> CatalogueImporter.File? {
            guard let file, file.data.readableBytes > 0 else { return nil }
            return CatalogueImporter.File(
                name: file.filename.isEmpty ? fallback : file.filename, bytes: Array(buffer: file.data))
        }
        let files = CatalogueImporter.Files(
            species: file(form.species, "species.csv"), tags: file(form.tags, "tags.csv"),
            filters: file(form.filters, "filters.csv"), observations: file(form.observations, "observations.csv"))
        let result = try await importer.run(files, on: req.db)
        req.logger.notice(
            "flora import",
            metadata: [
                "by": "\(user.username)", "species_created": "\(result.species.created)",
                "species_updated": "\(result.species.updated)",
                "observations_created": "\(result.observations.created)",
            ])
        return result
    }
}
