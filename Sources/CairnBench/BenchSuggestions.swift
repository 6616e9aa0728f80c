import ArgumentParser
import Routing
import RoutingBenchmarks

/// `cairn-bench suggestions`: address autocomplete on real places and synthetic address books (issue 4).
struct BenchSuggestions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggestions",
        abstract: "Address autocomplete, one query per keystroke, on the places of real extracts and on synthetic "
            + "address books; a linear scan answers the same keystrokes as the baseline.")

    @Option(help: "An OpenStreetMap extract whose street, address, POI and landmark names are typed; repeatable.")
    var extract: [String] = []

    @Option(help: "Streets of a synthetic address book (about 67 entries each); repeat for several.")
    var streets: [Int] = []

    @Option(help: "Texts typed keystroke by keystroke per set of entries.")
    var typedTexts = 200

    func validate() throws {
        guard !extract.isEmpty || !streets.isEmpty else {
            throw ValidationError("give at least one --extract FILE or --streets N")
        }
        guard streets.allSatisfy({ $0 >= 1 }) else { throw ValidationError("--streets must be at least 1") }
        guard typedTexts >= 1 else { throw ValidationError("--typed-texts must be at least 1") }
    }

    func run() throws {
        Bench.printHeader()
        var results: [SuggestionBenchmark.Result] = []
        for path in extract {
            let graph = BenchmarkGraph.extract(path: path)
            Bench.progress("suggestions: \(graph.recipe)")
            let network = try graph.load()
            guard let area = network.graph.boundingBox, !network.places.isEmpty else {
                throw ValidationError("\(path) has no places to suggest")
            }
            results.append(
                SuggestionBenchmark.run(
                    name: "\(graph.name) places", entries: network.places.map(SuggestionEntry.init(place:)), area: area,
                    typedTexts: typedTexts))
        }
        for count in streets {
            Bench.progress("suggestions: synthetic address book of \(count) streets")
            results.append(SuggestionBenchmark.run(streetCount: count, typedTexts: typedTexts))
        }
        print(BenchmarkReport.suggestions(results))
        Bench.printFooter(goals: results.map(BenchmarkGoal.suggestions))
    }
}
