import Foundation
import Zlib

@testable import Routing

/// Writes protobuf messages, for building PBF files in tests.
struct ProtobufWriter {
    var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func field(_ number: Int, varint value: UInt64) {
        varint(UInt64(number << 3))
        varint(value)
    }

    mutating func field(_ number: Int, signed value: Int64) {
        field(number, varint: UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func field(_ number: Int, bytes value: [UInt8]) {
        varint(UInt64(number << 3 | 2))
        varint(UInt64(value.count))
        bytes += value
    }

    mutating func field(_ number: Int, string value: String) { field(number, bytes: Array(value.utf8)) }

    mutating func field(_ number: Int, packed values: [UInt64]) {
        var inner = ProtobufWriter()
        for value in values { inner.varint(value) }
        field(number, bytes: inner.bytes)
    }

    mutating func field(_ number: Int, deltaCoded values: [Int64]) {
        var previous: Int64 = 0
        field(
            number,
            packed: values.map { value in
                defer { previous = value }
                let delta = value - previous
                return UInt64(bitPattern: (delta << 1) ^ (delta >> 63))
            })
    }
}

/// Encodes an `OSMSample` as an OSM PBF file: a header blob, then one data blob each for dense nodes,
/// ways and relations.
enum PBFTestWriter {
    static func encode(
        _ sample: OSMSample, compressed: Bool = true, requiredFeatures: [String] = ["OsmSchema-V0.6", "DenseNodes"]
    ) -> Data {
        var header = ProtobufWriter()
        for feature in requiredFeatures { header.field(4, string: feature) }
        header.field(16, string: "cairn tests")
        var file = blob(type: "OSMHeader", content: header.bytes, compressed: compressed)

        var strings = [""]
        var stringIndex: [String: UInt64] = ["": 0]
        func index(_ text: String) -> UInt64 {
            if let known = stringIndex[text] { return known }
            strings.append(text)
            stringIndex[text] = UInt64(strings.count - 1)
            return UInt64(strings.count - 1)
        }
        var groups: [[UInt8]] = []
        if !sample.nodes.isEmpty {
            var dense = ProtobufWriter()
            dense.field(1, deltaCoded: sample.nodes.map(\.id))
            dense.field(8, deltaCoded: sample.nodes.map { Int64(($0.latitude * 1e7).rounded()) })
            dense.field(9, deltaCoded: sample.nodes.map { Int64(($0.longitude * 1e7).rounded()) })
            dense.field(
                10,
                packed: sample.nodes.flatMap { node in node.tags.flatMap { [index($0.key), index($0.value)] } + [0] })
            var group = ProtobufWriter()
            group.field(2, bytes: dense.bytes)
            groups.append(group.bytes)
        }
        if !sample.ways.isEmpty {
            var group = ProtobufWriter()
            for way in sample.ways {
                var message = ProtobufWriter()
                message.field(1, varint: UInt64(way.id))
                message.field(2, packed: way.tags.map { index($0.key) })
                message.field(3, packed: way.tags.map { index($0.value) })
                message.field(8, deltaCoded: way.nodeIDs)
                group.field(3, bytes: message.bytes)
            }
            groups.append(group.bytes)
        }
        if !sample.relations.isEmpty {
            var group = ProtobufWriter()
            for relation in sample.relations {
                var message = ProtobufWriter()
                message.field(1, varint: UInt64(relation.id))
                message.field(2, packed: relation.tags.map { index($0.key) })
                message.field(3, packed: relation.tags.map { index($0.value) })
                message.field(8, packed: relation.members.map { index($0.role) })
                message.field(9, deltaCoded: relation.members.map(\.element.id))
                message.field(10, packed: relation.members.map { UInt64($0.element.kind.rawValue) })
                group.field(4, bytes: message.bytes)
            }
            groups.append(group.bytes)
        }
        for group in groups {
            var table = ProtobufWriter()
            for text in strings { table.field(1, string: text) }
            var block = ProtobufWriter()
            block.field(1, bytes: table.bytes)
            block.field(2, bytes: group)
            block.field(17, varint: 100)
            file += blob(type: "OSMData", content: block.bytes, compressed: compressed)
        }
        return file
    }

    /// One length-prefixed BlobHeader + Blob.
    static func blob(type: String, content: [UInt8], compressed: Bool) -> Data {
        var blob = ProtobufWriter()
        if compressed {
            blob.field(2, varint: UInt64(content.count))
            blob.field(3, bytes: try! Zlib.deflate(content, level: 6))
        } else {
            blob.field(1, bytes: content)
        }
        var header = ProtobufWriter()
        header.field(1, string: type)
        header.field(3, varint: UInt64(blob.bytes.count))
        let length = UInt32(header.bytes.count)
        return Data([UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
            + header.bytes + blob.bytes
    }
}
