import Geo

/// The words of the vocabulary one query token matches, with what each match costs.
struct TokenMatch {
    /// No match, in `costs`.
    static let none: UInt8 = 0xFF

    /// Per vocabulary word: high nibble the edit distance to the whole word, low nibble to its nearest
    /// prefix (only for a token still being typed); 15 for no match.
    var costs: [UInt8]
    /// Disjoint, ascending vocabulary ranges that hold every matched word.
    var ranges: [Range<Int>]
    /// How many postings the matched words have, to pick the most selective token to drive a query.
    var postingEstimate: Int
}

/// How well a query matches a suggestion; lower `rank` is better.
struct MatchScore {
    var typos: Int
    /// The query is the beginning of the text, word by word.
    var isBeginning: Bool
    var lastIsWholeWord: Bool
    var hasMoreWords: Bool

    var rank: Int { typos * 8 + (isBeginning ? 0 : 4) + (lastIsWholeWord ? 0 : 2) + (hasMoreWords ? 1 : 0) }
}

/// The costs of every query token against every vocabulary word (`TokenMatch.costs`, token after token).
struct QueryCosts {
    let costs: UnsafeBufferPointer<UInt8>
    let vocabularyCount: Int
    let tokenCount: Int

    /// How well the query matches a suggestion with these words (in text order), or nil when some token
    /// matches none of them.
    func score(_ words: UnsafeBufferPointer<Int32>) -> MatchScore? {
        var score = MatchScore(
            typos: 0, isBeginning: tokenCount <= words.count, lastIsWholeWord: false,
            hasMoreWords: words.count > tokenCount)
        for token in 0..<tokenCount {
            let base = token * vocabularyCount
            var best = Int.max, bestIsWholeWord = false
            for word in words {
                let cost = costs[base + Int(word)]
                guard cost != TokenMatch.none else { continue }
                let whole = Int(cost >> 4), any = Int(min(cost >> 4, cost & 0xF))
                if any < best || any == best && whole == best {
                    best = any
                    bestIsWholeWord = whole == any
                }
            }
            guard best != Int.max else { return nil }
            score.typos += best
            if token == tokenCount - 1 { score.lastIsWholeWord = bestIsWholeWord }
            if score.isBeginning {
                let cost = costs[base + Int(words[token])]
                score.isBeginning = cost != TokenMatch.none && min(cost >> 4, cost & 0xF) == 0
            }
        }
        return score
    }
}

/// A box in degrees as `Float`s rounded outwards.
struct BoxF {
    var south: Float
    var west: Float
    var north: Float
    var east: Float

    init(covering coordinates: [Coordinate]) {
        let box = BoundingBox(covering: coordinates)!
        south = Float(box.south).nextDown
        west = Float(box.west).nextDown
        north = Float(box.north).nextUp
        east = Float(box.east).nextUp
    }
}

/// The best few suggestions seen so far, in order.
struct Ranking {
    struct Candidate {
        var item: Int
        var score: MatchScore
        /// Squared metres in the plane tangent at the query point; 0 without one.
        var distanceSquared: Double
        var point: Int
    }

    let limit: Int
    let plane: TangentPlane?
    private(set) var best: [Candidate] = []

    init(limit: Int, near point: Coordinate?) {
        self.limit = limit
        plane = point.map(TangentPlane.init(at:))
    }

    mutating func consider(_ item: Int, score: MatchScore, in index: SuggestionIndex) {
        let rank = score.rank
        let isFull = best.count == limit
        if isFull, rank > best[limit - 1].score.rank { return }
        let points = index.points(of: item)
        var candidate = Candidate(item: item, score: score, distanceSquared: 0, point: points.lowerBound)
        if let plane {
            if isFull, rank == best[limit - 1].score.rank, points.count > 1 {
                let box = index.itemBox[item]
                let bound = plane.distanceSquared(south: box.south, west: box.west, north: box.north, east: box.east)
                if bound > best[limit - 1].distanceSquared { return }
            }
            candidate.distanceSquared = .infinity
            for point in points {
                let coordinate = Coordinate(
                    latitude: index.pointLatitude[point], longitude: index.pointLongitude[point])
                let distance = plane.distanceSquared(to: coordinate, coordinate).0
                if distance < candidate.distanceSquared {
                    candidate.distanceSquared = distance
                    candidate.point = point
                }
            }
        }
        var position = best.count
        while position > 0 && precedes(candidate, best[position - 1], in: index) { position -= 1 }
        guard position < limit else { return }
        best.insert(candidate, at: position)
        if best.count > limit { best.removeLast() }
    }

    private func precedes(_ a: Candidate, _ b: Candidate, in index: SuggestionIndex) -> Bool {
        if a.score.rank != b.score.rank { return a.score.rank < b.score.rank }
        if a.distanceSquared != b.distanceSquared { return a.distanceSquared < b.distanceSquared }
        let textA = index.itemText[a.item], textB = index.itemText[b.item]
        if textA.utf8.count != textB.utf8.count { return textA.utf8.count < textB.utf8.count }
        return (textA, a.item) < (textB, b.item)
    }
}

extension SuggestionIndex {
    /// Typing errors forgiven in a token: none in short words and in words with digits (house numbers).
    static func typoBudget(for token: [UInt8]) -> Int {
        if token.contains(where: { (0x30...0x39).contains($0) }) { return 0 }
        return token.count <= 3 ? 0 : token.count <= 7 ? 1 : 2
    }

    /// The vocabulary words `token` matches: as a whole word, and as a prefix when `asPrefix`.
    func match(_ token: [UInt8], asPrefix: Bool) -> TokenMatch {
        var result = TokenMatch(
            costs: [UInt8](repeating: TokenMatch.none, count: vocabularyCount), ranges: [], postingEstimate: 0)
        let budget = Self.typoBudget(for: token)
        if budget == 0 {
            let range = prefixRange(of: token)
            if asPrefix {
                for word in range { mark(&result, word: word, wholeWordCost: nil, prefixCost: 0) }
                result.ranges.append(range)
            }
            if let first = range.first, wordLength(first) == token.count {
                mark(&result, word: first, wholeWordCost: 0, prefixCost: asPrefix ? 0 : nil)
                if !asPrefix { result.ranges.append(first..<first + 1) }
            }
        } else {
            let root = Array(0...token.count)
            walk(
                TrieNode(words: 0..<vocabularyCount, depth: 0), row: root, previousRow: root, lastByte: 0,
                token: token, budget: budget, asPrefix: asPrefix, into: &result)
        }
        result.ranges = merged(result.ranges)
        result.postingEstimate = result.ranges.reduce(0) {
            $0 + Int(postingStart[$1.upperBound] - postingStart[$1.lowerBound])
        }
        return result
    }

    /// A node of the implicit trie: the words sharing their first `depth` bytes.
    private struct TrieNode {
        var words: Range<Int>
        var depth: Int
    }

    /// Visits `node` with `row`, the edit distances between its prefix and each prefix of `token`
    /// (`previousRow` for its parent, `lastByte` its prefix's last byte, for swaps), marks the words it
    /// matches, and descends into the children whose rows stay within `budget`.
    private func walk(
        _ node: TrieNode, row: [Int], previousRow: [Int], lastByte: UInt8, token: [UInt8], budget: Int,
        asPrefix: Bool, into result: inout TokenMatch
    ) {
        let m = token.count
        if asPrefix && row[m] <= budget {
            for word in node.words { mark(&result, word: word, wholeWordCost: nil, prefixCost: row[m]) }
            result.ranges.append(node.words)
        }
        var children = node.words
        if let first = children.first, wordLength(first) == node.depth {
            if row[m] <= budget {
                mark(&result, word: first, wholeWordCost: row[m], prefixCost: asPrefix ? row[m] : nil)
                result.ranges.append(first..<first + 1)
            }
            children = children.dropFirst()
        }
        guard row.min()! <= budget else { return }
        var start = children.lowerBound
        while start < children.upperBound {
            let byte = self.byte(start, at: node.depth)
            var low = start + 1, high = children.upperBound
            while low < high {
                let middle = (low + high) / 2
                if self.byte(middle, at: node.depth) <= byte { low = middle + 1 } else { high = middle }
            }
            var next = [Int](repeating: row[0] + 1, count: m + 1)
            for j in 1...m {
                next[j] = min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (token[j - 1] == byte ? 0 : 1))
                if j >= 2 && node.depth >= 1 && token[j - 1] == lastByte && token[j - 2] == byte {
                    next[j] = min(next[j], previousRow[j - 2] + 1)
                }
            }
            if next.min()! <= budget {
                walk(
                    TrieNode(words: start..<low, depth: node.depth + 1), row: next, previousRow: row, lastByte: byte,
                    token: token, budget: budget, asPrefix: asPrefix, into: &result)
            }
            start = low
        }
    }

    private func mark(_ result: inout TokenMatch, word: Int, wholeWordCost: Int?, prefixCost: Int?) {
        let old = result.costs[word]
        let oldWhole = old >> 4, oldPrefix = old & 0xF
        let whole = min(oldWhole, wholeWordCost.map { UInt8($0) } ?? 0xF)
        let prefix = min(oldPrefix, prefixCost.map { UInt8($0) } ?? 0xF)
        result.costs[word] = whole << 4 | prefix
    }

    private func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result = [Range<Int>]()
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// The words that begin with `prefix` (a contiguous range of the sorted vocabulary).
    private func prefixRange(of prefix: [UInt8]) -> Range<Int> {
        func firstWord(where isAfter: (Int) -> Bool) -> Int {
            var low = 0, high = vocabularyCount
            while low < high {
                let middle = (low + high) / 2
                if isAfter(middle) { high = middle } else { low = middle + 1 }
            }
            return low
        }
        let lower = firstWord { comparePrefix(of: $0, with: prefix) >= 0 }
        let upper = firstWord { comparePrefix(of: $0, with: prefix) > 0 }
        return lower..<upper
    }

    /// Compares the first `prefix.count` bytes of a word (all of it when shorter) with `prefix`.
    private func comparePrefix(of word: Int, with prefix: [UInt8]) -> Int {
        let start = Int(vocabularyStart[word]), length = wordLength(word)
        for i in 0..<min(length, prefix.count) where vocabularyBytes[start + i] != prefix[i] {
            return vocabularyBytes[start + i] < prefix[i] ? -1 : 1
        }
        return length < prefix.count ? -1 : 0
    }

    private func wordLength(_ word: Int) -> Int { Int(vocabularyStart[word + 1] - vocabularyStart[word]) }

    private func byte(_ word: Int, at depth: Int) -> UInt8 { vocabularyBytes[Int(vocabularyStart[word]) + depth] }
}
