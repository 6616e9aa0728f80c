import Foundation
import Geo
import Routing

/// Measures address autocomplete as a person uses it: one query per keystroke while typing the text of a
/// random entry (a fifth of them with a typing error), from a random point of the city.
public enum SuggestionBenchmark {
    public struct Result: Sendable {
        public var entryCount: Int
        public var suggestionCount: Int
        public var vocabularyCount: Int
        public var buildMilliseconds: Double
        /// Resident memory growth while building the index (the entries themselves excluded).
        public var buildMiB: Double?
        /// Per keystroke query, milliseconds.
        public var keystroke: Sample
        /// The share of fully typed texts whose entry is among the suggestions.
        public var foundShare: Double
    }

    public static func run(streetCount: Int, typedTexts: Int = 200, seed: UInt64 = 1) -> Result {
        let book = SyntheticAddressBook(streetCount: streetCount, seed: seed)
        let entries = book.entries()
        let residentBefore = Stopwatch.residentMiB()
        let (index, buildMilliseconds) = Stopwatch.measure { SuggestionIndex(entries: entries) }
        let residentAfter = Stopwatch.residentMiB()

        var random = SeededRandom(seed: seed &+ 1)
        let projection = LocalProjection(origin: book.center)
        var keystroke = Sample()
        var found = 0
        for typed in 0..<typedTexts {
            let target = entries[Int(random.next() % UInt64(entries.count))]
            var text = Array(target.text)
            if typed % 5 == 0, text.count > 6 {
                let position = 2 + Int(random.next() % UInt64(min(text.count, 12) - 3))
                text.swapAt(position, position + 1)
            }
            let near = projection.unproject(
                x: (random.nextUnit() * 2 - 1) * book.extentMeters, y: (random.nextUnit() * 2 - 1) * book.extentMeters)
            var last = [Suggestion]()
            for length in 1...text.count {
                let query = String(text.prefix(length))
                let (suggestions, milliseconds) = Stopwatch.measure { index.suggest(query, near: near) }
                keystroke.append(milliseconds)
                last = suggestions
            }
            if last.contains(where: { $0.text == target.text }) { found += 1 }
        }
        return Result(
            entryCount: entries.count, suggestionCount: index.suggestionCount, vocabularyCount: index.vocabularyCount,
            buildMilliseconds: buildMilliseconds,
            buildMiB: residentAfter.flatMap { after in residentBefore.map { after - $0 } },
            keystroke: keystroke, foundShare: Double(found) / Double(max(typedTexts, 1)))
    }
}
