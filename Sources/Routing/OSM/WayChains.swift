/// Joins ways (node-id lists) into as few lines as possible where their ends meet, reversing ways as needed:
/// OSM route relations list their ways in any direction, and a named path is often cut into many ways.
public enum WayChains {
    public static func chains(_ ways: [[Int64]]) -> [[Int64]] {
        let ways = ways.filter { $0.count >= 2 }
        var byEnd: [Int64: [Int]] = [:]
        for (index, way) in ways.enumerated() {
            byEnd[way.first!, default: []].append(index)
            byEnd[way.last!, default: []].append(index)
        }
        var used = [Bool](repeating: false, count: ways.count)
        var result: [[Int64]] = []

        func take(at node: Int64) -> [Int64]? {
            guard let candidates = byEnd[node] else { return nil }
            for index in candidates where !used[index] {
                used[index] = true
                let way = ways[index]
                return way.first == node ? way : way.reversed()
            }
            return nil
        }

        for start in ways.indices where !used[start] {
            used[start] = true
            var chain = ways[start]
            while let next = take(at: chain.last!) { chain.append(contentsOf: next.dropFirst()) }
            while let previous = take(at: chain.first!) {
                chain = previous.reversed() + chain.dropFirst()
            }
            result.append(chain)
        }
        return result.sorted { $0.count > $1.count }
    }
}
