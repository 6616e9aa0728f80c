import CairnAPI
import CairnPlatform
import Fluent
import Foundation
import Geo
import Trails

/// Keeping trails: drafts from an importer become trails (a draft whose source is known updates its trail,
/// keeping what an admin wrote), and trails become what the API shows.
struct TrailCatalogue: Sendable {
    let writer: DatabaseWriter
    let now: @Sendable () -> Date

    /// Why a draft could not be kept (too long for the spatial index, across the antimeridian).
    struct Skipped: Sendable, Equatable {
        var name: String
        var reason: String
    }

    /// What `keep` did.
    struct Kept: Sendable {
        var created: [TrailRecord] = []
        var updated: [TrailRecord] = []
        var skipped: [Skipped] = []
        /// Uploaded photos whose items the files no longer have: remove their files once this commits.
        var droppedPhotoIDs: Set<UUID> = []
    }

    /// Keeps every draft in one write transaction; `demo` fills the facts no data gives with marked demo text.
    func keep(_ drafts: [TrailDraft], demo: Bool, on db: any Database) async throws -> Kept {
        let now = now()
        return try await writer.transaction(on: db) { db in
            var kept = Kept()
            for draft in drafts {
                let existing = try await TrailRecord.query(on: db).filter(\.$source == draft.source).first()
                let trail = existing ?? Self.blank(source: draft.source, now: now)
                let photos = existing?.photoPlaces
                do {
                    try trail.setPlace(draft.geometry)
                } catch {
                    kept.skipped.append(Skipped(name: draft.name, reason: "\(error)"))
                    continue
                }
                Self.fill(trail, from: draft, isNew: existing == nil)
                if demo && (existing == nil || existing?.demoFacts == true) { DemoFacts.apply(to: trail, draft: draft) }
                if let photos {
                    trail.restorePhotos(photos)
                    kept.droppedPhotoIDs.formUnion(photos.ids.subtracting(trail.photoIDs))
                }
                trail.updatedAt = now
                try await trail.save(on: db)
                if existing == nil { kept.created.append(trail) } else { kept.updated.append(trail) }
            }
            if !kept.created.isEmpty || !kept.updated.isEmpty { try await TrailCatalogueState.bump(on: db, at: now) }
            return kept
        }
    }

    static func blank(source: String, now: Date) -> TrailRecord {
        let trail = TrailRecord()
        trail.id = UUID()
        trail.source = source
        trail.description = ""
        trail.fees = ""
        trail.seasonHours = ""
        trail.parkingRules = ""
        trail.additionalFees = ""
        trail.rangers = []
        trail.safety = []
        trail.pointsOfInterest = []
        trail.amenities = []
        trail.focalPoints = []
        trail.huntingArea = false
        trail.demoFacts = false
        trail.createdAt = now
        return trail
    }

    /// What the source says. On an update, text an admin may have edited (name, description, city, region) is
    /// kept unless the source now says something.
    static func fill(_ trail: TrailRecord, from draft: TrailDraft, isNew: Bool) {
        let figures = draft.figures
        if isNew || !draft.name.isEmpty { trail.name = draft.name }
        if isNew || !draft.description.isEmpty { trail.description = draft.description }
        if isNew || !draft.city.isEmpty { trail.city = draft.city }
        if isNew || !draft.region.isEmpty { trail.region = draft.region }
        trail.trailheadLatitude = draft.trailhead.latitude
        trail.trailheadLongitude = draft.trailhead.longitude
        trail.lengthMeters = (figures.lengthMeters * 10).rounded() / 10
        trail.difficulty = draft.difficulty
        trail.accessible = draft.accessible
        trail.elevationGainMeters = figures.elevationGainMeters
        trail.elevationLossMeters = figures.elevationLossMeters
        trail.maxGradePercent = figures.maxGradePercent
        trail.elevationSource =
            figures.elevationGainMeters != nil
            ? "Heights of the uploaded track's points (GPX ele / GeoJSON altitude)."
            : draft.source.hasPrefix("osm:")
                ? "No heights: OpenStreetMap holds none for paths, and this installation has no elevation model."
                : "No heights: the uploaded file has none."
        trail.sacScale = draft.sacScale
        trail.trailVisibility = draft.trailVisibility
        if isNew || !draft.pointsOfInterest.isEmpty {
            trail.pointsOfInterest = draft.pointsOfInterest.map {
                TrailPOI(
                    name: $0.name, kind: TrailPOIKind(rawValue: $0.kind) ?? .other, history: $0.history,
                    position: TrailPoint(lat: $0.position.latitude, lon: $0.position.longitude), photoURL: nil)
            }
        }
        if isNew || !draft.amenities.isEmpty {
            trail.amenities = draft.amenities.compactMap { TrailAmenity(rawValue: $0) }
        }
        trail.updateSearchText()
    }

    static func summary(_ trail: TrailRecord, favourite: Bool, distanceMeters: Double? = nil) -> TrailSummary {
        TrailSummary(
            id: trail.id!, name: trail.name, city: trail.city, region: trail.region,
            difficulty: trail.trailDifficulty, lengthMeters: trail.lengthMeters,
            trailhead: TrailPoint(lat: trail.trailheadLatitude, lon: trail.trailheadLongitude),
            photoURL: trail.photoURL, thumbnailURL: trail.photoURL.map(TrailPhotos.thumbnailURL(of:)),
            accessible: trail.accessible, huntingArea: trail.huntingArea,
            favourite: favourite, distanceMeters: distanceMeters.map { $0.rounded() })
    }

    static func detail(_ trail: TrailRecord, favourite: Bool, checked: Set<String>) -> TrailDetail {
        TrailDetail(
            summary: summary(trail, favourite: favourite), description: trail.description,
            geometry: trail.place.geometry ?? .lineString([trail.trailhead, trail.trailhead]),
            elevationGainMeters: trail.elevationGainMeters, elevationLossMeters: trail.elevationLossMeters,
            maxGradePercent: trail.maxGradePercent, elevationSource: trail.elevationSource,
            steps: Int((trail.lengthMeters / TrailFigures.strideMeters).rounded()), fees: trail.fees,
            seasonHours: trail.seasonHours, parkingRules: trail.parkingRules, additionalFees: trail.additionalFees,
            rangers: trail.rangers, safety: trail.safety, huntingNotice: trail.huntingNotice,
            pointsOfInterest: trail.pointsOfInterest, amenities: trail.amenities,
            focalPoints: trail.focalPoints.map {
                TrailFocalPoint(
                    id: $0.id, kind: $0.kind, name: $0.name, text: $0.text, photoURL: $0.photoURL,
                    checked: checked.contains($0.id))
            }, demoFacts: trail.demoFacts, source: trail.source, sacScale: trail.sacScale,
            trailVisibility: trail.trailVisibility)
    }

    /// The lines of a geometry (LineString or MultiLineString).
    static func lines(of geometry: Geometry?) -> [[Coordinate]] {
        switch geometry {
        case .lineString(let line): [line.map(\.coordinate)]
        case .multiLineString(let lines): lines.map { $0.map(\.coordinate) }
        default: []
        }
    }
}
