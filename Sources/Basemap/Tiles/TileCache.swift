import Foundation
import Zlib

/// Tiles as the server sends them: cut from the basemap on first request, gzipped, and kept in memory up to
/// a byte budget (least recently used go first). Safe to share between threads.
public final class TileCache: @unchecked Sendable {
    public let builder: VectorTileBuilder
    public let budgetBytes: Int
    private let lock = NSLock()
    private var entries: [TileID: (bytes: [UInt8], lastUse: UInt64)] = [:]
    private var bytesHeld = 0
    private var clock: UInt64 = 0

    public init(basemap: Basemap, budgetBytes: Int = 64 << 20) {
        builder = VectorTileBuilder(basemap: basemap)
        self.budgetBytes = budgetBytes
    }

    public var basemap: Basemap { builder.basemap }

    /// The gzipped tile (empty bytes for an empty tile).
    /// - Precondition: `tile.isValid` and `tile.z <= Basemap.maxZoom`.
    public func gzippedTile(_ tile: TileID) throws -> [UInt8] {
        if let hit = lookUp(tile) { return hit }
        let raw = builder.tile(tile)
        let bytes = raw.isEmpty ? [] : try Zlib.deflate(raw, format: .gzip, level: 6)
        store(tile, bytes)
        return bytes
    }

    /// The tile when it is in memory already (no tile is cut here).
    public func cachedTile(_ tile: TileID) -> [UInt8]? { lookUp(tile) }

    /// Tiles and bytes held now.
    public var usage: (tiles: Int, bytes: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (entries.count, bytesHeld)
    }

    private func lookUp(_ tile: TileID) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[tile] else { return nil }
        clock += 1
        entries[tile]!.lastUse = clock
        return entry.bytes
    }

    private func store(_ tile: TileID, _ bytes: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        guard entries[tile] == nil else { return }
        clock += 1
        entries[tile] = (bytes, clock)
        bytesHeld += bytes.count + 64
        guard bytesHeld > budgetBytes else { return }
        for (key, entry) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard bytesHeld > budgetBytes * 3 / 4 else { break }
            entries[key] = nil
            bytesHeld -= entry.bytes.count + 64
        }
    }
}
