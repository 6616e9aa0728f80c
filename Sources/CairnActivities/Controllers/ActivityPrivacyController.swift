import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Geo
import Vapor

extension ActivityPrivacy: Content {}

/// `GET`/`PUT /api/activities/privacy`: the privacy zone around home. Needs an account.
struct ActivityPrivacyController: RouteCollection {
    let identity: Identity
    let platform: PlatformServices

    func boot(routes: any RoutesBuilder) throws {
        let privacy = routes.grouped("activities", "privacy")
        privacy.get(use: show)
        privacy.put(use: update)
    }

    func show(req: Request) async throws -> ActivityPrivacy {
        let user = try await identity.requireUser(req, to: "set a privacy zone")
        let setting = try await ActivityPrivacySetting.query(on: req.db).filter(\.$user.$id == user.requireID()).first()
        return Self.privacy(setting)
    }

    /// Sets the zone: `home` and `radius_m` (100–2,000 m), or `radius_m: 0` (and any `home`) for none.
    func update(req: Request) async throws -> ActivityPrivacy {
        let user = try await identity.requireUser(req, to: "set a privacy zone")
        let userID = try user.requireID()
        try req.refuseUnknownFields(allowed: ["home", "radius_m"])
        let body = try req.decodeBody([String: JSONValue].self)
        var reader = JSONFieldReader(body)
        var home: Coordinate?
        switch body["home"] {
        case nil, .null?: home = nil
        case .object(let members)?:
            if case .number(let lat)? = members["lat"], case .number(let lon)? = members["lon"],
                Coordinate(latitude: lat, longitude: lon).isValid
            {
                home = Coordinate(latitude: lat, longitude: lon)
            } else {
                reader.fail("home", "home must be {\"lat\": …, \"lon\": …} in decimal degrees.")
            }
        default:
            reader.fail("home", "home must be {\"lat\": …, \"lon\": …} in decimal degrees, or null.")
        }
        let radius = reader.number("radius_m", in: 0...PrivacyZone.radiusRange.upperBound, required: true)
        if let radius, radius > 0, !PrivacyZone.radiusRange.contains(radius) {
            reader.fail("radius_m", "radius_m must be 0 (no zone) or from 100 to 2000 metres.")
        }
        if let radius, radius > 0, home == nil, reader.errors.isEmpty {
            reader.fail("home", "Choose where home is for a privacy zone.")
        }
        guard reader.errors.isEmpty, let radius else { throw Problem.invalid(reader.errors) }
        let zoneHome = radius > 0 ? home : nil
        let now = platform.now()
        let saved = try await platform.writer.transaction(on: req.db) { db -> ActivityPrivacySetting in
            let setting =
                try await ActivityPrivacySetting.query(on: db).filter(\.$user.$id == userID).first()
                ?? ActivityPrivacySetting()
            setting.$user.id = userID
            setting.homeLatitude = zoneHome?.latitude
            setting.homeLongitude = zoneHome?.longitude
            setting.radiusMeters = radius
            setting.updatedAt = now
            try await setting.save(on: db)
            return setting
        }
        return Self.privacy(saved)
    }

    static func privacy(_ setting: ActivityPrivacySetting?) -> ActivityPrivacy {
        guard let setting, let lat = setting.homeLatitude, let lon = setting.homeLongitude, setting.radiusMeters > 0
        else { return ActivityPrivacy(home: nil, radiusM: 0) }
        return ActivityPrivacy(home: LatLon(lat: lat, lon: lon), radiusM: setting.radiusMeters)
    }
}
