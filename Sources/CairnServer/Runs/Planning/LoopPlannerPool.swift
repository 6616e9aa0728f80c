import Foundation
import Routing

/// Idle `LoopPlanner`s, lent out one per plan being computed. A planner holds search buffers the size of
/// the graph and is not shareable between threads, so only as many are kept as the machine has cores;
/// more concurrent plans make temporary ones.
final class LoopPlannerPool: @unchecked Sendable {
    private let graph: StreetGraph
    private let lock = NSLock()
    private var idle: [LoopPlanner] = []
    private let maxIdle = ProcessInfo.processInfo.activeProcessorCount

    init(graph: StreetGraph) {
        self.graph = graph
    }

    func withPlanner<T>(_ body: (inout LoopPlanner) throws -> T) rethrows -> T {
        var planner = lock.withLock { idle.popLast() } ?? LoopPlanner(graph: graph)
        defer {
            lock.withLock {
                if idle.count < maxIdle { idle.append(planner) }
            }
        }
        return try body(&planner)
    }
}
