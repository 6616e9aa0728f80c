import Foundation

/// The part of a GPX file (GPS Exchange Format, Topografix) that Cairn reads and writes: tracks of timed
/// points. Waypoints and routes are not kept: an activity is a track. Written as GPX 1.1
/// (`GPXDocument.xml()`); read from GPX 1.1 and 1.0 (`GPXDocument(parsing:limits:)`).
public struct GPXDocument: Sendable, Hashable {
    /// The program that wrote the file (the required `creator` attribute).
    public var creator: String
    /// The file's name (`metadata/name`).
    public var name: String?
    /// When the file was made (`metadata/time`).
    public var time: Date?
    public var tracks: [GPXTrack]

    public init(creator: String = "Cairn", name: String? = nil, time: Date? = nil, tracks: [GPXTrack]) {
        self.creator = creator
        self.name = name
        self.time = time
        self.tracks = tracks
    }

    /// Every point of every track, in file order.
    public var allPoints: [GPXTrackPoint] { tracks.flatMap { $0.segments.flatMap { $0 } } }
}

/// A recorded path (`trk`): one or more segments, a new one wherever recording was interrupted.
public struct GPXTrack: Sendable, Hashable {
    public var name: String?
    /// The kind of activity (`type`), free text in GPX: Cairn writes `running` or `hiking`.
    public var type: String?
    public var segments: [[GPXTrackPoint]]

    public init(name: String? = nil, type: String? = nil, segments: [[GPXTrackPoint]]) {
        self.name = name
        self.type = type
        self.segments = segments
    }
}

/// One point of a track (`trkpt`).
public struct GPXTrackPoint: Sendable, Hashable {
    public var coordinate: Coordinate
    /// Metres above mean sea level (`ele`).
    public var elevationMeters: Double?
    public var time: Date?

    public init(coordinate: Coordinate, elevationMeters: Double? = nil, time: Date? = nil) {
        self.coordinate = coordinate
        self.elevationMeters = elevationMeters
        self.time = time
    }
}
