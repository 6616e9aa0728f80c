/// `GET /healthz`.
public struct HealthStatus: Codable, Sendable, Equatable {
    /// `ok`, or `degraded` when the database does not answer or the data folder's disk is low or full.
    public var status: String
    /// `ok` or `unreachable`.
    public var database: String
    /// The data folder's file system: `ok`, `low` (time to free space) or `full` (writes are refused).
    public var disk: String

    public init(status: String, database: String, disk: String) {
        self.status = status
        self.database = database
        self.disk = disk
    }
}

/// `GET /api/client-config`: what a client needs to know about this installation before drawing a map.
public struct ClientConfig: Codable, Sendable, Equatable {
    /// Raster tile URL template (`{z}/{x}/{y}`) used while online; empty when disabled.
    public var tileURL: String
    /// HTML attribution for the tiles.
    public var tileAttribution: String

    public init(tileURL: String, tileAttribution: String) {
        self.tileURL = tileURL
        self.tileAttribution = tileAttribution
    }

    enum CodingKeys: String, CodingKey {
        case tileURL = "tile_url"
        case tileAttribution = "tile_attribution"
    }
}
