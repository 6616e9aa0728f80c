import Fluent
import NIOConcurrencyHelpers

/// One server process's in-memory index of a data set (the field guide's catalogue, the ski mountains, the
/// trails' map), kept until the set's stored version (`Table`) moves. Each `current(on:)` reads the version —
/// one indexed read — so a write by this process, by another `cairn serve` on the same database or by a
/// `cairn … import` is seen at the next request.
///
/// When the version moved, the index is built again once: the readers that find it stale at the same time share
/// that build, and a build for a newer version starts only when the one under way has ended (two copies of a
/// large set are never read at once). Versions only rise, so a reader is served the newest index this process
/// has, never one older than an index already served, even when its own read of the version was older.
package final class VersionGuardedStore<Table: VersionTable, Index: Sendable>: Sendable {
    /// An index and the version read before it was built.
    package struct Snapshot: Sendable {
        package let version: Int
        package let index: Index
    }

    private struct State {
        var latest: Snapshot?
        /// The build under way, shared by the readers of its version or an older one.
        var building: (version: Int, task: Task<Index, any Error>)?
    }

    /// What a reader does: take the index there is, or wait for the build of `version`.
    private enum Step {
        case ready(Snapshot)
        case wait(version: Int, Task<Index, any Error>)
    }

    private let build: @Sendable (any Database) async throws -> Index
    private let state = NIOLockedValueBox(State())

    /// `build` reads the whole index from the database.
    package init(build: @escaping @Sendable (any Database) async throws -> Index) {
        self.build = build
    }

    /// The index as of the stored version (or a newer one).
    package func current(on db: any Database) async throws -> Snapshot {
        try await snapshot(at: try await Table.version(on: db), on: db)
    }

    /// The index as of `version` (or a newer one), built when this process has none that recent.
    func snapshot(at version: Int, on db: any Database) async throws -> Snapshot {
        let step: Step = state.withLockedValue { state in
            if let latest = state.latest, latest.version >= version { return .ready(latest) }
            if let building = state.building, building.version >= version {
                return .wait(version: building.version, building.task)
            }
            let previous = state.building?.task
            let build = self.build
            let task = Task {
                _ = await previous?.result
                return try await build(db)
            }
            state.building = (version, task)
            return .wait(version: version, task)
        }
        let built: Int
        let task: Task<Index, any Error>
        switch step {
        case .ready(let snapshot): return snapshot
        case .wait(let version, let pending): (built, task) = (version, pending)
        }
        let result = await task.result
        return try state.withLockedValue { state in
            if state.building?.version == built { state.building = nil }
            let index = try result.get()
            if let latest = state.latest, latest.version >= built { return latest }
            let snapshot = Snapshot(version: built, index: index)
            state.latest = snapshot
            return snapshot
        }
    }
}
