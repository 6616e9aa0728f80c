/// Douglas–Peucker line simplification (Douglas & Peucker 1973), the one implementation the street layer, the
/// basemap's tiles and the activity images share. Iterative, so long lines cannot overflow the stack.
public enum LineSimplification {
    /// The indices, in order, of a line of `count` points that simplification keeps: both ends and every point
    /// whose `offset(point, first, last)` from the chord between two kept points is over `tolerance`. The
    /// caller measures in its own plane (metres, pixels, squared world units with a squared tolerance).
    @inlinable
    public static func keptIndices(
        count: Int, tolerance: Double, offset: (_ point: Int, _ first: Int, _ last: Int) -> Double
    ) -> [Int] {
        guard count > 2 else { return Array(0..<count) }
        var keep = [Bool](repeating: false, count: count)
        keep[0] = true
        keep[count - 1] = true
        var stack = [(0, count - 1)]
        while let (first, last) = stack.popLast() {
            guard last - first > 1 else { continue }
            var farthest = first
            var farthestOffset = 0.0
            for index in (first + 1)..<last {
                let distance = offset(index, first, last)
                if distance > farthestOffset {
                    farthest = index
                    farthestOffset = distance
                }
            }
            if farthestOffset > tolerance {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        return keep.indices.filter { keep[$0] }
    }
}
