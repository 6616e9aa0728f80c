import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension GPXDocument {
    /// What the reader accepts: a file of at most `maxBytes`, tracks of at most `maxPoints` points.
    public struct ReadingLimits: Sendable, Hashable {
        public var maxBytes: Int
        public var maxPoints: Int

        /// 16 MiB and 100,000 points: a day of recording at one fix per second, with room for extensions.
        public init(maxBytes: Int = 16 * 1_048_576, maxPoints: Int = 100_000) {
            self.maxBytes = maxBytes
            self.maxPoints = maxPoints
        }
    }

    /// Reads the tracks of a GPX 1.1 or 1.0 file (`trk/trkseg/trkpt` with `ele` and `time`; elements of
    /// other namespaces — extensions — are skipped). Segments without points are dropped.
    ///
    /// Refused before parsing: files over `limits.maxBytes`, files declaring a document type or entities
    /// (no entity is ever expanded or fetched), and encodings other than UTF-8, ASCII and ISO-8859-1.
    /// - Throws: `GPXError`, whose description tells the person what is wrong.
    public init(parsing data: Data, limits: ReadingLimits = ReadingLimits()) throws(GPXError) {
        guard data.count <= limits.maxBytes else { throw .tooLarge(bytes: data.count, maxBytes: limits.maxBytes) }
        try Self.refuseUnsafeContent(data)
        let reader = GPXParserDelegate(maxPoints: limits.maxPoints)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let parsed = parser.parse()
        if let error = reader.error { throw error }
        guard parsed else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unreadable"
            throw .malformed(line: parser.lineNumber, reason: reason)
        }
        guard reader.sawRoot else { throw .malformed(line: parser.lineNumber, reason: "no root element") }
        let tracks = reader.tracks.compactMap { track -> GPXTrack? in
            let segments = track.segments.filter { !$0.isEmpty }
            return segments.isEmpty ? nil : GPXTrack(name: track.name, type: track.type, segments: segments)
        }
        guard !tracks.isEmpty else { throw .noTrack(hasRoute: reader.sawRoute) }
        self.init(creator: reader.creator, name: reader.name, time: reader.time, tracks: tracks)
    }

    /// Refuses document type and entity declarations anywhere in the file, and encodings whose bytes would
    /// hide them from this check.
    private static func refuseUnsafeContent(_ data: Data) throws(GPXError) {
        let head = data.prefix(4)
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) {
            throw .unsupportedEncoding("UTF-16")
        }
        if head.starts(with: [0, 0, 0xFE, 0xFF]) || head.starts(with: [0, 0x3C, 0, 0x3F])
            || head.starts(with: [0x3C, 0, 0x3F, 0])
        {
            throw .unsupportedEncoding("UTF-16 or UTF-32")
        }
        if let encoding = declaredEncoding(data),
            !["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "latin1"].contains(encoding.lowercased())
        {
            throw .unsupportedEncoding(encoding)
        }
        if data.range(of: Data("<!DOCTYPE".utf8)) != nil || data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw .documentTypeDeclaration
        }
    }

    /// The `encoding` of the XML declaration, when the file starts with one that names it.
    private static func declaredEncoding(_ data: Data) -> String? {
        let start = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard let declaration = String(data: data.dropFirst(start).prefix(256), encoding: .isoLatin1),
            declaration.hasPrefix("<?xml"), let end = declaration.range(of: "?>")
        else { return nil }
        let text = declaration[..<end.lowerBound]
        guard let key = text.range(of: "encoding") else { return nil }
        let rest = text[key.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }
}

/// Collects tracks from XMLParser's callbacks. GPX 1.1 keeps the file's name and time under `metadata`;
/// GPX 1.0 directly under `gpx`.
private final class GPXParserDelegate: NSObject, XMLParserDelegate {
    static let namespaces: Set<String> = ["http://www.topografix.com/GPX/1/1", "http://www.topografix.com/GPX/1/0", ""]

    struct TrackBuilder {
        var name: String?
        var type: String?
        var segments: [[GPXTrackPoint]] = []
    }

    let maxPoints: Int
    var error: GPXError?
    var sawRoot = false
    var sawRoute = false
    var creator = ""
    var name: String?
    var time: Date?
    var tracks: [TrackBuilder] = []

    /// The GPX elements open from the root down.
    private var path: [String] = []
    /// How deep inside an element of another namespace (an extension) the parser is; 0 outside.
    private var foreignDepth = 0
    private var point: GPXTrackPoint?
    private var pointCount = 0
    private var text = ""

    init(maxPoints: Int) {
        self.maxPoints = maxPoints
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard error == nil else { return }
        if path.isEmpty && foreignDepth == 0 {
            sawRoot = true
            guard elementName == "gpx", Self.namespaces.contains(namespaceURI ?? "") else {
                return fail(parser, .notGPX(rootElement: qualifiedName ?? elementName))
            }
            let version = attributes["version"] ?? ""
            guard version == "1.1" || version == "1.0" else {
                return fail(parser, .unsupportedVersion(version.isEmpty ? "(none given)" : version))
            }
            creator = attributes["creator"] ?? ""
        } else if foreignDepth > 0 || !Self.namespaces.contains(namespaceURI ?? "") {
            foreignDepth += 1
            return
        }
        path.append(elementName)
        text = ""
        switch (path.count, elementName) {
        case (2, "rte"): sawRoute = true
        case (2, "trk"): tracks.append(TrackBuilder())
        case (3, "trkseg") where path[1] == "trk": tracks[tracks.count - 1].segments.append([])
        case (4, "trkpt") where path[2] == "trkseg":
            startPoint(parser, attributes: attributes)
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if foreignDepth == 0, isTextElement { text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        if foreignDepth == 0, isTextElement { text += String(decoding: block, as: UTF8.self) }
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
        guard error == nil else { return }
        if foreignDepth > 0 {
            foreignDepth -= 1
            return
        }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch path {
        case ["gpx", "metadata", "name"], ["gpx", "name"]: name = value.isEmpty ? nil : value
        case ["gpx", "metadata", "time"], ["gpx", "time"]: time = GPXTimestamp.parse(value[...])
        case ["gpx", "trk", "name"]: tracks[tracks.count - 1].name = value.isEmpty ? nil : value
        case ["gpx", "trk", "type"]: tracks[tracks.count - 1].type = value.isEmpty ? nil : value
        case ["gpx", "trk", "trkseg", "trkpt", "ele"]:
            guard let elevation = Double(value), elevation.isFinite else {
                return fail(
                    parser, .invalidPoint(line: parser.lineNumber, reason: "the elevation “\(value)” is not a number"))
            }
            point?.elevationMeters = elevation
        case ["gpx", "trk", "trkseg", "trkpt", "time"]:
            guard let date = GPXTimestamp.parse(value[...]) else {
                return fail(
                    parser,
                    .invalidPoint(
                        line: parser.lineNumber, reason: "the time “\(value)” is not an ISO 8601 date and time"))
            }
            point?.time = date
        case ["gpx", "trk", "trkseg", "trkpt"]:
            if let point {
                tracks[tracks.count - 1].segments[tracks[tracks.count - 1].segments.count - 1].append(point)
            }
            point = nil
        default: break
        }
        path.removeLast()
        text = ""
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        fail(parser, .malformed(line: parser.lineNumber, reason: (parseError as NSError).localizedDescription))
    }

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        fail(parser, .documentTypeDeclaration)
    }

    func parser(
        _ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?
    ) {
        fail(parser, .documentTypeDeclaration)
    }

    /// Text is kept only inside the elements read here, so that a huge description costs nothing.
    private var isTextElement: Bool {
        guard let last = path.last else { return false }
        return ["name", "type", "time", "ele"].contains(last)
    }

    private func startPoint(_ parser: XMLParser, attributes: [String: String]) {
        pointCount += 1
        guard pointCount <= maxPoints else { return fail(parser, .tooManyPoints(maxPoints: maxPoints)) }
        guard let latText = attributes["lat"], let lonText = attributes["lon"] else {
            return fail(parser, .invalidPoint(line: parser.lineNumber, reason: "lat and lon are required"))
        }
        guard let lat = Double(latText.trimmingCharacters(in: .whitespaces)),
            let lon = Double(lonText.trimmingCharacters(in: .whitespaces))
        else {
            return fail(parser, .invalidPoint(line: parser.lineNumber, reason: "lat and lon must be decimal degrees"))
        }
        let coordinate = Coordinate(latitude: lat, longitude: lon)
        guard coordinate.isValid else {
            return fail(
                parser,
                .invalidPoint(
                    line: parser.lineNumber, reason: "lat \(latText), lon \(lonText) is not a position on Earth"))
        }
        point = GPXTrackPoint(coordinate: coordinate)
    }

    private func fail(_ parser: XMLParser, _ error: GPXError) {
        if self.error == nil { self.error = error }
        parser.abortParsing()
    }
}
