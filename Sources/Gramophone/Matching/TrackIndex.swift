/// Tracks grouped by the key of the strategy's matchers: the canonical text each compares
/// (normalised URL parts, header values, a body by its content type, GraphQL operations).
///
/// A lookup hashes the live request's key and checks only that bucket, so its cost does not
/// grow with the vinyl. Custom matchers, which the key cannot answer, are checked within the
/// bucket, in track order.
struct TrackIndex: Sendable {
    private(set) var tracks: [Track]
    private(set) var parts: [RequestParts]
    /// Which tracks have played: occurrences answer in order, and a play-once strategy skips
    /// them. Changed only through `setPlayed(_:_:)`, which keeps the buckets' counts.
    private(set) var played: [Bool]
    private let keyed: [Matcher]
    let unkeyed: [Matcher]
    /// The buckets of both kinds, found by key in `keyedBuckets` and `byteBuckets`: a track's
    /// buckets are numbers (`homes`), so a play updates their counts without hashing a key.
    private var buckets: [Bucket] = []
    private var keyedBuckets: [String: Int] = [:]
    /// Tracks by the same key with each body as a digest of its bytes: a body byte-identical to a
    /// recorded one matches whatever each side's `Content-Type` makes of it. The digest keeps the
    /// index from holding a second copy of every body; candidates compare the bytes themselves.
    /// Empty unless bodies are keyed.
    private var byteBuckets: [String: Int] = [:]
    /// Each track's keyed bucket and byte bucket (the same when bodies are not keyed).
    private var homes: [(keyed: Int, bytes: Int)] = []
    /// Tracks not played yet, in all: none, and a repeat needs no search for one.
    private(set) var unplayedCount: Int
    private let keysBodies: Bool
    /// Every matcher is keyed and reads the method, the URL's text or what the request holds,
    /// never the URL's other parts: a lookup needs only `RequestParts(keyOnly:)`.
    let keysOnURLText: Bool
    /// Ranks tracks for miss reports.
    private var nearestIndex: NearestTrackIndex

    struct Bucket: Sendable {
        /// Track positions, ascending.
        var tracks: [Int] = []
        /// Tracks before this position have all been played (play-once bookkeeping).
        var firstUnplayed = 0
        /// How many of `tracks` have not played: none, and a repeat goes straight to the last.
        var unplayed = 0
    }

    init(tracks: [Track], matchers: [Matcher]) {
        self.tracks = tracks
        parts = tracks.map { RequestParts($0.request) }
        played = Array(repeating: false, count: tracks.count)
        unplayedCount = tracks.count
        // `.url` subsumes its parts: keying on both would only cost time.
        let keyable = matchers.filter(\.isIndexable)
        keyed =
            keyable.contains(where: { if case .url = $0.kind { return true } else { return false } })
            ? keyable.filter { !$0.isURLPart }
            : keyable
        unkeyed = matchers.filter { !$0.isIndexable }
        keysBodies = keyed.contains(where: \.readsBody)
        keysOnURLText =
            unkeyed.isEmpty
            && keyed.allSatisfy {
                switch $0.kind {
                case .method, .url, .headers, .allHeaders, .body, .graphQL: return true
                default: return false
                }
            }
        nearestIndex = NearestTrackIndex(parts: parts)
        keyedBuckets.reserveCapacity(tracks.count)
        homes.reserveCapacity(tracks.count)
        for index in tracks.indices { file(index, played: false) }
    }

    /// Puts track `position` (the last so far) into its buckets.
    private mutating func file(_ position: Int, played isPlayed: Bool) {
        let request = tracks[position].request
        let keyedHome = Self.bucket(Self.key(request, parts[position], keyed), in: &keyedBuckets, of: &buckets)
        let byteHome = keysBodies ? Self.bucket(Self.key(request, parts[position], keyed, digestingBodies: true), in: &byteBuckets, of: &buckets) : keyedHome
        homes.append((keyedHome, byteHome))
        buckets[keyedHome].tracks.append(position)
        if !isPlayed { buckets[keyedHome].unplayed += 1 }
        guard byteHome != keyedHome else { return }
        buckets[byteHome].tracks.append(position)
        if !isPlayed { buckets[byteHome].unplayed += 1 }
    }

    /// The number of the bucket filed under `key`, made if there is none.
    private static func bucket(_ key: String, in numbers: inout [String: Int], of buckets: inout [Bucket]) -> Int {
        if let number = numbers[key] { return number }
        numbers[key] = buckets.count
        buckets.append(Bucket())
        return buckets.count - 1
    }

    /// The key of `request`: each matcher's component, joined. Body and header components are
    /// length-prefixed or base64, URL parts hold no U+001F: the joined key splits back one way.
    ///
    /// `digestingBodies` (a byte key): each body component a digest of the body's bytes (their
    /// count and hash). A digest starts with `r`, which no key component of an empty body does
    /// (`""`, or a GET's GraphQL `q…`): the byte bucket of a request without a body holds only
    /// tracks without one and with its key, all in its keyed bucket, so such a request never looks there.
    private static func key(_ request: Track.Request, _ parts: RequestParts, _ matchers: [Matcher], digestingBodies: Bool = false) -> String {
        if matchers.count == 1, !digestingBodies { return matchers[0].keyComponent(request, parts) }
        var key = ""
        // By position: a `Matcher` taken out of the array is a copy, retains and all.
        for position in matchers.indices {
            if position > 0 { key += "\u{1F}" }
            // An empty body is no body: a GET's GraphQL lives in its query, which the key keeps.
            if digestingBodies, matchers[position].readsBody, !request.body.isEmpty {
                var hasher = Hasher()
                hasher.combine(request.body)
                key += "r\(request.body.count):\(hasher.finalize())"
            } else {
                matchers[position].appendKeyComponent(request, parts, to: &key)
            }
        }
        return key
    }

    /// Adds a track at the end (a newly recorded one, `played` when it answered the request
    /// that recorded it) and returns its position.
    mutating func append(_ track: Track, played isPlayed: Bool = false) -> Int {
        let position = tracks.count
        let trackParts = RequestParts(track.request)
        tracks.append(track)
        parts.append(trackParts)
        played.append(isPlayed)
        if !isPlayed { unplayedCount += 1 }
        file(position, played: isPlayed)
        nearestIndex.append(trackParts)
        return position
    }

    /// Marks track `position` played or not (a conversation that moved to another track gives
    /// its first one back), keeping the counts of its buckets.
    mutating func setPlayed(_ position: Int, _ isPlayed: Bool) {
        guard played[position] != isPlayed else { return }
        played[position] = isPlayed
        unplayedCount += isPlayed ? -1 : 1
        let home = homes[position]
        count(position, isPlayed, in: home.keyed)
        if home.bytes != home.keyed { count(position, isPlayed, in: home.bytes) }
    }

    private mutating func count(_ position: Int, _ isPlayed: Bool, in number: Int) {
        buckets[number].unplayed += isPlayed ? -1 : 1
        // A track given back before the bucket's first unplayed one moves that back to it.
        if !isPlayed, let place = Self.place(of: position, in: buckets[number].tracks), place < buckets[number].firstUnplayed {
            buckets[number].firstUnplayed = place
        }
    }

    /// Where `position` is in the ascending `tracks`.
    private static func place(of position: Int, in tracks: [Int]) -> Int? {
        var low = 0, high = tracks.count
        while low < high {
            let middle = (low + high) / 2
            if tracks[middle] < position { low = middle + 1 } else { high = middle }
        }
        return low < tracks.count && tracks[low] == position ? low : nil
    }

    /// The first track that matches, skipping played ones when `skippingPlayed`.
    mutating func firstMatch(for live: Track.Request, parts liveParts: RequestParts, skippingPlayed: Bool) -> Int? {
        if skippingPlayed && unplayedCount == 0 { return nil }
        let key = Self.key(live, liveParts, keyed)
        if let number = keyedBuckets[key], let match = first(in: number, for: live, liveParts, skippingPlayed: skippingPlayed, byBytes: false) {
            return match
        }
        guard let number = byteBucket(for: live, liveParts) else { return nil }
        return first(in: number, for: live, liveParts, skippingPlayed: skippingPlayed, byBytes: true)
    }

    /// The next recorded occurrence of `live`: the first unplayed track that matches (by key,
    /// then by bytes), else (every occurrence played) the last (by key, then by bytes), which
    /// answers the repeats. Each bucket is found once; a repeat, with nothing unplayed left in
    /// its buckets, searches neither for an unplayed track.
    mutating func nextOccurrence(for live: Track.Request, parts liveParts: RequestParts) -> Int? {
        let keyedNumber = keyedBuckets[Self.key(live, liveParts, keyed)]
        if let keyedNumber, let match = first(in: keyedNumber, for: live, liveParts, skippingPlayed: true, byBytes: false) {
            return match
        }
        // The byte key (a hash of the body) is built only when something is left to find with it.
        let byteNumber = unplayedCount > 0 ? byteBucket(for: live, liveParts) : nil
        if let byteNumber, let match = first(in: byteNumber, for: live, liveParts, skippingPlayed: true, byBytes: true) {
            return match
        }
        if let keyedNumber, let last = last(in: keyedNumber, for: live, liveParts, byBytes: false) { return last }
        guard let number = unplayedCount > 0 ? byteNumber : byteBucket(for: live, liveParts) else { return nil }
        return last(in: number, for: live, liveParts, byBytes: true)
    }

    /// The byte bucket `live` may find more tracks in than in its keyed one: none without a body.
    private func byteBucket(for live: Track.Request, _ liveParts: RequestParts) -> Int? {
        guard keysBodies, !live.body.isEmpty else { return nil }
        return byteBuckets[Self.key(live, liveParts, keyed, digestingBodies: true)]
    }

    /// Whether track `candidate` of a bucket answers `live`: the custom matchers agree, and a
    /// byte bucket's bodies are equal (equal digests of unequal bodies are told apart here).
    private func answers(_ candidate: Int, _ live: Track.Request, _ liveParts: RequestParts, byBytes: Bool) -> Bool {
        (!byBytes || tracks[candidate].request.body == live.body)
            && unkeyed.allSatisfy { $0.matches(live: live, liveParts: liveParts, recorded: tracks[candidate].request, recordedParts: parts[candidate]) }
    }

    private mutating func first(in number: Int, for live: Track.Request, _ liveParts: RequestParts, skippingPlayed: Bool, byBytes: Bool) -> Int? {
        guard skippingPlayed else { return buckets[number].tracks.first { answers($0, live, liveParts, byBytes: byBytes) } }
        guard buckets[number].unplayed > 0 else { return nil }
        let candidates = buckets[number].tracks
        var start = buckets[number].firstUnplayed
        while start < candidates.count, played[candidates[start]] { start += 1 }
        buckets[number].firstUnplayed = start
        for candidate in candidates[start...] where !played[candidate] && answers(candidate, live, liveParts, byBytes: byBytes) {
            return candidate
        }
        return nil
    }

    /// The last track of the bucket that matches: once every recorded occurrence of a request
    /// has played, the last one answers the repeats.
    private func last(in number: Int, for live: Track.Request, _ liveParts: RequestParts, byBytes: Bool) -> Int? {
        buckets[number].tracks.last { answers($0, live, liveParts, byBytes: byBytes) }
    }

    /// Every track that matches, in track order: DVR's strategy chooses among them.
    func allMatches(for live: Track.Request, parts liveParts: RequestParts) -> [Int] {
        guard let number = keyedBuckets[Self.key(live, liveParts, keyed)] else { return [] }
        return buckets[number].tracks.filter { answers($0, live, liveParts, byBytes: false) }
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
