import Foundation

/// How full the file system under the data folder is, for `/healthz`: `full` when less than
/// `fullBelowBytes` is left for Cairn (writes are about to be refused 507), `low` when less than
/// `lowBelowBytes` is left (time to free space, nothing refused yet), else `ok`. Read with `statvfs` on every
/// check — one system call, no file written. The space counted is what an unprivileged process may still use
/// (`f_bavail`), not the root-reserved blocks, because that is what Cairn's writes meet.
///
/// | Variable | Default | Meaning |
/// | --- | --- | --- |
/// | `CAIRN_DISK_FULL_MB` | `16` | Less free space than this under the data folder: `/healthz` answers 503, `disk: full`. |
/// | `CAIRN_DISK_LOW_MB` | `1024` | Less free space than this: `/healthz` answers 200 with `status: degraded`, `disk: low`. |
public struct DataFolderSpace: Sendable, Equatable {
    /// The three answers of `/healthz`'s `disk` member.
    package enum Level: String, Sendable {
        case ok, low, full
    }

    public var fullBelowBytes: Int64
    public var lowBelowBytes: Int64

    public init(fullBelowBytes: Int64 = 16 << 20, lowBelowBytes: Int64 = 1 << 30) {
        self.fullBelowBytes = fullBelowBytes
        self.lowBelowBytes = lowBelowBytes
    }

    package static func fromEnvironment(_ environment: [String: String]) throws -> DataFolderSpace {
        let reader = ConfigReader(environment)
        let full = try reader.integer("CAIRN_DISK_FULL_MB", default: 16, range: 0...(1 << 30))
        let low = try reader.integer("CAIRN_DISK_LOW_MB", default: 1024, range: 0...(1 << 30))
        guard low >= full else {
            throw StartupError("CAIRN_DISK_LOW_MB=\(low) must be at least CAIRN_DISK_FULL_MB=\(full)")
        }
        return DataFolderSpace(fullBelowBytes: Int64(full) << 20, lowBelowBytes: Int64(low) << 20)
    }

    /// The level of the file system holding `folder`; `ok` when it cannot be read (the folder is made at
    /// start-up, so that means it was removed under the server, which the next write reports itself).
    package func level(of folder: URL) -> Level {
        guard let free = Self.availableBytes(at: folder) else { return .ok }
        if free < fullBelowBytes { return .full }
        return free < lowBelowBytes ? .low : .ok
    }

    /// Bytes an unprivileged process may still write on the file system holding `folder`.
    package static func availableBytes(at folder: URL) -> Int64? {
        var stats = statvfs()
        guard statvfs(folder.path, &stats) == 0 else { return nil }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }
}
