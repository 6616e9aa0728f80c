import Foundation

/// Idle objects lent out one per caller at a time, for workspaces that are costly to make and cannot be shared
/// between threads (search buffers the size of a graph). At most `maxIdle` are kept, by default as many as the
/// machine has cores; when more callers borrow at once, the extra ones get temporary objects.
public final class ObjectPool<Object>: @unchecked Sendable {
    private let make: () -> Object
    private let maxIdle: Int
    private let lock = NSLock()
    private var idle: [Object] = []

    public init(maxIdle: Int = ProcessInfo.processInfo.activeProcessorCount, make: @escaping () -> Object) {
        self.make = make
        self.maxIdle = maxIdle
    }

    /// Runs `body` with an object of the pool's (or a new one), and keeps the object for the next caller.
    public func withObject<T>(_ body: (inout Object) throws -> T) rethrows -> T {
        var object = lock.withLock { idle.popLast() } ?? make()
        defer {
            lock.withLock {
                if idle.count < maxIdle { idle.append(object) }
            }
        }
        return try body(&object)
    }
}
