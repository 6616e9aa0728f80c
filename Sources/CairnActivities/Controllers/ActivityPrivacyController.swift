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
        privacy.limited(by: platform.rateLimited(ActivitiesRateLimits.privacy)).put(use: update)
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
        let form = try PrivacyZoneForm(req)
        let (home, radius) = (form.home, form.radiusMeters)
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

/// `PUT /api/activities/privacy`: `home` (`{"lat", "lon"}`) and `radius_m` (100–2,000 m), or `radius_m: 0` (and
/// any `home`) for no zone.
struct PrivacyZoneForm {
    static let fields: Set<String> = ["home", "radius_m"]

    let home: Coordinate?
    let radiusMeters: Double

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let home = input.point("home", required: false)
        let radius = input.number("radius_m", in: 0...PrivacyZone.radiusRange.upperBound)
        if let radius, radius > 0, !PrivacyZone.radiusRange.contains(radius) {
            input.fail("radius_m", "radius_m must be 0 (no zone) or from 100 to 2000 metres.")
        }
        if let radius, radius > 0, home == nil, input.isValid {
            input.fail("home", "Choose where home is for a privacy zone.")
        }
        self.home = home
        radiusMeters = try input.finish(radius)
    }
}
