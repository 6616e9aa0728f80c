/// Why a file could not be read as a GPX track; `description` is a sentence for the person who uploaded it.
public enum GPXError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file is larger than the reader accepts.
    case tooLarge(bytes: Int, maxBytes: Int)
    /// The tracks hold more points than the reader accepts.
    case tooManyPoints(maxPoints: Int)
    /// The file declares a document type or entities (`<!DOCTYPE`, `<!ENTITY`): refused, whatever they say,
    /// so that no entity expansion ("billion laughs") or external entity is ever processed.
    case documentTypeDeclaration
    /// The file is in a character encoding other than UTF-8 (or ASCII, ISO-8859-1).
    case unsupportedEncoding(String)
    /// The file is not well-formed XML.
    case malformed(line: Int, reason: String)
    /// The root element is not `gpx`.
    case notGPX(rootElement: String)
    /// The `version` attribute is neither 1.1 nor 1.0.
    case unsupportedVersion(String)
    /// A track point without a valid position, or with an elevation or time that cannot be read.
    case invalidPoint(line: Int, reason: String)
    /// The file has no track point at all (it may hold waypoints or a planned route).
    case noTrack(hasRoute: Bool)

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let maxBytes):
            "The file is too large (\(Self.size(bytes))): GPX files of up to \(Self.size(maxBytes)) can be imported."
        case .tooManyPoints(let maxPoints):
            "The track has more than \(maxPoints) points, which is more than can be imported."
        case .documentTypeDeclaration:
            "The file declares a document type or entities (<!DOCTYPE or <!ENTITY), which GPX files do not need; "
                + "it was refused."
        case .unsupportedEncoding(let encoding):
            "The file is encoded as \(encoding); GPX files must be UTF-8."
        case .malformed(let line, let reason):
            "The file is not valid XML (line \(line): \(reason))."
        case .notGPX(let root):
            "This is not a GPX file: its root element is <\(root)>, not <gpx>."
        case .unsupportedVersion(let version):
            "GPX version \(version) is not supported; use GPX 1.1 or 1.0."
        case .invalidPoint(let line, let reason):
            "Track point on line \(line): \(reason)."
        case .noTrack(let hasRoute):
            hasRoute
                ? "The file holds a planned route but no recorded track; export the activity's track instead."
                : "The file holds no track points: there is no recorded activity to import."
        }
    }

    private static func size(_ bytes: Int) -> String {
        bytes >= 1_048_576
            ? "\((Double(bytes) / 1_048_576 * 10).rounded() / 10) MiB" : "\((bytes + 1023) / 1024) KiB"
    }
}
