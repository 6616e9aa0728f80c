import Foundation

/// The Encoded Polyline Algorithm Format (Google; also OSRM and Valhalla with precision 6): a compact
/// ASCII encoding of a coordinate sequence, used where GeoJSON would be too large (stored tracks, URLs).
public enum Polyline {
    public enum DecodingError: Error, Equatable {
        /// The text ends in the middle of a value, or holds a character outside `?`…`~`.
        case malformed(offset: Int)
    }

    /// Encodes `coordinates` with `precision` decimal digits (5 is Google's default).
    public static func encode(_ coordinates: [Coordinate], precision: Int = 5) -> String {
        let factor = pow(10, Double(precision))
        var output = [UInt8]()
        output.reserveCapacity(coordinates.count * 8)
        var previousLat = 0, previousLon = 0
        for c in coordinates {
            let lat = Int((c.latitude * factor).rounded())
            let lon = Int((c.longitude * factor).rounded())
            appendValue(lat - previousLat, to: &output)
            appendValue(lon - previousLon, to: &output)
            previousLat = lat
            previousLon = lon
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes text made by `encode` with the same `precision`.
    public static func decode(_ text: String, precision: Int = 5) throws -> [Coordinate] {
        let factor = pow(10, Double(precision))
        let bytes = Array(text.utf8)
        var index = 0
        var lat = 0, lon = 0
        var result = [Coordinate]()
        while index < bytes.count {
            lat += try readValue(bytes, &index)
            guard index < bytes.count else { throw DecodingError.malformed(offset: index) }
            lon += try readValue(bytes, &index)
            result.append(Coordinate(latitude: Double(lat) / factor, longitude: Double(lon) / factor))
        }
        return result
    }

    private static func appendValue(_ value: Int, to output: inout [UInt8]) {
        var v = value < 0 ? ~(value << 1) : value << 1
        while v >= 0x20 {
            output.append(UInt8((0x20 | (v & 0x1f)) + 63))
            v >>= 5
        }
        output.append(UInt8(v + 63))
    }

    private static func readValue(_ bytes: [UInt8], _ index: inout Int) throws -> Int {
        var result = 0, shift = 0
        while true {
            guard index < bytes.count, bytes[index] >= 63, bytes[index] <= 126, shift < 64 else {
                throw DecodingError.malformed(offset: index)
            }
            let chunk = Int(bytes[index]) - 63
            index += 1
            result |= (chunk & 0x1f) << shift
            shift += 5
            if chunk < 0x20 { break }
        }
        return (result & 1) != 0 ? ~(result >> 1) : result >> 1
    }
}
