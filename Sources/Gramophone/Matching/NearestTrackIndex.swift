/// Finds the nearest track for a miss report without judging every track with the matchers.
///
/// The ranking is `MissReport`'s (the most judge weight, the first of equals); scoring every
/// track with the matchers cost ~0.6 µs a track, 57 ms in a 100,000-track vinyl. Here each
/// track's URL parts are kept as small numbers (equal text, equal number), so the judges on
/// method and URL parts are integer comparisons, and the tracks sharing the live request's
/// method, host and path, then its method and host, are ranked first. Those candidates are
/// enough when no other track could score as high: a track outside them differs in one of
/// those parts and loses at least that part's weight. Otherwise every track is ranked, still
/// by numbers.
///
/// Tracks whose parts could print alike with other parts (relative URLs, IPv6 or decoded
/// hosts: `RequestParts.hasPlainAuthority`) are always judged with the matchers themselves, and a
/// live request like that falls back to `MissReport.nearestByScan`.
struct NearestTrackIndex: Sendable {
    /// A track's parts as numbers: two tracks agree on a part when the numbers are equal.
    struct Row: Sendable {
        var method, scheme, host, path, query: Int32
        /// `RequestParts.port` (what `.url` compares) and `effectivePort` (what `.port` compares).
        var port, effectivePort: Int32
        /// `.url` tells `?` from no query; `queryText` does not.
        var queryIsEmpty: Bool

        /// `parts` with each text and port given its number by `text` and `port`.
        init(_ parts: RequestParts, text: (String) -> Int32, port: (Int?) -> Int32) {
            (method, scheme, host, path, query) = (text(parts.method), text(parts.scheme), text(parts.host), text(parts.path), text(parts.queryText))
            (self.port, effectivePort, queryIsEmpty) = (port(parts.port), port(parts.effectivePort), parts.query.isEmpty)
        }
    }

    /// The method, host and path a group of tracks shares; `path` -1 (no path's number) for
    /// the group that shares only method and host.
    struct Place: Hashable, Sendable {
        var method, host: Int32
        var path: Int32 = -1
    }

    /// One per track; a track that is not plain gets a row too, never read.
    private var rows: [Row] = []
    private var plain: [Bool] = []
    /// Positions of the tracks that are not plain, ascending.
    private var odd: [Int] = []
    private var texts: [String: Int32] = [:]
    private var ports: [Int?: Int32] = [:]
    /// Tracks by their (method, host) and (method, host, path), ascending.
    private var byMethodHost: [Place: [Int32]] = [:]
    private var byMethodHostPath: [Place: [Int32]] = [:]

    init(parts: [RequestParts]) {
        rows.reserveCapacity(parts.count)
        plain.reserveCapacity(parts.count)
        for trackParts in parts { append(trackParts) }
    }

    /// Adds the next track (a newly recorded one) at the end.
    mutating func append(_ parts: RequestParts) {
        let position = Int32(rows.count)
        let row = Row(parts, text: { Self.number($0, in: &texts) }, port: { Self.number($0, in: &ports) })
        rows.append(row)
        plain.append(parts.hasPlainAuthority)
        guard parts.hasPlainAuthority else {
            odd.append(Int(position))
            return
        }
        byMethodHost[Place(method: row.method, host: row.host), default: []].append(position)
        byMethodHostPath[Place(method: row.method, host: row.host, path: row.path), default: []].append(position)
    }

    /// The number of `key` in `table`, the next one if it has none yet.
    private static func number<Key: Hashable>(_ key: Key, in table: inout [Key: Int32]) -> Int32 {
        if let known = table[key] { return known }
        table[key] = Int32(table.count)
        return Int32(table.count - 1)
    }

    /// The tracks sharing the method, host and path of the track at `position`, itself included,
    /// ascending; nil for a track that is not plain.
    func tracks(sharingMethodHostPathWith position: Int) -> [Int32]? {
        guard plain[position] else { return nil }
        let row = rows[position]
        return byMethodHostPath[Place(method: row.method, host: row.host, path: row.path)]
    }

    /// The judges' weights per part; judges on headers, bodies and custom rules stay matchers.
    struct Weights {
        var method = 0, scheme = 0, host = 0, port = 0, path = 0, query = 0, url = 0
        var unindexed: [(matcher: Matcher, weight: Int)] = []
        var unindexedTotal = 0

        init(_ judges: [(matcher: Matcher, weight: Int)]) {
            for (matcher, weight) in judges {
                switch matcher.kind {
                case .method: method += weight
                case .scheme: scheme += weight
                case .host: host += weight
                case .port: port += weight
                case .path: path += weight
                case .query(let ignoring) where ignoring.isEmpty: query += weight
                case .url: url += weight
                // A query with parameters left out compares more than the query text.
                case .query, .headers, .allHeaders, .body, .graphQL, .custom:
                    unindexed.append((matcher, weight))
                    unindexedTotal += weight
                }
            }
        }

        var total: Int { method + scheme + host + port + path + query + url + unindexedTotal }
    }

    /// The position of the nearest track to `live`, as `MissReport.nearestByScan` ranks them.
    func nearest(
        to live: Track.Request, parts liveParts: RequestParts, in tracks: [Track], parts: [RequestParts],
        judges: [(matcher: Matcher, weight: Int)]
    ) -> Int? {
        guard !tracks.isEmpty else { return nil }
        guard liveParts.hasPlainAuthority else {
            return MissReport.nearestByScan(to: live, parts: liveParts, in: tracks, parts: parts, judges: judges)
        }
        // A part no track has gets -1, which equals nothing.
        let liveRow = Row(liveParts, text: { texts[$0] ?? -1 }, port: { ports[$0] ?? -1 })
        let ranking = Ranking(
            index: self, live: live, liveParts: liveParts, liveRow: liveRow, tracks: tracks, parts: parts,
            judges: judges, weights: Weights(judges))
        let plainCount = rows.count - odd.count
        let weights = ranking.weights
        // Narrowest first; a tier is enough when no track outside it could rank higher. Such a
        // track differs in a part the tier shares and loses that part's weight, and for host
        // and path the URL's too (two plain URLs with different hosts or paths differ).
        let (methodLoss, hostLoss, pathLoss) = (weights.method, weights.host + weights.url, weights.path + weights.url)
        for (candidates, loss) in [
            (byMethodHostPath[Place(method: liveRow.method, host: liveRow.host, path: liveRow.path)], min(methodLoss, hostLoss, pathLoss)),
            (byMethodHost[Place(method: liveRow.method, host: liveRow.host)], min(methodLoss, hostLoss)),
        ] {
            guard let candidates else { continue }
            let best = ranking.best(among: candidates)
            if let best, candidates.count == plainCount || ranking.outranksEveryTrack(losing: loss, best) { return best.index }
        }
        return ranking.best(among: nil)?.index
    }

    /// One miss's ranking: the live request and the judges, against the tracks.
    private struct Ranking {
        let index: NearestTrackIndex
        let live: Track.Request
        let liveParts: RequestParts
        let liveRow: Row
        let tracks: [Track]
        let parts: [RequestParts]
        let judges: [(matcher: Matcher, weight: Int)]
        let weights: Weights

        struct Best {
            var index: Int
            var score: Int
            /// Every track before `index` was a candidate, so none outside can come first on a tie.
            var candidatesBefore: Bool
        }

        /// The highest-scoring of `candidates` (nil: every plain track) and the tracks that are
        /// not plain, the first of equals.
        func best(among candidates: [Int32]?) -> Best? {
            var best: Best?
            var seen = 0
            var oddPosition = 0
            func consider(_ position: Int) {
                let score: Int
                if index.plain[position] {
                    let partial = partsScore(index.rows[position])
                    // Headers, bodies and custom rules cost the most: only when they could make the difference.
                    if let best, partial + weights.unindexedTotal <= best.score {
                        seen += 1
                        return
                    }
                    score = partial + MissReport.score(of: tracks[position].request, parts[position], against: live, liveParts, judges: weights.unindexed)
                } else {
                    score = MissReport.score(of: tracks[position].request, parts[position], against: live, liveParts, judges: judges)
                }
                if best == nil || score > best!.score { best = Best(index: position, score: score, candidatesBefore: seen == position) }
                seen += 1
            }
            // Candidates and odd tracks merged in track order, so the first of equals wins.
            let odd = index.odd
            func considerOdd(before limit: Int) {
                while oddPosition < odd.count, odd[oddPosition] < limit {
                    consider(odd[oddPosition])
                    oddPosition += 1
                }
            }
            if let candidates {
                for candidate in candidates.lazy.map(Int.init) {
                    considerOdd(before: candidate)
                    consider(candidate)
                }
                considerOdd(before: .max)
            } else {
                for position in index.rows.indices { consider(position) }
            }
            return best
        }

        /// What a plain track scores on the method and URL parts.
        @inline(__always)
        func partsScore(_ row: Row) -> Int {
            let scheme = row.scheme == liveRow.scheme, host = row.host == liveRow.host, path = row.path == liveRow.path
            let query = row.query == liveRow.query
            var score = 0
            if row.method == liveRow.method { score += weights.method }
            if scheme { score += weights.scheme }
            if host { score += weights.host }
            if path { score += weights.path }
            if query { score += weights.query }
            if row.effectivePort == liveRow.effectivePort { score += weights.port }
            // RequestParts.hasSameURLText for two plain URLs.
            if scheme, host, path, query, row.port == liveRow.port, row.queryIsEmpty == liveRow.queryIsEmpty { score += weights.url }
            return score
        }

        /// Whether `best` ranks above every plain track that loses at least `loss` of the weight.
        func outranksEveryTrack(losing loss: Int, _ best: Best) -> Bool {
            let highest = weights.total - loss
            return best.score > highest || (best.score == highest && best.candidatesBefore)
        }
    }
}
