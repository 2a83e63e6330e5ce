import Foundation
import Gramophone
import GramophoneTesting
import Testing

/// `Recording.reRecordAfter` through the trait: on CI a stale vinyl replays and the test gets
/// one warning-severity issue, which does not fail it.
@Suite struct StaleVinylTests {
    @Test func aStaleVinylOnCIIsAWarningAndStillReplays() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = URL(string: "https://api.example.com/users/1")!
        try Vinyl(
            name: "stale",
            tracks: [
                Track(
                    request: Track.Request(url: url), outcome: .response(Track.Response(headers: ["Content-Type": "text/plain"], body: Data("Ada".utf8))),
                    recordedAt: Date(timeIntervalSinceNow: -40 * 86_400))
            ]
        ).write(to: folder.appendingPathComponent("stale.json"))
        let configuration = VinylConfiguration(store: .folder(folder), recording: Recording(reRecordAfter: 30 * 86_400, environment: ["CI": "true"]))

        try await withKnownIssue {
            try await withVinyl("stale", configuration: configuration) {
                let turntable = try #require(Turntable.current)
                #expect(try await turntable.data(from: url).0 == Data("Ada".utf8))
                #expect(turntable.playback.staleness?.isReRecorded == false)
                #expect(turntable.playback.recordedCount == 0)
            }
        } matching: { issue in
            issue.severity == .warning && issue.comments.contains { $0.rawValue.contains("vinyl \"stale\"") && $0.rawValue.contains("is stale: recorded 40 days ago") }
        }
    }
}
