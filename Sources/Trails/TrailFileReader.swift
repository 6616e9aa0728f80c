import Foundation
import Geo

/// Why an uploaded trail file was refused; `description` is a sentence for the person who uploaded it.
public enum TrailFileError: Error, Sendable, Equatable, CustomStringConvertible {
    case tooLarge(bytes: Int, maxBytes: Int)
    case empty
    case unknownFormat
    case gpx(GPXError)
    case invalidGeoJSON(String)
    /// GeoJSON without any LineString or MultiLineString.
    case noLine
    case tooManyPoints(maxPoints: Int)

    public var description: String {
        switch self {
        case .tooLarge(_, let maxBytes):
            "The file is too large: trail files of up to \(maxBytes / 1_048_576) MiB can be imported."
        case .empty: "Choose a GPX or GeoJSON file to import: the upload was empty."
        case .unknownFormat: "This is neither a GPX file nor GeoJSON: upload a GPX 1.1 track or a GeoJSON LineString."
        case .gpx(.noTrack): "The GPX file holds no track points (<trk>): a trail needs a recorded or drawn track."
        case .gpx(let error): error.description
        case .invalidGeoJSON(let reason): "The GeoJSON is broken: \(reason)."
        case .noLine:
            "The GeoJSON holds no LineString or MultiLineString: a trail needs a line, not only points or areas."
        case .tooManyPoints(let maxPoints): "The trail has more than \(maxPoints) points, which is too many."
        }
    }
}

/// Reads an uploaded trail: GPX 1.1 (or 1.0) tracks, or GeoJSON (a FeatureCollection, a Feature or a bare
/// geometry) with LineStrings or MultiLineStrings. Each GPX track and each GeoJSON line feature is one trail.
/// The format is judged by the first bytes, not the name. GPX is read by Geo's reader, which refuses DOCTYPE
/// and entity declarations.
public enum TrailFileReader {
    public static func read(_ data: Data, maxBytes: Int, maxPoints: Int = 50_000) throws(TrailFileError) -> [TrailDraft]
    {
        guard data.count <= maxBytes else { throw .tooLarge(bytes: data.count, maxBytes: maxBytes) }
        let head = data.prefix(64).drop { [0xEF, 0xBB, 0xBF, 0x20, 0x0A, 0x0D, 0x09].contains($0) }
        guard let first = head.first else { throw .empty }
        let digest = shortDigest(data)
        switch first {
        case UInt8(ascii: "<"): return try gpx(data, maxBytes: maxBytes, maxPoints: maxPoints, digest: digest)
        case UInt8(ascii: "{"): return try geoJSON(data, maxPoints: maxPoints, digest: digest)
        default: throw .unknownFormat
        }
    }

    static func gpx(_ data: Data, maxBytes: Int, maxPoints: Int, digest: String) throws(TrailFileError) -> [TrailDraft]
    {
        let document: GPXDocument
        do {
            document = try GPXDocument(parsing: data, limits: .init(maxBytes: maxBytes, maxPoints: maxPoints))
        } catch {
            throw .gpx(error)
        }
        var drafts: [TrailDraft] = []
        for (index, track) in document.tracks.enumerated() {
            let segments = track.segments.filter { $0.count >= 2 }
            guard !segments.isEmpty else { continue }
            drafts.append(
                TrailDraft(
                    source: "gpx:\(digest)#\(index)",
                    name: track.name ?? document.name ?? "Uploaded trail",
                    lines: segments.map { $0.map(\.coordinate) },
                    elevations: segments.map { $0.map(\.elevationMeters) }))
        }
        guard !drafts.isEmpty else { throw .gpx(.noTrack(hasRoute: false)) }
        return drafts
    }

    static func geoJSON(_ data: Data, maxPoints: Int, digest: String) throws(TrailFileError) -> [TrailDraft] {
        let features: [Feature]
        do {
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            switch object?["type"] as? String {
            case "FeatureCollection"?: features = try JSONDecoder().decode(FeatureCollection.self, from: data).features
            case "Feature"?: features = [try JSONDecoder().decode(Feature.self, from: data)]
            case .some: features = [Feature(geometry: try JSONDecoder().decode(Geometry.self, from: data))]
            case nil: throw GeoJSONError.invalid("the top level has no \"type\"")
            }
        } catch let error as GeoJSONError {
            throw .invalidGeoJSON(error.description.replacingOccurrences(of: "invalid GeoJSON: ", with: ""))
        } catch DecodingError.dataCorrupted(let context) {
            throw .invalidGeoJSON(reason(context))
        } catch DecodingError.keyNotFound(let key, let context) {
            throw .invalidGeoJSON("\(path(context)) has no \"\(key.stringValue)\"")
        } catch DecodingError.typeMismatch(_, let context) {
            throw .invalidGeoJSON("\(path(context)) has the wrong type")
        } catch DecodingError.valueNotFound(_, let context) {
            throw .invalidGeoJSON("\(path(context)) is missing")
        } catch {
            throw .invalidGeoJSON("it is not valid JSON")
        }
        var drafts: [TrailDraft] = []
        var points = 0
        for (index, feature) in features.enumerated() {
            let lines: [[Position]]
            switch feature.geometry {
            case .lineString(let line): lines = [line]
            case .multiLineString(let many): lines = many
            default: continue
            }
            points += lines.reduce(0) { $0 + $1.count }
            guard points <= maxPoints else { throw .tooManyPoints(maxPoints: maxPoints) }
            for line in lines {
                for pair in zip(line, line.dropFirst())
                where abs(pair.0.coordinate.longitude - pair.1.coordinate.longitude) > 180 {
                    throw .invalidGeoJSON("a line crosses the antimeridian; split it there (RFC 7946)")
                }
            }
            let properties = feature.properties ?? [:]
            func text(_ key: String) -> String? {
                if case .string(let value)? = properties[key] { return value }
                return nil
            }
            drafts.append(
                TrailDraft(
                    source: "geojson:\(digest)#\(index)", name: text("name") ?? "Uploaded trail",
                    description: text("description") ?? "",
                    lines: lines.map { $0.map(\.coordinate) },
                    elevations: lines.contains { $0.contains { $0.altitude != nil } }
                        ? lines.map { $0.map(\.altitude) } : nil,
                    sacScale: text("sac_scale"), trailVisibility: text("trail_visibility"),
                    statedDifficulty: text("difficulty"), city: text("city") ?? "", region: text("region") ?? ""))
        }
        guard !drafts.isEmpty else { throw .noLine }
        return drafts
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? "the document" : String(path.drop { $0 == "." })
    }

    private static func reason(_ context: DecodingError.Context) -> String {
        if let error = context.underlyingError as? GeoJSONError {
            return error.description.replacingOccurrences(of: "invalid GeoJSON: ", with: "")
        }
        return "\(path(context)): \(context.debugDescription)"
    }

    /// A short FNV-1a digest of the bytes, so re-uploading one file updates its trails.
    static func shortDigest(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
