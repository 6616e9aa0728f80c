import Foundation

extension GPXDocument {
    /// The document as GPX 1.1 (valid against Topografix's schema, http://www.topografix.com/GPX/1/1/gpx.xsd):
    /// metadata with the name, time and bounds, then each track with its segments. Coordinates are written
    /// with 7 decimals (about 1 cm), elevations with 1, times in UTC.
    public func xml() -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<gpx version=\"1.1\" creator=\"\(Self.escaped(creator))\" xmlns=\"http://www.topografix.com/GPX/1/1\""
        out += " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
        out += " xsi:schemaLocation=\"http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd\">\n"
        let points = allPoints
        if name != nil || time != nil || !points.isEmpty {
            out += "  <metadata>\n"
            if let name { out += "    <name>\(Self.escaped(name))</name>\n" }
            if let time { out += "    <time>\(GPXTimestamp.format(time))</time>\n" }
            if let box = BoundingBox(covering: points.lazy.map(\.coordinate)) {
                // A box's edges cannot wrap round: 180° becomes the largest longitude the schema allows.
                let west = min(box.west, 179.9999999), east = min(box.east, 179.9999999)
                out += "    <bounds minlat=\"\(Self.degrees(box.south))\" minlon=\"\(Self.degrees(west))\""
                out += " maxlat=\"\(Self.degrees(box.north))\" maxlon=\"\(Self.degrees(east))\"/>\n"
            }
            out += "  </metadata>\n"
        }
        for track in tracks {
            out += "  <trk>\n"
            if let name = track.name { out += "    <name>\(Self.escaped(name))</name>\n" }
            if let type = track.type { out += "    <type>\(Self.escaped(type))</type>\n" }
            for segment in track.segments {
                out += "    <trkseg>\n"
                for point in segment {
                    out += "      <trkpt lat=\"\(Self.degrees(point.coordinate.latitude))\""
                    out += " lon=\"\(Self.longitude(point.coordinate.longitude))\""
                    guard point.elevationMeters?.isFinite == true || point.time != nil else {
                        out += "/>\n"
                        continue
                    }
                    out += ">"
                    if let elevation = point.elevationMeters, elevation.isFinite {
                        out += "<ele>\(String(format: "%.1f", elevation))</ele>"
                    }
                    if let time = point.time { out += "<time>\(GPXTimestamp.format(time))</time>" }
                    out += "</trkpt>\n"
                }
                out += "    </trkseg>\n"
            }
            out += "  </trk>\n"
        }
        return out + "</gpx>\n"
    }

    /// Decimal degrees as the schema's `decimal` type wants them: no exponent, at most 7 decimals.
    private static func degrees(_ value: Double) -> String {
        var text = String(format: "%.7f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// The schema's longitudes run from -180 included to 180 excluded: 180° is written as -180°.
    private static func longitude(_ value: Double) -> String {
        degrees(value >= 180 ? value - 360 : value)
    }

    /// Text for element content and attribute values.
    private static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            // Control characters other than tab and newlines cannot appear in XML 1.0 at all.
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
