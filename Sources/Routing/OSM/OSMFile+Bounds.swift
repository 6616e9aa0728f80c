import Foundation
import Geo

extension OSMFile {
    /// The box an extract says it covers: the `bbox` of a PBF file's header, or the `<bounds>` element of an
    /// OSM XML file. Nil when the file states none (the caller may then use the extent of its nodes).
    /// - Throws: `OSMImportError` when the file cannot be read.
    public static func declaredBounds(of reader: any OSMReader) throws -> BoundingBox? {
        switch reader {
        case let pbf as PBFReader:
            let header = try pbf.header()
            guard let south = header.south, let west = header.west, let north = header.north, let east = header.east
            else { return nil }
            let box = BoundingBox(south: south, west: west, north: north, east: east)
            return box.isValid && south < north && west < east ? box : nil
        case let xml as OSMXMLReader:
            return try xml.declaredBounds()
        default:
            return nil
        }
    }
}

extension OSMXMLReader {
    /// The `<bounds minlat minlon maxlat maxlon>` element near the start of the document, if any.
    func declaredBounds() throws -> BoundingBox? {
        let head: Data
        if let unpacked {
            head = unpacked.prefix(64 * 1024)
        } else {
            do {
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                defer { try? handle.close() }
                head = try handle.read(upToCount: 64 * 1024) ?? Data()
            } catch {
                throw OSMImportError(file: path, .unreadable(fileErrorReason(error, path: path)))
            }
        }
        let text = String(decoding: head, as: UTF8.self)
        guard let start = text.range(of: "<bounds"), let end = text[start.upperBound...].firstIndex(of: ">") else {
            return nil
        }
        let element = text[start.upperBound..<end]
        func attribute(_ name: String) -> Double? {
            for quote in ["\"", "'"] {
                if let found = element.range(of: " \(name)=\(quote)"),
                    let close = element[found.upperBound...].firstIndex(of: Character(quote))
                {
                    return Double(element[found.upperBound..<close])
                }
            }
            return nil
        }
        guard let south = attribute("minlat"), let west = attribute("minlon"), let north = attribute("maxlat"),
            let east = attribute("maxlon")
        else { return nil }
        let box = BoundingBox(south: south, west: west, north: north, east: east)
        return box.isValid && south < north && west < east ? box : nil
    }
}
