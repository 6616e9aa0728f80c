import Geo

/// Address autocomplete over streets, addresses, points of interest and landmarks.
///
/// Matching is on folded words (`TextFolding`: "hameen" finds "Hämeentie"). Every word of the query must
/// match a word of the entry — the last one as a prefix while it is being typed — with a few typing
/// errors forgiven: none in words of up to three letters or with digits (house numbers are exact), one in
/// words of four to seven letters, two in longer ones (optimal string alignment distance, so a swap of two
/// letters is one error; a prefix matches with the distance to the nearest prefix of the word).
///
/// Ranking, best first: fewer typing errors; the query is the beginning of the text ("mannerheimintie 1"
/// for "Mannerheimintie 1"…); the last word is a whole word, not just a prefix ("5" before "52"); the
/// entry has no words beyond the query; then nearer to the given point; then shorter text. Entries of one
/// street are one suggestion, at the street's point nearest to the given point; so are entries of one place
/// mapped more than once (a tram stop's two platforms: same text and detail within `samePlaceMeters`).
///
/// Storage: a sorted vocabulary of folded words in one byte array, which doubles as an implicit trie
/// (the words under a prefix are a contiguous range), postings from each word to the suggestions holding
/// it, and each suggestion's words in order and points. Typo-tolerant lookup walks the implicit trie
/// carrying a row of the edit-distance table (Shang & Merrett 1996) and prunes a branch as soon as every
/// entry of the row exceeds the budget.
///
/// Immutable after building, so one index can serve any number of threads.
public struct SuggestionIndex: Sendable {
    // Items: the suggestions (entries, with a street's entries merged), each with its words and points.
    let itemKind: [SuggestionEntry.Kind]
    let itemText: [String]
    let itemDetail: [String?]
    let itemWordStart: [Int32]
    let itemWords: [Int32]
    let itemPointStart: [Int32]
    let pointLatitude: [Double]
    let pointLongitude: [Double]
    let pointEntry: [Int32]
    /// Each item's box (degrees, rounded outwards), a cheap lower bound on its distance.
    let itemBox: [BoxF]

    // Vocabulary in byte order, and the items holding each word.
    let vocabularyBytes: [UInt8]
    let vocabularyStart: [Int32]
    let postingStart: [Int32]
    let postingItem: [Int32]

    /// How many suggestions the entries made (a street with many entries counts once).
    public var suggestionCount: Int { itemKind.count }
    /// How many distinct folded words the entries hold.
    public var vocabularyCount: Int { vocabularyStart.count - 1 }

    /// Entries other than streets with the same text and detail closer than this are one place.
    public static let samePlaceMeters = 150.0
    /// How many earlier entries with the same text, kind and detail an entry is compared with.
    private static let namesakesLookedAt = 16

    public init(entries: [SuggestionEntry]) {
        var kinds = [SuggestionEntry.Kind](), texts = [String](), details = [String?]()
        var wordsOfItem = [[Int32]]()
        var pointsOfItem = [[Int32]]()
        // Items with the same kind, folded words and detail, latest first: `latestNamesake` by a hash of
        // those, then `previousNamesake` from item to item.
        var latestNamesake = [Int: Int32]()
        var previousNamesake = [Int32]()
        var temporaryID = [[UInt8]: Int32]()
        var words = [[UInt8]]()

        for (entryIndex, entry) in entries.enumerated() {
            let folded = TextFolding.words(in: entry.text)
            guard !folded.isEmpty else { continue }
            let ids = folded.map { word in
                if let id = temporaryID[word] { return id }
                temporaryID[word] = Int32(words.count)
                words.append(word)
                return Int32(words.count - 1)
            }
            var hasher = Hasher()
            hasher.combine(ids)
            hasher.combine(entry.detail)
            hasher.combine(entry.kind)
            let key = hasher.finalize()
            // A street merges with its namesake anywhere; another entry with one nearby. Only the latest
            // `namesakesLookedAt` namesakes are looked at, so that thousands of "Bench" stay linear.
            let latest = latestNamesake[key] ?? -1
            var namesake = latest, match: Int?
            for _ in 0..<Self.namesakesLookedAt where match == nil && namesake >= 0 {
                let item = Int(namesake)
                if kinds[item] == entry.kind && details[item] == entry.detail && wordsOfItem[item] == ids
                    && (entry.kind == .street
                        || pointsOfItem[item].contains {
                            entries[Int($0)].coordinate.haversineDistance(to: entry.coordinate) <= Self.samePlaceMeters
                        })
                {
                    match = item
                } else {
                    namesake = previousNamesake[item]
                }
            }
            if let match {
                pointsOfItem[match].append(Int32(entryIndex))
                continue
            }
            previousNamesake.append(latest)
            latestNamesake[key] = Int32(kinds.count)
            kinds.append(entry.kind)
            texts.append(entry.text)
            details.append(entry.detail)
            pointsOfItem.append([Int32(entryIndex)])
            wordsOfItem.append(ids)
        }

        let order = words.indices.sorted { words[$0].lexicographicallyPrecedes(words[$1]) }
        var finalID = [Int32](repeating: 0, count: words.count)
        var bytes = [UInt8](), starts: [Int32] = [0]
        for (rank, id) in order.enumerated() {
            finalID[id] = Int32(rank)
            bytes.append(contentsOf: words[id])
            starts.append(Int32(bytes.count))
        }

        var wordStart: [Int32] = [0], itemWordList = [Int32]()
        var pointStart: [Int32] = [0], latitudes = [Double](), longitudes = [Double](), pointEntries = [Int32]()
        var boxes = [BoxF]()
        var postingCount = [Int32](repeating: 0, count: words.count + 1)
        for item in kinds.indices {
            let itemWords = wordsOfItem[item].map { finalID[Int($0)] }
            itemWordList.append(contentsOf: itemWords)
            wordStart.append(Int32(itemWordList.count))
            for word in Set(itemWords) { postingCount[Int(word) + 1] += 1 }
            for entry in pointsOfItem[item] {
                latitudes.append(entries[Int(entry)].coordinate.latitude)
                longitudes.append(entries[Int(entry)].coordinate.longitude)
                pointEntries.append(entry)
            }
            pointStart.append(Int32(latitudes.count))
            boxes.append(
                BoxF(covering: pointsOfItem[item].map { entries[Int($0)].coordinate }))
        }
        for word in words.indices { postingCount[word + 1] += postingCount[word] }
        var fill = postingCount
        var postings = [Int32](repeating: 0, count: Int(postingCount[words.count]))
        for item in kinds.indices {
            for word in Set(itemWordList[Int(wordStart[item])..<Int(wordStart[item + 1])]) {
                postings[Int(fill[Int(word)])] = Int32(item)
                fill[Int(word)] += 1
            }
        }
        for word in words.indices {
            postings[Int(postingCount[word])..<Int(postingCount[word + 1])].sort()
        }

        itemKind = kinds
        itemText = texts
        itemDetail = details
        itemWordStart = wordStart
        itemWords = itemWordList
        itemPointStart = pointStart
        pointLatitude = latitudes
        pointLongitude = longitudes
        pointEntry = pointEntries
        itemBox = boxes
        vocabularyBytes = bytes
        vocabularyStart = starts
        postingStart = postingCount
        postingItem = postings
    }

    /// The best `limit` suggestions for what has been typed so far, ranked as described on the type.
    public func suggest(_ query: String, near point: Coordinate? = nil, limit: Int = 10) -> [Suggestion] {
        let tokens = TextFolding.words(in: query)
        guard !tokens.isEmpty, limit > 0, vocabularyCount > 0 else { return [] }
        let lastIsPrefix = TextFolding.endsInWord(query)
        let matches = tokens.indices.map { index in
            match(tokens[index], asPrefix: index == tokens.count - 1 && lastIsPrefix)
        }
        guard let driver = matches.indices.min(by: { matches[$0].postingEstimate < matches[$1].postingEstimate })
        else { return [] }

        // Every token's costs side by side, read through raw buffers: the loop below may meet every
        // suggestion when the query is one letter.
        var costs = [UInt8]()
        costs.reserveCapacity(tokens.count * vocabularyCount)
        for match in matches { costs.append(contentsOf: match.costs) }
        var ranking = Ranking(limit: limit, near: point)
        costs.withUnsafeBufferPointer { costs in
            itemWords.withUnsafeBufferPointer { words in
                itemWordStart.withUnsafeBufferPointer { wordStart in
                    let query = QueryCosts(costs: costs, vocabularyCount: vocabularyCount, tokenCount: tokens.count)
                    let driverCosts = UnsafeBufferPointer(rebasing: costs[(driver * vocabularyCount)...])
                    for range in matches[driver].ranges {
                        for word in range where driverCosts[word] != TokenMatch.none {
                            for posting in Int(postingStart[word])..<Int(postingStart[word + 1]) {
                                let item = Int(postingItem[posting])
                                let itemWords = UnsafeBufferPointer(
                                    rebasing: words[Int(wordStart[item])..<Int(wordStart[item + 1])])
                                guard Self.firstWord(of: itemWords, matching: driverCosts) == word,
                                    let score = query.score(itemWords)
                                else { continue }
                                ranking.consider(item, score: score, in: self)
                            }
                        }
                    }
                }
            }
        }
        return ranking.best.map { candidate in
            let coordinate = Coordinate(
                latitude: pointLatitude[candidate.point], longitude: pointLongitude[candidate.point])
            return Suggestion(
                text: itemText[candidate.item], kind: itemKind[candidate.item], detail: itemDetail[candidate.item],
                coordinate: coordinate, entryIndex: Int(pointEntry[candidate.point]),
                distanceMeters: point?.haversineDistance(to: coordinate), typos: candidate.score.typos)
        }
    }

    /// The smallest-numbered word of an item the driving token matches, so each item is scored once.
    private static func firstWord(of words: UnsafeBufferPointer<Int32>, matching costs: UnsafeBufferPointer<UInt8>)
        -> Int
    {
        var first = Int.max
        for word in words where costs[Int(word)] != TokenMatch.none { first = min(first, Int(word)) }
        return first
    }

    func points(of item: Int) -> Range<Int> { Int(itemPointStart[item])..<Int(itemPointStart[item + 1]) }
}
