import Foundation

/// Writes arrays of fixed-width numbers as raw little-endian bytes, each prefixed by its element count,
/// so a reader can map them back with one copy and no parsing. Used by the routing structures that can be
/// stored as sections of a graph snapshot (`ContractionHierarchy`, `SegmentIndex`).
struct CompactArrayWriter {
    private(set) var data: Data

    /// Takes over `data` (leaving it empty) so that appending does not copy it; give it back with
    /// `data = writer.data`.
    init(appendingTo data: inout Data) {
        self.data = data
        data = Data()
    }

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    mutating func append(_ value: Double) { append(value.bitPattern) }

    mutating func append<T: FixedWidthInteger>(_ values: [T]) {
        append(UInt64(values.count))
        #if _endian(little)
            values.withUnsafeBytes { data.append(contentsOf: $0) }
        #else
            for value in values { append(value) }
        #endif
    }

    mutating func append(_ values: [Double]) { append(values.map(\.bitPattern)) }

    mutating func append(_ values: [Float]) { append(values.map(\.bitPattern)) }
}

/// Reads what `CompactArrayWriter` wrote, checking every length against the bytes left so that a
/// truncated or corrupt section fails with `CompactArrayError` instead of trapping.
struct CompactArrayReader {
    private let data: Data
    private(set) var offset: Int

    init(_ data: Data) {
        self.data = data
        offset = data.startIndex
    }

    var isAtEnd: Bool { offset == data.endIndex }

    mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) throws -> T {
        let size = MemoryLayout<T>.size
        guard data.endIndex - offset >= size else { throw CompactArrayError.truncated }
        var value = T.zero
        _ = withUnsafeMutableBytes(of: &value) { target in
            data.copyBytes(to: target, from: offset..<offset + size)
        }
        offset += size
        return T(littleEndian: value)
    }

    mutating func read(_: Double.Type) throws -> Double { Double(bitPattern: try read(UInt64.self)) }

    mutating func readArray<T: FixedWidthInteger>(_: T.Type = T.self) throws -> [T] {
        let count = try read(UInt64.self)
        let size = MemoryLayout<T>.stride
        guard count <= UInt64(data.endIndex - offset) / UInt64(size) else { throw CompactArrayError.truncated }
        let byteCount = Int(count) * size
        var values = [T](repeating: .zero, count: Int(count))
        _ = values.withUnsafeMutableBytes { target in
            data.copyBytes(to: target, from: offset..<offset + byteCount)
        }
        offset += byteCount
        #if _endian(big)
            values = values.map { T(littleEndian: $0) }
        #endif
        return values
    }

    mutating func readDoubles() throws -> [Double] { try readArray(UInt64.self).map(Double.init(bitPattern:)) }

    mutating func readFloats() throws -> [Float] { try readArray(UInt32.self).map(Float.init(bitPattern:)) }
}

/// Why stored routing data could not be read.
public enum CompactArrayError: Error, Equatable, CustomStringConvertible {
    /// The bytes end before the structure does.
    case truncated
    /// The bytes are not the expected structure, or not its version.
    case wrongFormat(String)
    /// The structure is complete but inconsistent with itself or with the graph it was loaded for.
    case inconsistent(String)

    public var description: String {
        switch self {
        case .truncated: "the data ends too early"
        case .wrongFormat(let what): "not \(what)"
        case .inconsistent(let reason): "inconsistent data: \(reason)"
        }
    }
}
