import Foundation

/// Which track answers a request, as the matching strategy says: the one place the strategy's
/// kind is switched on. It holds what choosing needs: the tracks' index (which keeps which
/// have played) and the position in track order.
struct TrackSelector: Sendable {
    let strategy: MatchingStrategy
    /// No strategy was given: it follows the vinyl (`MatchingStrategy.chosen(for:)`).
    let strategyFollowsVinyl: Bool
    /// The strategy chooses by the index key alone, which `RequestParts(keyOnly:)` can make.
    private let takesKeyOnlyParts: Bool
    var index: TrackIndex
    var nextInOrder = 0

    /// A selector over `vinyl`'s tracks, with `strategy` or else the vinyl's own.
    init(_ vinyl: Vinyl, strategy: MatchingStrategy?) {
        self.strategy = strategy ?? .chosen(for: vinyl)
        strategyFollowsVinyl = strategy == nil
        index = TrackIndex(tracks: vinyl.tracks, matchers: self.strategy.matchers)
        if case .attributes = self.strategy.mode { takesKeyOnlyParts = index.keysOnURLText } else { takesKeyOnlyParts = false }
    }

    /// The track that answers `live`, taken: in track order the position moves on. The caller
    /// marks it played (`index.setPlayed`). Nil when none matches.
    mutating func select(_ live: Track.Request, parts: RequestParts) -> Int? { find(live, parts: parts, taking: true) }

    /// A track that would answer `live` now, taking nothing: whether a redirect's target can be
    /// followed, and what a URLProtocol will hand over. For a repeated request, its first
    /// occurrence (they share the request; `select` picks among them).
    mutating func peek(_ live: Track.Request, parts: RequestParts) -> Int? { find(live, parts: parts, taking: false) }

    /// `select` when `taking`, else `peek`: they differ only in what taking moves on.
    private mutating func find(_ live: Track.Request, parts: RequestParts, taking: Bool) -> Int? {
        if parts.isKeyOnly, !takesKeyOnlyParts { return find(live, parts: RequestParts(live), taking: taking) }
        switch strategy.mode {
        case .attributes(_, let playOnce):
            // Identical requests get their recorded occurrences in order; once all have played,
            // the last repeats, or, playing each once, the request misses.
            if taking, !playOnce { return index.nextOccurrence(for: live, parts: parts) }
            return index.firstMatch(for: live, parts: parts, skippingPlayed: playOnce)
        case .trackOrder:
            guard let position = inOrder(live, parts: parts) else { return nil }
            if taking { nextInOrder += 1 }
            return position
        case .dvr(let dvr):
            return dvr.select(from: index.allMatches(for: live, parts: parts), live: live, tracks: index.tracks)
        }
    }

    /// The next track in order, when the strategy's checks pass for `live`.
    private func inOrder(_ live: Track.Request, parts: RequestParts) -> Int? {
        guard case .trackOrder(let checking) = strategy.mode, nextInOrder < index.tracks.count else { return nil }
        let position = nextInOrder
        let recorded = index.tracks[position].request
        return checking.allSatisfy { $0.matches(live: live, liveParts: parts, recorded: recorded, recordedParts: index.parts[position]) } ? position : nil
    }

    /// Why no track answered `live`: the nearest track as the strategy sees it, and how it differs.
    func missReport(for live: Track.Request, vinylName: String, vinylPath: String?) -> MissReport {
        var description = strategy.description
        if strategyFollowsVinyl, case .dvr = strategy.mode {
            description += ", chosen for a DVR cassette (pass matching: to choose another)"
        }
        var report = MissReport(request: live, vinylName: vinylName, vinylPath: vinylPath, strategy: description, differences: [])
        let nearest: (index: Int, differences: [String])?
        switch strategy.mode {
        case .trackOrder(let checking):
            let position = nextInOrder
            if position >= index.tracks.count {
                report.note = "all \(index.tracks.count) tracks have been played in order; this is request #\(position + 1)"
                return report
            }
            nearest = (position, MissReport.differences(between: live, RequestParts(live), and: index.tracks[position].request, index.parts[position], matchers: checking))
        case .attributes(let matchers, let playOnce):
            nearest = index.nearest(to: live, matchers: matchers)
            if let nearest, nearest.differences.isEmpty && playOnce && index.played[nearest.index] {
                report.note = "track #\(nearest.index) matches but has already been played, and each track plays once"
            }
        case .dvr(let dvr):
            nearest = index.nearest(to: live, matchers: dvr.matchers).map {
                ($0.index, DVRMatching.differences(live: live, recorded: index.tracks[$0.index].request, parametersToIgnore: dvr.parametersToIgnore))
            }
        }
        if let nearest {
            report.nearestTrackIndex = nearest.index
            report.nearestRequest = index.tracks[nearest.index].request
            report.differences = nearest.differences
        }
        return report
    }
}
