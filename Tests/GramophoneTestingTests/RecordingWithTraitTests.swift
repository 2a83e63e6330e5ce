import Foundation
import Gramophone
import GramophoneTestSupport
import GramophoneTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `.vinyl` trait recording against the local httpbin in new-episodes mode, then the
/// same vinyl replayed with recording off and a session that reaches nothing.
@Suite(
    .enabled(if: HTTPBin.isAvailable),
    .vinyl(store: .folder(RecordingFolder.root), mode: .newEpisodes, recording: Recording(environment: [:])))
struct RecordingWithTraitTests {
    /// The replay side: recording off, and no network even if it were on.
    static let offline = VinylConfiguration(store: .folder(RecordingFolder.root), mode: .never, recording: Recording(session: NoNetwork(), environment: [:]))

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
        let configuration = VinylConfiguration(store: .folder(RecordingFolder.root), mode: .newEpisodes, recording: Recording(environment: [:]))
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

/// What the recorder refuses to write fails the test that recorded it. Its own suite: the
/// expected-issue trait must wrap the vinyl's scope, which a suite-level vinyl would not let it.
@Suite(.enabled(if: HTTPBin.isAvailable))
struct RefusedRecordingTraitTests {
    /// A fabricated GitHub token, pieced together so no whole token sits in the source.
    static let fabricatedToken = "gh" + "p_" + String(repeating: "A7bC9dE2fG4hJ6", count: 3).prefix(36)

    // What still looks like a secret after redaction fails the test with the track, the
    // place and the filter, and is not written.
    @Test(
        .expectingIssue(
            containing: "could not be saved", #"tracks[0].request.url query "q": looks like a GitHub token"#,
            #".query(replacing: ["q": "REDACTED"])"#, #".allowing([.query("q"), .jsonKey("args.q"), .jsonKey("url")])"#),
        .vinyl(store: .folder(RecordingFolder.root), mode: .once, recording: Recording(environment: [:])))
    func aTokenLeftInTheRecordingFailsTheTestAndIsNotSaved() async throws {
        let turntable = try #require(Turntable.current)
        _ = try await turntable.data(from: try #require(URL(string: try HTTPBin.baseURL().absoluteString + "/anything?q=" + Self.fabricatedToken)))
        #expect(turntable.playback.recordedCount == 1)
    }

    @Test func testVinylReportsTheRefusedWriteAndTheFileStaysAbsent() async throws {
        let configuration = VinylConfiguration(store: .folder(RecordingFolder.root), mode: .once, recording: Recording(environment: [:]))
        let vinyl = try TestVinyl(name: "refused/leak", configuration: configuration)
        _ = try await vinyl.turntable.data(from: try #require(URL(string: try HTTPBin.baseURL().absoluteString + "/anything?q=" + Self.fabricatedToken)))
        let problems = vinyl.finish()
        #expect(problems.map(\.kind) == [.notSaved])
        #expect(problems.first?.message.contains(#"tracks[0].request.url query "q""#) == true)
        #expect(problems.first?.message.contains(Self.fabricatedToken) == false, "the report does not repeat the secret")
        #expect(!FileManager.default.fileExists(atPath: vinyl.file.path))
    }
}
