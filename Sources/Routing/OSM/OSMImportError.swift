/// Why an OpenStreetMap file could not be imported. Its description is one line that names the file and
/// says what is wrong, for the CLI to print as it is; nothing is written when an import fails.
public struct OSMImportError: Error, Equatable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        /// The file is missing or unreadable; the associated text is the system's reason.
        case unreadable(String)
        /// Not an OSM extract at all; the associated text says what it looks like instead.
        case notOSMData(String)
        /// The file stops in the middle of its data.
        case truncated(String)
        /// The bytes do not follow the format.
        case corrupt(String)
        /// The file needs a format feature this reader does not implement (a PBF required feature, a
        /// compression).
        case unsupported(String)
        /// The extract holds no way a pedestrian may use.
        case noWalkableWays
    }

    /// The path as the user gave it.
    public var file: String
    public var problem: Problem

    public init(file: String, _ problem: Problem) {
        self.file = file
        self.problem = problem
    }

    public var description: String {
        switch problem {
        case .unreadable(let reason): "cannot read \(file): \(reason)"
        case .notOSMData(let looksLike):
            "\(file) is not an OpenStreetMap extract (\(looksLike)); give an .osm.pbf, .osm, .osm.bz2 or .osm.gz file"
        case .truncated(let detail): "\(file) is truncated: \(detail); download the extract again"
        case .corrupt(let detail): "\(file) is corrupt: \(detail); download the extract again"
        case .unsupported(let detail): "\(file) uses \(detail), which Cairn cannot read"
        case .noWalkableWays:
            "\(file) has no walkable ways (no footways, paths or streets a pedestrian may use); choose a larger extract"
        }
    }
}
