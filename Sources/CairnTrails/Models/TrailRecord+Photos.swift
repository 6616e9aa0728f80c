import CairnAPI
import Foundation

extension TrailRecord {
    /// The uploaded photos the trail names anywhere (`TrailPhotos`).
    var photoIDs: Set<UUID> {
        let urls = [photoURL] + safety.map(\.photoURL) + pointsOfInterest.map(\.photoURL) + focalPoints.map(\.photoURL)
        return Set(urls.compactMap { $0.flatMap(TrailPhotos.id(in:)) })
    }

    /// The photo address at `place`; throws `TrailsProblem.photoPlaceNotFound` when the trail has no such place.
    func photoURL(at place: TrailPhotoPlace) throws -> String? {
        switch place {
        case .trailhead: return photoURL
        case .safety(let index):
            guard safety.indices.contains(index) else { throw TrailsProblem.photoPlaceNotFound(place) }
            return safety[index].photoURL
        case .pointOfInterest(let index):
            guard pointsOfInterest.indices.contains(index) else { throw TrailsProblem.photoPlaceNotFound(place) }
            return pointsOfInterest[index].photoURL
        case .focalPoint(let id):
            guard let point = focalPoints.first(where: { $0.id == id }) else {
                throw TrailsProblem.photoPlaceNotFound(place)
            }
            return point.photoURL
        }
    }

    /// Sets (or with nil removes) the photo address at `place`.
    func setPhotoURL(_ url: String?, at place: TrailPhotoPlace) throws {
        _ = try photoURL(at: place)
        switch place {
        case .trailhead: photoURL = url
        case .safety(let index): safety[index].photoURL = url
        case .pointOfInterest(let index): pointsOfInterest[index].photoURL = url
        case .focalPoint(let id):
            focalPoints = focalPoints.map { point in
                var point = point
                if point.id == id { point.photoURL = url }
                return point
            }
        }
    }
}

/// Where a trail's photos were, by item: what a re-import, which rebuilds the lists, gives back.
struct TrailPhotoPlaces: Sendable {
    var safety: [String: String]
    var pointsOfInterest: [String: String]
    var focalPoints: [String: String]
    var ids: Set<UUID>
}

extension TrailRecord {
    /// The photos of the safety items and points of interest by name, of the focal points by id.
    var photoPlaces: TrailPhotoPlaces {
        func byKey(_ pairs: [(String, String?)]) -> [String: String] {
            Dictionary(pairs.compactMap { key, url in url.map { (key, $0) } }, uniquingKeysWith: { first, _ in first })
        }
        return TrailPhotoPlaces(
            safety: byKey(safety.map { ($0.name, $0.photoURL) }),
            pointsOfInterest: byKey(pointsOfInterest.map { ($0.name, $0.photoURL) }),
            focalPoints: byKey(focalPoints.map { ($0.id, $0.photoURL) }), ids: photoIDs)
    }

    /// Gives each item without a photo the one its namesake had.
    func restorePhotos(_ places: TrailPhotoPlaces) {
        safety = safety.map { item in
            var item = item
            item.photoURL = item.photoURL ?? places.safety[item.name]
            return item
        }
        pointsOfInterest = pointsOfInterest.map { item in
            var item = item
            item.photoURL = item.photoURL ?? places.pointsOfInterest[item.name]
            return item
        }
        focalPoints = focalPoints.map { item in
            var item = item
            item.photoURL = item.photoURL ?? places.focalPoints[item.id]
            return item
        }
    }
}
