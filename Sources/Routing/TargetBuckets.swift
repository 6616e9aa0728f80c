/// A fixed set of targets prepared for one-to-many distance queries on a contraction hierarchy
/// (`HierarchySearch.prepareTargets`, then `distances(from:to:)`): each node settled by a target's
/// upward search keeps a bucket entry with the target and its distance, so a query is one upward search
/// from the source that scans the buckets it meets. Preparing costs one upward search per target; a query
/// costs about as much as one point-to-point query, whatever the number of targets.
public struct TargetBuckets: Sendable {
    public let targets: [EdgePosition]
    /// The entries of the node of rank `r` are `bucketStart[r] ..< bucketStart[r + 1]`.
    let bucketStart: [Int32]
    let entryTarget: [Int32]
    let entryDistance: [Double]

    init(targets: [EdgePosition], rankCount: Int, entries: [(rank: Int32, target: Int32, distance: Double)]) {
        self.targets = targets
        var start = [Int32](repeating: 0, count: rankCount + 1)
        for entry in entries { start[Int(entry.rank) + 1] += 1 }
        for rank in 0..<rankCount { start[rank + 1] += start[rank] }
        var fill = start
        var target = [Int32](repeating: 0, count: entries.count)
        var distance = [Double](repeating: 0, count: entries.count)
        for entry in entries {
            let slot = Int(fill[Int(entry.rank)])
            target[slot] = entry.target
            distance[slot] = entry.distance
            fill[Int(entry.rank)] += 1
        }
        bucketStart = start
        entryTarget = target
        entryDistance = distance
    }

    /// How many bucket entries the targets left, a measure of the preparation's size.
    public var entryCount: Int { entryTarget.count }

    func bucket(ofRank rank: Int) -> Range<Int> {
        Int(bucketStart[rank])..<Int(bucketStart[rank + 1])
    }
}
