import Gramophone

/// Something a test's vinyl found wrong when the test ended, reported as a test failure.
public struct VinylProblem: Sendable, CustomStringConvertible {
    /// What kind of problem.
    public enum Kind: Sendable, Equatable {
        /// A request no track matched (it may have been swallowed by the code under test).
        case miss
        /// Tracks never played while every track had to play.
        case unplayedTracks
        /// The recordings could not be saved.
        case notSaved
    }

    /// What went wrong.
    public var kind: Kind
    /// The full text shown in the test failure.
    public var message: String
    /// The miss, for `.miss`.
    public var missReport: MissReport?

    public var description: String { message }

    static func miss(_ report: MissReport) -> VinylProblem {
        VinylProblem(kind: .miss, message: "Gramophone: the code under test made a request the vinyl does not have.\n" + report.description, missReport: report)
    }

    static func unplayed(_ positions: [Int], unfinished: [UnfinishedConversation] = [], of vinyl: Vinyl, file: String) -> VinylProblem {
        var lines: [String] = []
        // Under `header`, the first 20 tracks at `tracks`, each with its `detail` (by place in
        // `tracks`), then how many more there are.
        func list(_ header: String, _ tracks: [Int], detail: (Int) -> String = { _ in "" }) {
            guard !tracks.isEmpty else { return }
            lines.append(header)
            for (offset, track) in tracks.prefix(20).enumerated() where track < vinyl.tracks.count {
                let request = vinyl.tracks[track].request
                lines.append("  track #\(track): \(request.method) \(request.url.absoluteString)" + detail(offset))
            }
            if tracks.count > 20 { lines.append("  … and \(tracks.count - 20) more") }
        }
        list("Gramophone: \(positions.count) of \(vinyl.tracks.count) tracks of vinyl \"\(vinyl.name)\" (\(file)) were never played, and this test requires every track to play:", positions)
        // A conversation whose code sent fewer messages than recorded did not play all of it.
        let count = unfinished.count
        list(
            "Gramophone: \(count) WebSocket conversation\(count == 1 ? "" : "s") of vinyl \"\(vinyl.name)\" (\(file)) \(count == 1 ? "was" : "were") replayed with fewer messages sent than recorded, and this test requires every track to play:",
            unfinished.map(\.track)
        ) { ": \(unfinished[$0].sent) of \(unfinished[$0].recorded) client messages sent" }
        lines.append("  To fix: make the requests and send the messages the test expects, remove the track from the vinyl (or record it again), or drop allTracksMustPlay.")
        return VinylProblem(kind: .unplayedTracks, message: lines.joined(separator: "\n"))
    }

    static func notSaved(_ error: any Error, name: String) -> VinylProblem {
        VinylProblem(kind: .notSaved, message: "Gramophone: the recordings of vinyl \"\(name)\" could not be saved: \(error)")
    }
}
