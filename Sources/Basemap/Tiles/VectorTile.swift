import Foundation

/// Mapbox Vector Tiles, version 2.1 (https://github.com/mapbox/vector-tile-spec/tree/master/2.1): a protobuf
/// `Tile` of named layers, each with its key and value tables and features whose geometry is a stream of
/// MoveTo/LineTo/ClosePath commands on zigzag-encoded deltas in tile units (`extent` per side, y down).
public enum VectorTile {
    /// A feature property value.
    public enum Value: Hashable, Sendable {
        case string(String)
        case int(Int64)
        case bool(Bool)

        public var string: String? { if case .string(let text) = self { text } else { nil } }
        public var int: Int64? { if case .int(let value) = self { value } else { nil } }
    }

    /// One decoded feature: geometry as parts of integer points in tile units.
    public struct Feature: Sendable, Equatable {
        public var type: GeometryKind
        public var properties: [String: Value]
        /// Points: one part holding every point; lines: one part per line; polygons: one part per ring (no
        /// repeated closing point).
        public var parts: [[(x: Int, y: Int)]]

        public static func == (lhs: Feature, rhs: Feature) -> Bool {
            lhs.type == rhs.type && lhs.properties == rhs.properties
                && lhs.parts.map { $0.map { [$0.x, $0.y] } } == rhs.parts.map { $0.map { [$0.x, $0.y] } }
        }
    }

    public struct Layer: Sendable, Equatable {
        public var name: String
        public var extent: Int
        public var features: [Feature]
    }

    // MARK: Encoding

    /// Builds one tile, layer by layer.
    public struct Encoder {
        private struct LayerState {
            var name: String
            var keys: [String] = []
            var keyIndex: [String: UInt32] = [:]
            var values: [Value] = []
            var valueIndex: [Value: UInt32] = [:]
            var features: [UInt8] = []
            var featureCount = 0
        }

        public let extent: Int
        private var layers: [LayerState] = []
        private var layerIndex: [String: Int] = [:]

        public init(extent: Int = 4096) { self.extent = extent }

        public var isEmpty: Bool { layers.allSatisfy { $0.featureCount == 0 } }

        /// Adds a feature to `layer`. `parts` are in tile units: for polygons the outer ring first (clockwise
        /// on screen, positive area) then its holes, none repeating its first point.
        public mutating func add(
            layer: String, type: GeometryKind, parts: [[(x: Int, y: Int)]], properties: [(String, Value)]
        ) {
            let geometry = Self.geometry(type, parts)
            guard !geometry.isEmpty else { return }
            if layerIndex[layer] == nil {
                layerIndex[layer] = layers.count
                layers.append(LayerState(name: layer))
            }
            let index = layerIndex[layer]!
            var tags: [UInt32] = []
            for (key, value) in properties {
                if layers[index].keyIndex[key] == nil {
                    layers[index].keyIndex[key] = UInt32(layers[index].keys.count)
                    layers[index].keys.append(key)
                }
                if layers[index].valueIndex[value] == nil {
                    layers[index].valueIndex[value] = UInt32(layers[index].values.count)
                    layers[index].values.append(value)
                }
                tags += [layers[index].keyIndex[key]!, layers[index].valueIndex[value]!]
            }
            var feature = ProtobufWriter()
            feature.packed(field: 2, tags)
            feature.uint(field: 3, UInt64(type.rawValue))
            feature.packed(field: 4, geometry)
            layers[index].features.append(contentsOf: ProtobufWriter.lengthDelimited(field: 2, feature.bytes))
            layers[index].featureCount += 1
        }

        /// The encoded `Tile` message (empty when no layer has a feature).
        public func encoded() -> [UInt8] {
            var tile = ProtobufWriter()
            for layer in layers where layer.featureCount > 0 {
                var message = ProtobufWriter()
                message.uint(field: 15, 2)
                message.string(field: 1, layer.name)
                message.bytes.append(contentsOf: layer.features)
                for key in layer.keys { message.string(field: 3, key) }
                for value in layer.values {
                    var encoded = ProtobufWriter()
                    switch value {
                    case .string(let text): encoded.string(field: 1, text)
                    case .int(let number): encoded.uint(field: 6, ProtobufWriter.zigzag(number))
                    case .bool(let flag): encoded.uint(field: 7, flag ? 1 : 0)
                    }
                    message.message(field: 4, encoded.bytes)
                }
                message.uint(field: 5, UInt64(extent))
                tile.message(field: 3, message.bytes)
            }
            return tile.bytes
        }

        static func geometry(_ type: GeometryKind, _ parts: [[(x: Int, y: Int)]]) -> [UInt32] {
            func command(_ id: UInt32, _ count: Int) -> UInt32 { id & 7 | UInt32(count) << 3 }
            func zigzag(_ value: Int) -> UInt32 { UInt32(truncatingIfNeeded: (value << 1) ^ (value >> 63)) }
            var output: [UInt32] = []
            var cursor = (x: 0, y: 0)
            func move(to point: (x: Int, y: Int)) {
                output += [zigzag(point.x - cursor.x), zigzag(point.y - cursor.y)]
                cursor = point
            }
            switch type {
            case .point:
                let points = parts.joined()
                guard !points.isEmpty else { return [] }
                output.append(command(1, points.count))
                points.forEach(move)
            case .line:
                for part in parts where part.count >= 2 {
                    output.append(command(1, 1))
                    move(to: part[0])
                    output.append(command(2, part.count - 1))
                    part.dropFirst().forEach(move)
                }
            case .polygon:
                for ring in parts where ring.count >= 3 {
                    output.append(command(1, 1))
                    move(to: ring[0])
                    output.append(command(2, ring.count - 1))
                    ring.dropFirst().forEach(move)
                    output.append(command(7, 1))
                }
            }
            return output
        }
    }

    // MARK: Decoding

    public struct DecodingError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Decodes a tile's layers (tests, tools and benchmarks read back what the server sends).
    public static func decode(_ bytes: [UInt8]) throws -> [Layer] {
        var layers: [Layer] = []
        var tile = ProtobufCursor(bytes)
        while let (field, wire) = try tile.next() {
            guard field == 3, wire == 2 else {
                try tile.skip(wire)
                continue
            }
            layers.append(try decodeLayer(try tile.lengthDelimited()))
        }
        return layers
    }

    private static func decodeLayer(_ bytes: ArraySlice<UInt8>) throws -> Layer {
        var reader = ProtobufCursor(bytes)
        var name = "", extent = 4096
        var keys: [String] = [], values: [Value] = []
        var rawFeatures: [(tags: [UInt64], type: UInt64, geometry: [UInt64])] = []
        while let (field, wire) = try reader.next() {
            switch (field, wire) {
            case (1, 2): name = String(decoding: try reader.lengthDelimited(), as: UTF8.self)
            case (2, 2):
                var feature = ProtobufCursor(try reader.lengthDelimited())
                var tags: [UInt64] = [], type: UInt64 = 0, geometry: [UInt64] = []
                while let (f, w) = try feature.next() {
                    switch (f, w) {
                    case (2, 2): tags = try feature.packed()
                    case (3, 0): type = try feature.varint()
                    case (4, 2): geometry = try feature.packed()
                    default: try feature.skip(w)
                    }
                }
                rawFeatures.append((tags, type, geometry))
            case (3, 2): keys.append(String(decoding: try reader.lengthDelimited(), as: UTF8.self))
            case (4, 2):
                var value = ProtobufCursor(try reader.lengthDelimited())
                var decoded: Value?
                while let (f, w) = try value.next() {
                    switch (f, w) {
                    case (1, 2): decoded = .string(String(decoding: try value.lengthDelimited(), as: UTF8.self))
                    case (4, 0), (5, 0): decoded = .int(Int64(bitPattern: try value.varint()))
                    case (6, 0):
                        let raw = try value.varint()
                        decoded = .int(Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1))
                    case (7, 0): decoded = .bool(try value.varint() != 0)
                    default: try value.skip(w)
                    }
                }
                values.append(decoded ?? .string(""))
            case (5, 0): extent = Int(try reader.varint())
            default: try reader.skip(wire)
            }
        }
        let features = try rawFeatures.map { raw -> Feature in
            guard let type = GeometryKind(rawValue: UInt8(truncatingIfNeeded: raw.type)), raw.tags.count % 2 == 0 else {
                throw DecodingError(description: "a feature of layer \(name) has no valid type or tags")
            }
            var properties: [String: Value] = [:]
            for pair in stride(from: 0, to: raw.tags.count, by: 2) {
                let key = Int(raw.tags[pair]), value = Int(raw.tags[pair + 1])
                guard key < keys.count, value < values.count else {
                    throw DecodingError(description: "a feature of layer \(name) refers to a missing key or value")
                }
                properties[keys[key]] = values[value]
            }
            return Feature(type: type, properties: properties, parts: try decodeGeometry(raw.geometry))
        }
        return Layer(name: name, extent: extent, features: features)
    }

    private static func decodeGeometry(_ commands: [UInt64]) throws -> [[(x: Int, y: Int)]] {
        var parts: [[(x: Int, y: Int)]] = []
        var x = 0, y = 0, index = 0
        func zigzag(_ value: UInt64) -> Int { Int(value >> 1) ^ -Int(value & 1) }
        while index < commands.count {
            let id = commands[index] & 7, count = Int(commands[index] >> 3)
            index += 1
            switch id {
            case 1, 2:
                guard index + 2 * count <= commands.count else {
                    throw DecodingError(description: "geometry ends early")
                }
                for _ in 0..<count {
                    x += zigzag(commands[index])
                    y += zigzag(commands[index + 1])
                    index += 2
                    if id == 1 { parts.append([]) }
                    parts[parts.count - 1].append((x, y))
                }
            case 7: break
            default: throw DecodingError(description: "unknown geometry command \(id)")
            }
        }
        return parts
    }
}

/// Writes protobuf wire format (https://protobuf.dev/programming-guides/encoding/).
struct ProtobufWriter {
    var bytes: [UInt8] = []

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func uint(field: Int, _ value: UInt64) {
        varint(UInt64(field << 3))
        varint(value)
    }

    mutating func message(field: Int, _ payload: [UInt8]) {
        varint(UInt64(field << 3 | 2))
        varint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    mutating func string(field: Int, _ text: String) { message(field: field, Array(text.utf8)) }

    mutating func packed(field: Int, _ values: [UInt32]) {
        guard !values.isEmpty else { return }
        var payload = ProtobufWriter()
        for value in values { payload.varint(UInt64(value)) }
        message(field: field, payload.bytes)
    }

    static func lengthDelimited(field: Int, _ payload: [UInt8]) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.message(field: field, payload)
        return writer.bytes
    }
}

/// Reads protobuf wire format from a byte slice.
struct ProtobufCursor {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    mutating func next() throws -> (field: Int, wire: Int)? {
        guard position < bytes.endIndex else { return nil }
        let key = try varint()
        return (Int(key >> 3), Int(key & 7))
    }

    mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0
        while true {
            guard position < bytes.endIndex, shift < 64 else {
                throw VectorTile.DecodingError(description: "a varint ends early")
            }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func lengthDelimited() throws -> ArraySlice<UInt8> {
        let length = Int(try varint())
        guard length >= 0, bytes.endIndex - position >= length else {
            throw VectorTile.DecodingError(description: "a field runs past the end")
        }
        defer { position += length }
        return bytes[position..<(position + length)]
    }

    mutating func packed() throws -> [UInt64] {
        var inner = ProtobufCursor(try lengthDelimited())
        var values: [UInt64] = []
        while inner.position < inner.bytes.endIndex { values.append(try inner.varint()) }
        return values
    }

    mutating func skip(_ wire: Int) throws {
        switch wire {
        case 0: _ = try varint()
        case 1: position += 8
        case 2: _ = try lengthDelimited()
        case 5: position += 4
        default: throw VectorTile.DecodingError(description: "unknown wire type \(wire)")
        }
        guard position <= bytes.endIndex else {
            throw VectorTile.DecodingError(description: "a field runs past the end")
        }
    }
}
