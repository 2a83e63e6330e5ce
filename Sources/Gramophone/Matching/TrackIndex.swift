/// Tracks grouped by the key of the strategy's matchers: the canonical text each compares
/// (normalised URL parts, header values, a body by its content type, GraphQL operations).
///
/// A lookup hashes the live request's key and checks only that bucket, so its cost does not
/// grow with the vinyl. Custom matchers, which the key cannot answer, are checked within the
/// bucket, in track order.
struct TrackIndex: Sendable {
    private(set) var tracks: [Track]
    private(set) var parts: [RequestParts]
    private let keyed: [Matcher]
    let unkeyed: [Matcher]
    private var buckets: [String: Bucket]
    /// Tracks by the same key with each body as a digest of its bytes: a body byte-identical to a
    /// recorded one matches whatever each side's `Content-Type` makes of it. The digest keeps the
    /// index from holding a second copy of every body; candidates compare the bytes themselves.
    /// Empty unless bodies are keyed.
    private var byteBuckets: [String: [Int]] = [:]
    private let keysBodies: Bool
    /// Ranks tracks for miss reports.
    private var nearestIndex: NearestTrackIndex

    struct Bucket: Sendable {
        var tracks: [Int]
        /// Tracks before this position have all been played (play-once bookkeeping).
        var firstUnplayed = 0
    }

    init(tracks: [Track], matchers: [Matcher]) {
        self.tracks = tracks
        parts = tracks.map { RequestParts($0.request) }
        // `.url` subsumes its parts: keying on both would only cost time.
        let keyable = matchers.filter(\.isIndexable)
        keyed =
            keyable.contains(where: { if case .url = $0.kind { return true } else { return false } })
            ? keyable.filter { !$0.isURLPart }
            : keyable
        unkeyed = matchers.filter { !$0.isIndexable }
        keysBodies = keyed.contains(where: \.readsBody)
        var buckets: [String: Bucket] = [:]
        buckets.reserveCapacity(tracks.count)
        for index in tracks.indices {
            buckets[Self.key(tracks[index].request, parts[index], keyed), default: Bucket(tracks: [])].tracks.append(index)
            if keysBodies { byteBuckets[Self.byteKey(tracks[index].request, parts[index], keyed), default: []].append(index) }
        }
        self.buckets = buckets
        nearestIndex = NearestTrackIndex(parts: parts)
    }

    private static func key(_ request: Track.Request, _ parts: RequestParts, _ matchers: [Matcher]) -> String {
        switch matchers.count {
        case 0: return ""
        case 1: return matchers[0].keyComponent(request, parts)
        // Body and header components are length-prefixed or base64, URL parts hold no U+001F:
        // the joined key splits back one way.
        default:
            var key = ""
            for (position, matcher) in matchers.enumerated() {
                if position > 0 { key += "\u{1F}" }
                matcher.appendKeyComponent(request, parts, to: &key)
            }
            return key
        }
    }

    /// `key` with each body component a digest of the body's bytes (their count and hash).
    private static func byteKey(_ request: Track.Request, _ parts: RequestParts, _ matchers: [Matcher]) -> String {
        var key = ""
        for (position, matcher) in matchers.enumerated() {
            if position > 0 { key += "\u{1F}" }
            // An empty body is no body: a GET's GraphQL lives in its query, which the key keeps.
            if matcher.readsBody, !request.body.isEmpty {
                var hasher = Hasher()
                hasher.combine(request.body)
                key += "r\(request.body.count):\(hasher.finalize())"
            } else {
                matcher.appendKeyComponent(request, parts, to: &key)
            }
        }
        return key
    }

    /// `live`'s byte key, given its `key`: the key itself when there is no body to digest.
    private func byteKey(_ live: Track.Request, _ liveParts: RequestParts, key: String) -> String {
        live.body.isEmpty ? key : Self.byteKey(live, liveParts, keyed)
    }

    /// Adds a track at the end (a newly recorded one) and returns its position.
    mutating func append(_ track: Track) -> Int {
        let position = tracks.count
        let trackParts = RequestParts(track.request)
        tracks.append(track)
        parts.append(trackParts)
        buckets[Self.key(track.request, trackParts, keyed), default: Bucket(tracks: [])].tracks.append(position)
        if keysBodies { byteBuckets[Self.byteKey(track.request, trackParts, keyed), default: []].append(position) }
        nearestIndex.append(trackParts)
        return position
    }

    /// The first track that matches, skipping played ones when `played` is given.
    mutating func firstMatch(for live: Track.Request, parts liveParts: RequestParts, played: [Bool]?) -> Int? {
        firstMatch(for: live, parts: liveParts, played: played, key: Self.key(live, liveParts, keyed))
    }

    /// The next recorded occurrence of `live`: the first unplayed track that matches, else
    /// (every occurrence played) the last, which answers the repeats. One key for both lookups.
    mutating func nextOccurrence(for live: Track.Request, parts liveParts: RequestParts, played: [Bool]) -> Int? {
        let key = Self.key(live, liveParts, keyed)
        // Every call of a replayed repeat takes both lookups: the byte key is built once, and
        // for a request without a body it is the key itself (a digest stands only for a body).
        let byteKey = keysBodies ? byteKey(live, liveParts, key: key) : nil
        return firstMatch(for: live, parts: liveParts, played: played, key: key, byteKey: byteKey)
            ?? lastMatch(for: live, parts: liveParts, key: key, byteKey: byteKey)
    }

    private mutating func firstMatch(for live: Track.Request, parts liveParts: RequestParts, played: [Bool]?, key: String, byteKey: String? = nil) -> Int? {
        if let match = firstKeyedMatch(for: live, parts: liveParts, played: played, key: key) { return match }
        guard keysBodies, let candidates = byteBuckets[byteKey ?? self.byteKey(live, liveParts, key: key)] else { return nil }
        return candidates.first { candidate in
            played?[candidate] != true
                // Equal digests of unequal bodies are told apart here.
                && (live.body.isEmpty || tracks[candidate].request.body == live.body)
                && unkeyed.allSatisfy { $0.matches(live: live, liveParts: liveParts, recorded: tracks[candidate].request, recordedParts: parts[candidate]) }
        }
    }

    private mutating func firstKeyedMatch(for live: Track.Request, parts liveParts: RequestParts, played: [Bool]?, key: String) -> Int? {
        guard let bucketIndex = buckets.index(forKey: key) else { return nil }
        var bucket = buckets.values[bucketIndex]
        if let played {
            while bucket.firstUnplayed < bucket.tracks.count, played[bucket.tracks[bucket.firstUnplayed]] {
                bucket.firstUnplayed += 1
            }
            buckets.values[bucketIndex].firstUnplayed = bucket.firstUnplayed
        }
        let start = played == nil ? 0 : bucket.firstUnplayed
        for position in start..<bucket.tracks.count {
            let candidate = bucket.tracks[position]
            if let played, played[candidate] { continue }
            if unkeyed.allSatisfy({ $0.matches(live: live, liveParts: liveParts, recorded: tracks[candidate].request, recordedParts: parts[candidate]) }) {
                return candidate
            }
        }
        return nil
    }

    /// The last track that matches: once every recorded occurrence of a request has played,
    /// the last one answers the repeats.
    private func lastMatch(for live: Track.Request, parts liveParts: RequestParts, key: String, byteKey: String?) -> Int? {
        let agrees = { (candidate: Int) in
            unkeyed.allSatisfy { $0.matches(live: live, liveParts: liveParts, recorded: tracks[candidate].request, recordedParts: parts[candidate]) }
        }
        if let bucket = buckets[key], let last = bucket.tracks.last(where: agrees) { return last }
        guard keysBodies, let candidates = byteBuckets[byteKey ?? self.byteKey(live, liveParts, key: key)] else { return nil }
        return candidates.last { (live.body.isEmpty || tracks[$0].request.body == live.body) && agrees($0) }
    }

    /// Every track that matches, in track order: DVR's strategy chooses among them.
    func allMatches(for live: Track.Request, parts liveParts: RequestParts) -> [Int] {
        guard let bucket = buckets[Self.key(live, liveParts, keyed)] else { return [] }
        return bucket.tracks.filter { candidate in
            unkeyed.allSatisfy { $0.matches(live: live, liveParts: liveParts, recorded: tracks[candidate].request, recordedParts: parts[candidate]) }
        }
    }

    /// The track nearest to `live` for a miss report, and how it differs on `matchers`.
    func nearest(to live: Track.Request, matchers: [Matcher]) -> (index: Int, differences: [String])? {
        let liveParts = RequestParts(live)
        let judges = MissReport.judges(for: matchers)
        guard var index = firstNearest(to: live, parts: liveParts, judges: judges) else { return nil }
        var differences = MissReport.differences(between: live, liveParts, and: tracks[index].request, parts[index], matchers: matchers)
        // Whole matchers tie on a GraphQL or JSON API, where every track shares the method and URL
        // and differs in the body: of the tracks that tie with the first, the one differing in the
        // fewest places explains the miss (a variable, not another operation).
        guard matchers.contains(where: \.comparesContent), Self.placeCount(differences) > 1,
            let ties = nearestIndex.tracks(sharingMethodHostPathWith: index), ties.count > 1
        else { return (index, differences) }
        let score = MissReport.score(of: tracks[index].request, parts[index], against: live, liveParts, judges: judges)
        var fewest = Self.placeCount(differences)
        for candidate in ties.prefix(Self.tiesCompared).map(Int.init) where candidate != index {
            guard MissReport.score(of: tracks[candidate].request, parts[candidate], against: live, liveParts, judges: judges) == score else { continue }
            let candidateDifferences = MissReport.differences(between: live, liveParts, and: tracks[candidate].request, parts[candidate], matchers: matchers)
            let count = Self.placeCount(candidateDifferences)
            if count < fewest {
                (index, differences, fewest) = (candidate, candidateDifferences, count)
                if count <= 1 { break }
            }
        }
        return (index, differences)
    }

    /// The first of the tracks scoring highest with `judges`, as `MissReport.nearestByScan` ranks them.
    func firstNearest(to live: Track.Request, parts liveParts: RequestParts, judges: [(matcher: Matcher, weight: Int)]) -> Int? {
        nearestIndex.nearest(to: live, parts: liveParts, in: tracks, parts: parts, judges: judges)
    }

    /// How many tied tracks a miss compares place by place: a miss stays a few milliseconds
    /// in a vinyl of thousands of one-URL tracks.
    static let tiesCompared = 256

    /// `body: … vs …`: bodies compared whole (another content type, bytes), nothing lines up; a
    /// JSON body is nearer to a JSON body differing in one key than to a multipart upload.
    private static func isWholeBody(_ line: String) -> Bool { line.hasPrefix("body: ") }

    /// The differing places of a miss report, leaving out the lines that only say a place was
    /// ignored; a line saying nothing lines up counts as more than any number of places.
    static func placeCount(_ differences: [String]) -> Int {
        differences.reduce(0) { count, line in
            count + (line.hasSuffix(": ignored") ? 0 : GraphQLRequest.isUnaligned(line) || isWholeBody(line) ? 1_000 : 1)
        }
    }
}
