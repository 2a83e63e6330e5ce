import Foundation

/// Why no track answered a request, and the track that came closest.
public struct MissReport: Sendable, Equatable, CustomStringConvertible {
    /// The request that found no track.
    public package(set) var request: Track.Request
    /// The vinyl's name.
    var vinylName: String
    /// The vinyl's file, when it came from one.
    var vinylPath: String?
    /// How tracks were being matched.
    var strategy: String
    /// The position of the closest track in the vinyl, if the vinyl has tracks.
    public package(set) var nearestTrackIndex: Int?
    /// The closest track's request.
    var nearestRequest: Track.Request?
    /// One line per differing field, e.g. `query: page=2 vs page=1` (live value first).
    public package(set) var differences: [String]
    /// Extra explanation, e.g. that the matching track was already played.
    var note: String?
    /// The file to edit when `vinylPath` is a bundle's built copy: the source it is copied from.
    var sourcePath: String?
    /// The Turntable was made with `recording:`, so a record mode applies to it.
    var records = false
    /// How to record, in the spelling of whoever made the Turntable (a `.vinyl` test's trait);
    /// nil: the Turntable's own (`Turntable.recordAdvice`).
    var recordAdvice: String?
    /// The Turntable's stubs, each with why it passed the request over, in the order tried.
    var stubAttempts: [StubMissReport.Attempt] = []
    /// Set when the miss is a message sent on a replayed WebSocket (Matching/ConversationMiss.swift).
    var conversationMiss: ConversationMiss?

    public var description: String {
        if let conversationMiss { return conversationMiss.lines(for: self).joined(separator: "\n") }
        // The source, not a bundle's built copy: the file a person opens.
        var lines = ["No track in vinyl \"\(vinylName)\"\((sourcePath ?? vinylPath).map { " (\($0))" } ?? "") matches \(request.method) \(request.url.absoluteString)"]
        lines.append("  matching by: \(strategy)")
        if let nearestTrackIndex, let nearestRequest {
            lines.append("  nearest track #\(nearestTrackIndex): \(nearestRequest.method) \(nearestRequest.url.absoluteString)")
            for difference in differences { lines.append("    " + difference) }
        } else {
            lines.append("  the vinyl has no tracks")
        }
        if let note { lines.append("  " + note) }
        if !stubAttempts.isEmpty {
            lines.append("  stubs tried first, in order:")
            lines += StubMissReport.lines(for: stubAttempts).map { "    " + $0 }
        }
        lines.append("  To fix: " + advice)
        return lines.joined(separator: "\n")
    }

    /// What to do, for the Turntable that missed: only what works for it.
    var advice: String {
        var ways: [String] = []
        if let file = sourcePath ?? vinylPath {
            // GRAMOPHONE_RECORD_MODE does nothing for a Turntable made without recording:.
            ways.append(
                recordAdvice
                    ?? (records
                        ? "record it (GRAMOPHONE_RECORD_MODE=new_episodes, or Recording(mode: .newEpisodes))"
                        : "record it (pass recording: Recording(mode: .newEpisodes) to Turntable(vinylNamed:) and run the test once)"))
            ways.append("add a track for it to \(file)")
        } else {
            // A vinyl built in code has no file to record into or to edit.
            ways.append("add a track for it to the vinyl")
        }
        if !stubAttempts.isEmpty {
            ways.append("fix the stub that should answer it (tried above)")
        } else if vinylPath == nil {
            ways.append("add a stub that matches it (turntable.stubs.add(…))")
        }
        if let place = bodyPlaceToIgnore {
            // The default compares bodies: say how to leave out what varies, or bodies altogether.
            ways.append("leave what varies out (matching: [.method, .url, .body(ignoring: [\"\(place)\"])]), or match without bodies (matching: [.method, .url])")
        } else if !differences.isEmpty, differences.allSatisfy(Self.isBodyDifference) {
            ways.append("match without bodies (matching: [.method, .url])")
        } else {
            ways.append("loosen the matching strategy")
        }
        return ways.dropLast().joined(separator: ", ") + ", or " + ways[ways.count - 1] + "."
    }

    /// A line of `.body`'s differences: `body.items[2].id: 3 vs 4`, `body form field "q": …`,
    /// `multipart part "nonce": …`, `body: … vs …`.
    private static func isBodyDifference(_ line: String) -> Bool {
        line.hasPrefix("body") || line.hasPrefix("multipart ")
    }

    /// When only the body differs, the first place `.body(ignoring:)` can name: a JSON key path
    /// (array positions as `[]`), a form field or a multipart part.
    var bodyPlaceToIgnore: String? {
        guard !differences.isEmpty, differences.allSatisfy(Self.isBodyDifference), let first = differences.first else { return nil }
        if first.hasPrefix("body."), let colon = first.range(of: ": ") {
            var path = String(first[first.index(first.startIndex, offsetBy: 5)..<colon.lowerBound])
            path = path.replacingOccurrences(of: #"\[[0-9]+\]"#, with: "[]", options: .regularExpression)
            return path.isEmpty ? nil : path
        }
        for prefix in [#"body form field ""#, #"multipart part ""#] where first.hasPrefix(prefix) {
            let name = first.dropFirst(prefix.count).prefix { $0 != "\"" }
            return name.isEmpty ? nil : String(name)
        }
        return nil
    }

    /// What a miss report ranks tracks on, and what agreeing on each is worth: the strategy's
    /// own matchers most, then method before host before path before query, so even a
    /// method-only strategy shows what else differs.
    static func judges(for matchers: [Matcher]) -> [(matcher: Matcher, weight: Int)] {
        matchers.map { ($0, 100) } + [(.method, 10), (.host, 9), (.path, 8), (.query, 7)]
    }

    /// The weight of the judges on which `recorded` agrees with `live`.
    static func score(
        of recorded: Track.Request, _ recordedParts: RequestParts, against live: Track.Request, _ liveParts: RequestParts,
        judges: [(matcher: Matcher, weight: Int)]
    ) -> Int {
        judges.reduce(0) { $1.matcher.matches(live: live, liveParts: liveParts, recorded: recorded, recordedParts: recordedParts) ? $0 + $1.weight : $0 }
    }

    /// The nearest track by judging every one: the highest score, the first of equals.
    /// `NearestTrackIndex` gives the same answer without judging them all.
    static func nearestByScan(
        to live: Track.Request, parts liveParts: RequestParts, in tracks: [Track], parts: [RequestParts],
        judges: [(matcher: Matcher, weight: Int)]
    ) -> Int? {
        var best: (index: Int, score: Int)?
        for index in tracks.indices {
            let score = score(of: tracks[index].request, parts[index], against: live, liveParts, judges: judges)
            if best == nil || score > best!.score { best = (index, score) }
        }
        return best?.index
    }

    /// One line per differing field of the strategy's matchers.
    static func differences(
        between live: Track.Request, _ liveParts: RequestParts, and recorded: Track.Request, _ recordedParts: RequestParts,
        matchers: [Matcher]
    ) -> [String] {
        matchers.flatMap { matcher in
            matcher.difference(live: live, liveParts: liveParts, recorded: recorded, recordedParts: recordedParts)?.split(separator: "\n").map(String.init) ?? []
        }
    }
}
