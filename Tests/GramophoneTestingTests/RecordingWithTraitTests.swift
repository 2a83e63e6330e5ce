import Foundation
import Gramophone
import GramophoneTesting
import Testing
import GramophoneTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `.vinyl` trait recording against the local httpbin in new-episodes mode, then the
/// same vinyl replayed with recording off and a session that reaches nothing.
@Suite(.enabled(if: HTTPBin.isAvailable),
       .vinyl(store: .folder(RecordingFolder.root), record: .newEpisodes, recording: Recording(environment: [:])))
struct RecordingWithTraitTests {
    /// The replay side: recording off, and no network even if it were on.
    static let offline = VinylConfiguration(store: .folder(RecordingFolder.root), record: .never, recording: Recording(session: NoNetwork(), environment: [:]))

    @Test func recordsInNewEpisodesModeThenReplaysTheSameBytesOffline() async throws {
        let turntable = try #require(Turntable.current)
        let uuidURL = try HTTPBin.baseURL().appendingPathComponent("uuid")
        let (recorded, response) = try await turntable.data(from: uuidURL)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(turntable.playback.recordedCount == 1)
        #expect(turntable.playback.missReports.isEmpty, "a recorded request is not a miss")

        try turntable.eject()  // the trait ejects at the end too; eject is idempotent
        let name = "RecordingWithTraitTests/recordsInNewEpisodesModeThenReplaysTheSameBytesOffline"
        let file = RecordingFolder.root.appendingPathComponent(name + ".json")
        #expect(FileManager.default.fileExists(atPath: file.path))

        let replayed = try await withVinyl(name, configuration: Self.offline) {
            try await #require(Turntable.current).data(from: uuidURL).0
        }
        // httpbin gives a fresh UUID per call: equal bytes mean the vinyl answered.
        #expect(replayed == recorded)
    }

    @Test(.vinyl(redaction: Redaction.default + .query(removing: ["api_key"])))
    func traitsRedactionIsAppliedToWhatIsSaved() async throws {
        let turntable = try #require(Turntable.current)
        let url = try #require(URL(string: try HTTPBin.baseURL().absoluteString + "/get?api_key=s3cr3t-value&page=1"))
        _ = try await turntable.data(from: url)
        try turntable.eject()
        let file = RecordingFolder.root.appendingPathComponent("RecordingWithTraitTests/traitsRedactionIsAppliedToWhatIsSaved.json")
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(saved.contains("page=1"))
        #expect(!saved.contains("s3cr3t-value"))
    }

    @Test(.vinyl("shared/new-episodes"))
    func newEpisodesAddsToAnExistingVinylAndKeepsItsTracks() async throws {
        let base = try HTTPBin.baseURL()
        let first = try await #require(Turntable.current).data(from: base.appendingPathComponent("uuid")).0
        try #require(Turntable.current).eject()

        // A second test run on the same vinyl: the old track replays, the new request is recorded.
        let configuration = VinylConfiguration(store: .folder(RecordingFolder.root), record: .newEpisodes, recording: Recording(environment: [:]))
        try await withVinyl("shared/new-episodes", configuration: configuration) {
            let turntable = try #require(Turntable.current)
            #expect(try await turntable.data(from: base.appendingPathComponent("uuid")).0 == first)
            _ = try await turntable.data(from: try #require(URL(string: base.absoluteString + "/get?episode=2")))
            #expect(turntable.playback.recordedCount == 1)
        }

        let vinyl = try Vinyl(contentsOf: RecordingFolder.root.appendingPathComponent("shared/new-episodes.json"))
        #expect(vinyl.tracks.map(\.request.url.path) == ["/uuid", "/get"])
    }
}
