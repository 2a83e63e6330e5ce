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
        keyed = keyable.contains(where: { if case .url = $0.kind { return true } else { return false } })
            ? keyable.filter { !$0.isURLPart }
            : keyable
        unkeyed = matchers.filter { !$0.isIndexable }
        var buckets: [String: Bucket] = [:]
        buckets.reserveCapacity(tracks.count)
        for index in tracks.indices {
            buckets[Self.key(tracks[index].request, parts[index], keyed), default: Bucket(tracks: [])].tracks.append(index)
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

    /// Adds a track at the end (a newly recorded one) and returns its position.
    mutating func append(_ track: Track) -> Int {
        let position = tracks.count
        let trackParts = RequestParts(track.request)
        tracks.append(track)
        parts.append(trackParts)
        buckets[Self.key(track.request, trackParts, keyed), default: Bucket(tracks: [])].tracks.append(position)
        nearestIndex.append(trackParts)
        return position
    }

    /// The first track that matches, skipping played ones when `played` is given.
    mutating func firstMatch(for live: Track.Request, parts liveParts: RequestParts, played: [Bool]?) -> Int? {
        let key = Self.key(live, liveParts, keyed)
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

    /// The track nearest to `live` for a miss report, and how it differs on `matchers`.
    func nearest(to live: Track.Request, matchers: [Matcher]) -> (index: Int, differences: [String])? {
        let liveParts = RequestParts(live)
        guard let index = nearestIndex.nearest(to: live, parts: liveParts, in: tracks, parts: parts, judges: MissReport.judges(for: matchers)) else { return nil }
        return (index, MissReport.differences(between: live, liveParts, and: tracks[index].request, parts[index], matchers: matchers))
    }
}
