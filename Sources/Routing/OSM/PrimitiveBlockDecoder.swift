/// Decodes one PBF `PrimitiveBlock` into elements for a visitor:
/// `PrimitiveBlock` = 1 stringtable, 2 primitivegroup (repeated), 17 granularity, 19 lat_offset,
/// 20 lon_offset; `PrimitiveGroup` = 1 nodes, 2 dense, 3 ways, 4 relations. Coordinates are
/// `1e-9 × (offset + granularity × value)` degrees.
enum PrimitiveBlockDecoder {
    typealias DecodingError = ProtobufReader.DecodingError

    static func decode<Visitor: OSMElementVisitor>(
        _ bytes: UnsafeRawBufferPointer, kinds: OSMElementKinds, into visitor: inout Visitor
    ) throws {
        var reader = ProtobufReader(bytes)
        var stringTable: UnsafeRawBufferPointer?
        var groups: [UnsafeRawBufferPointer] = []
        var granularity: Int64 = 100
        var latOffset: Int64 = 0
        var lonOffset: Int64 = 0
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .lengthDelimited): stringTable = try reader.readLengthDelimited()
            case (2, .lengthDelimited): groups.append(try reader.readLengthDelimited())
            case (17, .varint): granularity = try reader.readInt64()
            case (19, .varint): latOffset = try reader.readInt64()
            case (20, .varint): lonOffset = try reader.readInt64()
            default: try reader.skip(field.wireType)
            }
        }
        guard granularity > 0 else { throw DecodingError(reason: "a block with granularity \(granularity)") }
        var block = Block(
            strings: try StringTable(stringTable), granularity: granularity, latOffset: latOffset,
            lonOffset: lonOffset)
        for group in groups {
            var groupReader = ProtobufReader(group)
            while let field = try groupReader.nextField() {
                switch (field.number, field.wireType) {
                case (1, .lengthDelimited) where kinds.contains(.nodes):
                    try visitor.visit(try block.node(try groupReader.readLengthDelimited()))
                case (2, .lengthDelimited) where kinds.contains(.nodes):
                    try block.denseNodes(try groupReader.readLengthDelimited(), into: &visitor)
                case (3, .lengthDelimited) where kinds.contains(.ways):
                    try visitor.visit(try block.way(try groupReader.readLengthDelimited()))
                case (4, .lengthDelimited) where kinds.contains(.relations):
                    try visitor.visit(try block.relation(try groupReader.readLengthDelimited()))
                default:
                    try groupReader.skip(field.wireType)
                }
            }
        }
    }

    /// The block's strings, turned into Swift strings the first time each is used.
    struct StringTable {
        private var ranges: [UnsafeRawBufferPointer] = []
        private var cache: [String?] = []

        init(_ bytes: UnsafeRawBufferPointer?) throws {
            guard let bytes else { return }
            var reader = ProtobufReader(bytes)
            while let field = try reader.nextField() {
                if field.number == 1, field.wireType == .lengthDelimited {
                    ranges.append(try reader.readLengthDelimited())
                } else {
                    try reader.skip(field.wireType)
                }
            }
            cache = [String?](repeating: nil, count: ranges.count)
        }

        mutating func string(_ index: UInt64) throws -> String {
            guard index < UInt64(ranges.count) else {
                throw DecodingError(reason: "string index \(index) outside a table of \(ranges.count)")
            }
            let i = Int(index)
            if let cached = cache[i] { return cached }
            let decoded = String(decoding: ranges[i], as: UTF8.self)
            cache[i] = decoded
            return decoded
        }
    }

    struct Block {
        var strings: StringTable
        let granularity: Int64
        let latOffset: Int64
        let lonOffset: Int64

        func latitude(_ value: Int64) -> Double { Double(latOffset &+ granularity &* value) / 1e9 }
        func longitude(_ value: Int64) -> Double { Double(lonOffset &+ granularity &* value) / 1e9 }

        mutating func tags(keys: UnsafeRawBufferPointer?, values: UnsafeRawBufferPointer?) throws -> OSMTags {
            guard let keys, let values else { return OSMTags() }
            var keyIndices: [UInt32] = [], valueIndices: [UInt32] = []
            try ProtobufReader.unsignedValues(keys, into: &keyIndices)
            try ProtobufReader.unsignedValues(values, into: &valueIndices)
            guard keyIndices.count == valueIndices.count else {
                throw DecodingError(
                    reason: "an element with \(keyIndices.count) tag keys but \(valueIndices.count) values")
            }
            var tags = OSMTags()
            for (key, value) in zip(keyIndices, valueIndices) {
                tags.append(key: try strings.string(UInt64(key)), value: try strings.string(UInt64(value)))
            }
            return tags
        }

        /// `Node`: 1 id (sint64), 2 keys, 3 vals, 8 lat (sint64), 9 lon (sint64).
        mutating func node(_ bytes: UnsafeRawBufferPointer) throws -> OSMNode {
            var reader = ProtobufReader(bytes)
            var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
            var keys: UnsafeRawBufferPointer?, values: UnsafeRawBufferPointer?
            while let field = try reader.nextField() {
                switch (field.number, field.wireType) {
                case (1, .varint): id = try reader.readSignedVarint()
                case (2, .lengthDelimited): keys = try reader.readLengthDelimited()
                case (3, .lengthDelimited): values = try reader.readLengthDelimited()
                case (8, .varint): lat = try reader.readSignedVarint()
                case (9, .varint): lon = try reader.readSignedVarint()
                default: try reader.skip(field.wireType)
                }
            }
            return OSMNode(
                id: id, latitude: latitude(lat), longitude: longitude(lon), tags: try tags(keys: keys, values: values))
        }

        /// `DenseNodes`: 1 id, 8 lat, 9 lon (packed, delta-coded sint64), 10 keys_vals (packed int32: each
        /// node's key/value string indices, ended by 0).
        mutating func denseNodes<Visitor: OSMElementVisitor>(
            _ bytes: UnsafeRawBufferPointer, into visitor: inout Visitor
        ) throws {
            var reader = ProtobufReader(bytes)
            var ids: [Int64] = [], lats: [Int64] = [], lons: [Int64] = []
            var keysValues: UnsafeRawBufferPointer?
            while let field = try reader.nextField() {
                switch (field.number, field.wireType) {
                case (1, .lengthDelimited):
                    try ProtobufReader.deltaDecoded(try reader.readLengthDelimited(), into: &ids)
                case (8, .lengthDelimited):
                    try ProtobufReader.deltaDecoded(try reader.readLengthDelimited(), into: &lats)
                case (9, .lengthDelimited):
                    try ProtobufReader.deltaDecoded(try reader.readLengthDelimited(), into: &lons)
                case (10, .lengthDelimited): keysValues = try reader.readLengthDelimited()
                default: try reader.skip(field.wireType)
                }
            }
            guard ids.count == lats.count, ids.count == lons.count else {
                throw DecodingError(
                    reason: "dense nodes with \(ids.count) ids, \(lats.count) latitudes, \(lons.count) longitudes")
            }
            var tagReader = keysValues.map(ProtobufReader.init)
            for i in 0..<ids.count {
                var tags = OSMTags()
                if tagReader != nil {
                    while true {
                        guard !tagReader!.isAtEnd else {
                            throw DecodingError(reason: "dense node tags end before the last node")
                        }
                        let key = try tagReader!.readVarint()
                        if key == 0 { break }
                        let value = try tagReader!.readVarint()
                        tags.append(key: try strings.string(key), value: try strings.string(value))
                    }
                }
                try visitor.visit(
                    OSMNode(id: ids[i], latitude: latitude(lats[i]), longitude: longitude(lons[i]), tags: tags))
            }
        }

        /// `Way`: 1 id (int64), 2 keys, 3 vals, 8 refs (packed, delta-coded sint64).
        mutating func way(_ bytes: UnsafeRawBufferPointer) throws -> OSMWay {
            var reader = ProtobufReader(bytes)
            var id: Int64 = 0
            var refs: [Int64] = []
            var keys: UnsafeRawBufferPointer?, values: UnsafeRawBufferPointer?
            while let field = try reader.nextField() {
                switch (field.number, field.wireType) {
                case (1, .varint): id = try reader.readInt64()
                case (2, .lengthDelimited): keys = try reader.readLengthDelimited()
                case (3, .lengthDelimited): values = try reader.readLengthDelimited()
                case (8, .lengthDelimited):
                    try ProtobufReader.deltaDecoded(try reader.readLengthDelimited(), into: &refs)
                default: try reader.skip(field.wireType)
                }
            }
            return OSMWay(id: id, nodeIDs: refs, tags: try tags(keys: keys, values: values))
        }

        /// `Relation`: 1 id, 2 keys, 3 vals, 8 roles_sid (packed int32), 9 memids (packed, delta-coded
        /// sint64), 10 types (packed enum: 0 node, 1 way, 2 relation).
        mutating func relation(_ bytes: UnsafeRawBufferPointer) throws -> OSMRelation {
            var reader = ProtobufReader(bytes)
            var id: Int64 = 0
            var roles: [UInt32] = [], types: [UInt32] = []
            var memberIDs: [Int64] = []
            var keys: UnsafeRawBufferPointer?, values: UnsafeRawBufferPointer?
            while let field = try reader.nextField() {
                switch (field.number, field.wireType) {
                case (1, .varint): id = try reader.readInt64()
                case (2, .lengthDelimited): keys = try reader.readLengthDelimited()
                case (3, .lengthDelimited): values = try reader.readLengthDelimited()
                case (8, .lengthDelimited):
                    try ProtobufReader.unsignedValues(try reader.readLengthDelimited(), into: &roles)
                case (9, .lengthDelimited):
                    try ProtobufReader.deltaDecoded(try reader.readLengthDelimited(), into: &memberIDs)
                case (10, .lengthDelimited):
                    try ProtobufReader.unsignedValues(try reader.readLengthDelimited(), into: &types)
                default: try reader.skip(field.wireType)
                }
            }
            guard roles.count == memberIDs.count, types.count == memberIDs.count else {
                throw DecodingError(reason: "relation \(id) has mismatched member lists")
            }
            var members: [OSMRelation.Member] = []
            members.reserveCapacity(memberIDs.count)
            for i in 0..<memberIDs.count {
                guard let kind = OSMElementID.Kind(rawValue: Int64(types[i])) else {
                    throw DecodingError(reason: "relation \(id) has a member of unknown type \(types[i])")
                }
                members.append(
                    .init(element: OSMElementID(kind, memberIDs[i]), role: try strings.string(UInt64(roles[i]))))
            }
            return OSMRelation(id: id, members: members, tags: try tags(keys: keys, values: values))
        }
    }
}
