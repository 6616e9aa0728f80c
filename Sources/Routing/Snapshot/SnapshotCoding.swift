import Foundation

/// A fixed-width number stored raw, little-endian, in snapshot sections: arrays of them load with one
/// copy on little-endian machines (every platform Swift ships for) and are byte-swapped elsewhere.
public protocol SnapshotScalar: BitwiseCopyable {
    var byteSwapped: Self { get }
}

extension UInt8: SnapshotScalar {}
extension UInt32: SnapshotScalar {}
extension Int32: SnapshotScalar {}
extension Int64: SnapshotScalar {}

extension Float: SnapshotScalar {
    public var byteSwapped: Float { Float(bitPattern: bitPattern.byteSwapped) }
}

extension Double: SnapshotScalar {
    public var byteSwapped: Double { Double(bitPattern: bitPattern.byteSwapped) }
}

extension Data {
    /// The raw little-endian bytes of `values`.
    public init<T: SnapshotScalar>(snapshotArray values: [T]) {
        #if _endian(big)
            self = values.map(\.byteSwapped).withUnsafeBytes { Data($0) }
        #else
            self = values.withUnsafeBytes { Data($0) }
        #endif
    }

    /// The array stored by `init(snapshotArray:)`; nil when the length is not a whole number of elements.
    public func snapshotArray<T: SnapshotScalar>(of type: T.Type) -> [T]? {
        let stride = MemoryLayout<T>.stride
        guard count % stride == 0 else { return nil }
        let values = [T](unsafeUninitializedCapacity: count / stride) { buffer, initialized in
            withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: source)
            }
            initialized = count / stride
        }
        #if _endian(big)
            return values.map(\.byteSwapped)
        #else
            return values
        #endif
    }
}

/// Writes variable-length records (strings, optional strings, numbers) into a section payload.
public struct SnapshotRecordWriter: Sendable {
    public private(set) var data = Data()

    public init() {}

    public mutating func write<T: FixedWidthInteger>(_ value: T) { data.appendLittleEndian(value) }

    public mutating func write(_ value: Double) { data.appendLittleEndian(value.bitPattern) }

    public mutating func write(_ text: String) {
        let bytes = Array(text.utf8)
        write(UInt32(bytes.count))
        data.append(contentsOf: bytes)
    }

    /// nil is written as the length 0xFFFF_FFFF.
    public mutating func write(_ text: String?) {
        if let text { write(text) } else { write(UInt32.max) }
    }
}

/// Reads what `SnapshotRecordWriter` wrote; throws `Overrun` when the payload ends early.
public struct SnapshotRecordReader {
    public struct Overrun: Error {}

    private let data: Data
    private var offset: Int

    public init(_ data: Data) {
        self.data = data
        offset = data.startIndex
    }

    public var isAtEnd: Bool { offset >= data.endIndex }

    public mutating func read<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let size = MemoryLayout<T>.size
        guard data.endIndex - offset >= size else { throw Overrun() }
        let value: T = data.readLittleEndian(at: offset - data.startIndex)
        offset += size
        return value
    }

    public mutating func readDouble() throws -> Double { Double(bitPattern: try read(UInt64.self)) }

    public mutating func readString() throws -> String {
        guard let text = try readOptionalString() else { throw Overrun() }
        return text
    }

    public mutating func readOptionalString() throws -> String? {
        let length = try read(UInt32.self)
        if length == UInt32.max { return nil }
        guard data.endIndex - offset >= Int(length) else { throw Overrun() }
        let text = String(decoding: data[offset..<(offset + Int(length))], as: UTF8.self)
        offset += Int(length)
        return text
    }
}
