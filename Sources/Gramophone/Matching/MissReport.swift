import Foundation

/// Why no track answered a request, and the track that came closest.
public struct MissReport: Sendable, Equatable, CustomStringConvertible {
    /// The request that found no track.
    public var request: Track.Request
    /// The vinyl's name.
    var vinylName: String
    /// The vinyl's file, when it came from one.
    var vinylPath: String?
    /// How tracks were being matched.
    var strategy: String
    /// The position of the closest track in the vinyl, if the vinyl has tracks.
    public var nearestTrackIndex: Int?
    /// The closest track's request.
    var nearestRequest: Track.Request?
    /// One line per differing field, e.g. `query: page=2 vs page=1` (live value first).
    public var differences: [String]
    /// Extra explanation, e.g. that the matching track was already played.
    var note: String?

    public var description: String {
        var lines = ["No track in vinyl \"\(vinylName)\"\(vinylPath.map { " (\($0))" } ?? "") matches \(request.method) \(request.url.absoluteString)"]
        lines.append("  matching by: \(strategy)")
        if let nearestTrackIndex, let nearestRequest {
            lines.append("  nearest track #\(nearestTrackIndex): \(nearestRequest.method) \(nearestRequest.url.absoluteString)")
            for difference in differences { lines.append("    " + difference) }
        } else {
            lines.append("  the vinyl has no tracks")
        }
        if let note { lines.append("  " + note) }
        let target = vinylPath ?? "the vinyl"
        lines.append("  To fix: record it (GRAMOPHONE_RECORD_MODE=new_episodes, or Recording(mode: .newEpisodes)), add a track for it to \(target), or loosen the matching strategy.")
        return lines.joined(separator: "\n")
    }

    /// Scores every track against the live request. Runs only on a miss, so a scan is fine.
    static func nearest(to live: Track.Request, in tracks: [Track], parts: [RequestParts], matchers: [Matcher]) -> (index: Int, differences: [String])? {
        guard !tracks.isEmpty else { return nil }
        let liveParts = RequestParts(live)
        // Judge closeness on the strategy's matchers and on the URL's parts, so even a
        // method-only strategy shows what else differs.
        let judges = matchers + [.method, .host, .path, .query]
        var best: (index: Int, score: Int)?
        for index in tracks.indices {
            var score = 0
            let recorded = tracks[index].request, recordedParts = parts[index] // one copy per track, not per judge
            for (position, judge) in judges.enumerated() where judge.matches(live: live, liveParts: liveParts, recorded: recorded, recordedParts: recordedParts) {
                // The strategy's own matchers weigh most; method before path before query.
                score += position < matchers.count ? 100 : 10 - min(position - matchers.count, 9)
            }
            if best == nil || score > best!.score { best = (index, score) }
        }
        let index = best!.index
        var differences: [String] = []
        for matcher in matchers {
            if let difference = matcher.difference(live: live, liveParts: liveParts, recorded: tracks[index].request, recordedParts: parts[index]) {
                differences.append(contentsOf: difference.split(separator: "\n").map(String.init))
            }
        }
        return (index, differences)
    }
}
