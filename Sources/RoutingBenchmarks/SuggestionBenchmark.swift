import Foundation
import Geo
import Routing

/// Measures address autocomplete as a person uses it: one query per keystroke while typing the text of a
/// random entry (a fifth of them with two letters swapped), from a random point of the area. The same
/// keystrokes are answered by `SuggestionScan`, the baseline, in the same run. Each query is timed by the
/// CPU time of the measuring thread (`Stopwatch.measureThreadCPU`).
public enum SuggestionBenchmark {
    public struct Result: Sendable {
        public var name: String
        public var entryCount: Int
        public var suggestionCount: Int
        public var vocabularyCount: Int
        public var buildMilliseconds: Double
        /// Resident memory growth while building the index (the entries themselves excluded).
        public var buildMiB: Double?
        /// Per keystroke query, CPU milliseconds.
        public var keystroke: Sample
        /// The same keystrokes answered by the linear scan, milliseconds.
        public var scanKeystroke: Sample
        /// The share of fully typed texts whose entry is among the suggestions.
        public var foundShare: Double

        /// The scan's median over the index's median, on the same keystrokes.
        public var speedup: Double { (scanKeystroke.median ?? 0) / max(keystroke.median ?? 1, 1e-9) }
    }

    /// On a `SyntheticAddressBook` of `streetCount` streets.
    public static func run(streetCount: Int, typedTexts: Int = 200, seed: UInt64 = 1) -> Result {
        let book = SyntheticAddressBook(streetCount: streetCount, seed: seed)
        return run(
            name: "synthetic \(streetCount) streets", entries: book.entries(),
            area: BoundingBox(around: book.center, radiusMeters: book.extentMeters), typedTexts: typedTexts,
            seed: seed)
    }

    /// On `entries` (the places of an imported extract, say), typed from random points of `area`.
    public static func run(
        name: String, entries: [SuggestionEntry], area: BoundingBox, typedTexts: Int = 200, seed: UInt64 = 1
    ) -> Result {
        let residentBefore = Stopwatch.residentMiB()
        let (index, buildMilliseconds) = Stopwatch.measure { SuggestionIndex(entries: entries) }
        let residentAfter = Stopwatch.residentMiB()
        let scan = SuggestionScan(entries: entries)

        var random = SeededRandom(seed: seed &+ 1)
        var keystroke = Sample(), scanKeystroke = Sample()
        var found = 0
        for typed in 0..<typedTexts {
            let target = entries[Int(random.next() % UInt64(entries.count))]
            var text = Array(target.text)
            if typed % 5 == 0, text.count > 6 {
                let position = 2 + Int(random.next() % UInt64(min(text.count, 12) - 3))
                text.swapAt(position, position + 1)
            }
            let near = Coordinate(
                latitude: area.south + random.nextUnit() * (area.north - area.south),
                longitude: area.west + random.nextUnit() * (area.east - area.west))
            var last = [Suggestion]()
            for length in 1...text.count {
                let query = String(text.prefix(length))
                let (suggestions, milliseconds) = Stopwatch.measureThreadCPU { index.suggest(query, near: near) }
                keystroke.append(milliseconds)
                scanKeystroke.append(Stopwatch.measureThreadCPU { scan.suggest(query, near: near) }.milliseconds)
                last = suggestions
            }
            if last.contains(where: { $0.text == target.text }) { found += 1 }
        }
        return Result(
            name: name, entryCount: entries.count, suggestionCount: index.suggestionCount,
            vocabularyCount: index.vocabularyCount, buildMilliseconds: buildMilliseconds,
            buildMiB: residentAfter.flatMap { after in residentBefore.map { after - $0 } },
            keystroke: keystroke, scanKeystroke: scanKeystroke, foundShare: Double(found) / Double(max(typedTexts, 1)))
    }
}
