import Foundation
import Zlib

/// Writes a ZIP file (PKWARE APPNOTE 6.3, no ZIP64): each entry deflated, names in UTF-8. Enough for a
/// Darwin Core Archive of up to 4 GiB.
public struct ZipArchive: Sendable {
    private var data: [UInt8] = []
    private var central: [UInt8] = []
    private var count = 0
    private let time: UInt16
    private let date: UInt16

    /// Entries are stamped with `modified` (MS-DOS time has two-second steps and no time zone: UTC is written).
    public init(modified: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: modified)
        let year = max(1980, min(2107, parts.year ?? 1980))
        date = UInt16((year - 1980) << 9 | (parts.month ?? 1) << 5 | (parts.day ?? 1))
        time = UInt16((parts.hour ?? 0) << 11 | (parts.minute ?? 0) << 5 | (parts.second ?? 0) / 2)
    }

    public mutating func add(_ name: String, _ contents: [UInt8]) throws {
        // zlib's stream without its two-byte header and Adler-32 trailer is the raw deflate data ZIP holds.
        let wrapped = try Zlib.deflate(contents, format: .zlib, level: 6)
        let compressed = Array(wrapped[2..<(wrapped.count - 4)])
        let crc = contents.withUnsafeBytes { Zlib.crc32($0) }
        let nameBytes = Array(name.utf8)
        let offset = UInt32(data.count)
        var local: [UInt8] = []
        local.append32(0x0403_4b50)
        local.append16(20)
        local.append16(0x0800)
        local.append16(8)
        local.append16(time)
        local.append16(date)
        local.append32(crc)
        local.append32(UInt32(compressed.count))
        local.append32(UInt32(contents.count))
        local.append16(UInt16(nameBytes.count))
        local.append16(0)
        data += local + nameBytes + compressed

        central.append32(0x0201_4b50)
        central.append16(20)
        central.append16(20)
        central.append16(0x0800)
        central.append16(8)
        central.append16(time)
        central.append16(date)
        central.append32(crc)
        central.append32(UInt32(compressed.count))
        central.append32(UInt32(contents.count))
        central.append16(UInt16(nameBytes.count))
        central.append16(0)
        central.append16(0)
        central.append16(0)
        central.append16(0)
        central.append32(0)
        central.append32(offset)
        central += nameBytes
        count += 1
    }

    /// The whole file.
    public var bytes: [UInt8] {
        var end: [UInt8] = []
        end.append32(0x0605_4b50)
        end.append16(0)
        end.append16(0)
        end.append16(UInt16(count))
        end.append16(UInt16(count))
        end.append32(UInt32(central.count))
        end.append32(UInt32(data.count))
        end.append16(0)
        return data + central + end
    }
}

extension [UInt8] {
    fileprivate mutating func append16(_ value: UInt16) {
        append(UInt8(value & 0xFF))
        append(UInt8(value >> 8))
    }

    fileprivate mutating func append32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }
}
