/// Decodes the Protocol Buffers wire format (varints, zigzag, fixed and length-delimited fields) straight
/// from bytes, for the handful of messages in the OSM PBF format. Only reads: no schema, no allocation;
/// callers walk fields with `nextField()` and skip the ones they do not want.
///
/// The buffer must outlive the reader (use it inside `withUnsafeBytes`).
struct ProtobufReader {
    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    /// What went wrong, for the caller to word with the file's name.
    struct DecodingError: Error, Equatable {
        let reason: String
    }

    private let bytes: UnsafeRawBufferPointer
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { position >= bytes.count }

    /// The next field's number and wire type; nil at the end of the message.
    mutating func nextField() throws -> (number: Int, wireType: WireType)? {
        guard !isAtEnd else { return nil }
        let key = try readVarint()
        guard let wireType = WireType(rawValue: UInt8(key & 7)) else {
            throw DecodingError(reason: "unknown protobuf wire type \(key & 7)")
        }
        let number = Int(truncatingIfNeeded: key >> 3)
        guard number > 0 else { throw DecodingError(reason: "protobuf field number 0") }
        return (number, wireType)
    }

    @inline(__always)
    mutating func readVarint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift >= 64 { throw DecodingError(reason: "protobuf varint longer than ten bytes") }
        }
        throw DecodingError(reason: "message ends inside a varint")
    }

    /// A zigzag-encoded signed varint (`sint32`/`sint64`).
    @inline(__always)
    mutating func readSignedVarint() throws -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// A plain `int32`/`int64` varint (negative numbers take ten bytes).
    mutating func readInt64() throws -> Int64 { Int64(bitPattern: try readVarint()) }

    /// The bytes of a length-delimited field (a string, bytes, nested message or packed array).
    mutating func readLengthDelimited() throws -> UnsafeRawBufferPointer {
        let length = try readVarint()
        guard length <= UInt64(bytes.count - position) else {
            throw DecodingError(reason: "a field of \(length) bytes runs past the end of its message")
        }
        let start = position
        position += Int(length)
        return UnsafeRawBufferPointer(rebasing: bytes[start..<position])
    }

    mutating func readString() throws -> String {
        String(decoding: try readLengthDelimited(), as: UTF8.self)
    }

    /// Skips one field's value.
    mutating func skip(_ wireType: WireType) throws {
        switch wireType {
        case .varint: _ = try readVarint()
        case .lengthDelimited: _ = try readLengthDelimited()
        case .fixed64: try advance(8)
        case .fixed32: try advance(4)
        }
    }

    private mutating func advance(_ count: Int) throws {
        guard count <= bytes.count - position else { throw DecodingError(reason: "message ends inside a fixed field") }
        position += count
    }

    /// The values of a packed `sint64` field that stores successive differences (OSM's delta coding).
    static func deltaDecoded(_ bytes: UnsafeRawBufferPointer, into values: inout [Int64]) throws {
        var reader = ProtobufReader(bytes)
        var running: Int64 = 0
        while !reader.isAtEnd {
            running &+= try reader.readSignedVarint()
            values.append(running)
        }
    }

    /// The values of a packed unsigned varint field.
    static func unsignedValues(_ bytes: UnsafeRawBufferPointer, into values: inout [UInt32]) throws {
        var reader = ProtobufReader(bytes)
        while !reader.isAtEnd { values.append(UInt32(truncatingIfNeeded: try reader.readVarint())) }
    }
}
