import CairnAPI
import CairnPlatform
import Fluent
import Vapor

/// Profile pictures: `PUT /api/account/avatar` (the image as the body, PNG or JPEG),
/// `DELETE /api/account/avatar` (back to the default avatar), `GET /api/users/{id}/avatar`.
///
/// Uploads are sanitised before they touch the disk (`ImageSanitizer`: PNG decoded and written afresh
/// at most 512 pixels wide, JPEG stripped of all metadata) and kept in the user's folder.
struct AvatarController: RouteCollection {
    let accounts: AccountsContext

    var maxBytes: Int { accounts.config.avatarMaxBytes }

    func boot(routes: any RoutesBuilder) throws {
        routes.limited(inHandler: [AccountsRateLimits.avatarUploads])
            .on(.PUT, "account", "avatar", bodyLimit: maxBytes, use: upload)
        routes.delete("account", "avatar", use: remove)
        routes.get("users", ":id", "avatar", use: show)
    }

    func upload(req: Request) async throws -> Response {
        let user = try await accounts.identity.requireUser(req, to: "add a profile picture")
        guard let body = req.body.data, body.readableBytes > 0 else {
            throw Problem.invalid(field: "avatar", "Choose a picture to upload.")
        }
        let userID = try user.requireID()
        try await accounts.rateLimits.take(AccountsRateLimits.avatarUploads, key: userID.uuidString)
        let bytes = Array(buffer: body)
        let sanitized: ImageSanitizer.Sanitized
        do {
            try ImageSanitizer.refuseOversized(bytes)
            sanitized = try await accounts.platform.heavyWork.run(
                "reading pictures", client: "avatar:\(userID)", perClient: 1
            ) { try ImageSanitizer.sanitize(bytes) }
        } catch ImageSanitizer.Refusal.unsupportedType {
            throw Problem(status: .unsupportedMediaType, detail: "The picture must be a PNG or JPEG image.")
        } catch ImageSanitizer.Refusal.tooManyPixels {
            let side = ImageSanitizer.maxSourceSide
            throw Problem(
                status: .payloadTooLarge,
                detail:
                    "The picture has too many pixels; use one of at most \(side) × \(side) (16 megapixels, 8 bits per channel)."
            )
        } catch ImageSanitizer.Refusal.unreadable(let reason) {
            throw Problem.invalid(field: "avatar", "The picture cannot be read: \(reason).")
        }
        let userFiles = accounts.platform.userFiles
        let folder = userFiles.folder(for: userID).appendingPathComponent("accounts", isDirectory: true)
        let file = folder.appendingPathComponent("avatar.\(sanitized.format.fileExtension)")
        try await accounts.platform.fileWork.run {
            _ = try userFiles.folder(for: userID, module: "accounts")
            try WholeFile.write(Data(sanitized.bytes), to: file)
        }
        let previousFormat = user.avatarFormat
        user.avatarFormat = sanitized.format.rawValue
        user.avatarUpdatedAt = accounts.now()
        do {
            try await accounts.writer.transaction(on: req.db) { try await user.save(on: $0) }
        } catch {
            // Not saved (a full disk): a picture of another format than the one on record goes again.
            if previousFormat != sanitized.format.rawValue {
                try? await accounts.platform.fileWork.run { WholeFile.remove([file]) }
            }
            throw error
        }
        try await accounts.platform.fileWork.run {
            let others = [ImageSanitizer.Format.png, .jpeg].filter { $0 != sanitized.format }
            WholeFile.remove(others.map { folder.appendingPathComponent("avatar.\($0.fileExtension)") })
        }
        return try await AccountPresenter.account(user).encodeResponse(for: req)
    }

    func remove(req: Request) async throws -> Response {
        let user = try await accounts.identity.requireUser(req)
        if let file = try self.file(of: user) {
            try await accounts.platform.fileWork.run { try? FileManager.default.removeItem(at: file) }
        }
        user.avatarFormat = nil
        user.avatarUpdatedAt = nil
        try await accounts.writer.transaction(on: req.db) { try await user.save(on: $0) }
        return try await AccountPresenter.account(user).encodeResponse(for: req)
    }

    func show(req: Request) async throws -> Response {
        guard let id = req.parameters.get("id", as: UUID.self), let user = try await User.find(id, on: req.db),
            let file = try self.file(of: user),
            let format = user.avatarFormat.flatMap(ImageSanitizer.Format.init),
            FileManager.default.fileExists(atPath: file.path)
        else { throw Problem.notFound("This user has no profile picture.") }
        let response = try await req.fileio.asyncStreamFile(
            at: file.path, mediaType: HTTPMediaType(type: "image", subType: format == .png ? "png" : "jpeg"))
        response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=86400")
        return response
    }

    func file(of user: User) throws -> URL? {
        guard let format = user.avatarFormat.flatMap(ImageSanitizer.Format.init) else { return nil }
        return accounts.platform.userFiles.folder(for: try user.requireID())
            .appendingPathComponent("accounts/avatar.\(format.fileExtension)")
    }
}
