import Foundation

/// The order a recording Turntable writes its vinyl's tracks in: the order they were recorded, except that
/// tracks whose exchanges overlapped (a burst of concurrent requests) are sorted by method, URL
/// (numbers in it by value: `c9` before `c10`) and body. Which of two concurrent requests went
/// out or came back first is the scheduler's choice; written in that order, every recording of
/// an unchanged API would reorder the file.
///
/// Tracks without a recording date and duration (written by hand, or by another tool) keep
/// their place, as do tracks recorded one after the other; so does the order of tracks the sort
/// cannot tell apart (the same request answered twice).
enum TrackOrder {
    /// Exchanges must overlap by more than this to count as concurrent: a file keeps dates to the
    /// millisecond, so one recorded right after another must not look concurrent once read back.
    static let overlapMargin: TimeInterval = 0.002

    static func arranged(_ tracks: [Track]) -> [Track] {
        order(of: tracks).map { tracks[$0] }
    }

    /// The positions of `tracks` in the order they are written.
    static func order(of tracks: [Track]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(tracks.count)
        var group: [Int] = []
        var groupEnd = Date.distantPast
        func flush() {
            result += group.sorted { precedes(tracks[$0].request, tracks[$1].request) ?? ($0 < $1) }
            group.removeAll()
        }
        for (offset, track) in tracks.enumerated() {
            guard let start = track.recordedAt, let duration = track.duration else {
                flush()
                result.append(offset)
                groupEnd = .distantPast
                continue
            }
            let end = start.addingTimeInterval(duration)
            if group.isEmpty || start.timeIntervalSince(groupEnd) >= -overlapMargin {
                flush()
                groupEnd = end
            } else {
                groupEnd = max(groupEnd, end)
            }
            group.append(offset)
        }
        flush()
        return result
    }

    /// Whether `x` goes before `y`; nil when the sort cannot tell them apart.
    private static func precedes(_ x: Track.Request, _ y: Track.Request) -> Bool? {
        if x.method != y.method { return x.method < y.method }
        let order = x.url.absoluteString.compare(y.url.absoluteString, options: [.numeric, .literal])
        if order != .orderedSame { return order == .orderedAscending }
        if x.body != y.body { return x.body.lexicographicallyPrecedes(y.body) }
        return nil
    }
}
