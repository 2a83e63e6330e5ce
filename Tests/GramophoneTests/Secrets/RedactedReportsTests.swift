import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Miss reports and errors are printed (stderr, test issues, CI logs): they show a request as
/// the recorder writes it, never with the live credential.
@Suite("Reports redact what the recorder redacts")
struct RedactedReportsTests {
    static let secret = "live-" + SecretCorpusTests.run(24, seed: 93)

    @Test func aReplayOnlyMissShowsTheRequestRedacted() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "me", tracks: [Track("GET https://api.test/me?access_token=REDACTED", .text("me"))]))
        let error = await #expect(throws: TurntableError.self) {
            try await turntable.data(from: URL(string: "https://api.test/you?access_token=\(Self.secret)")!)
        }
        let text = error.map(String.init(describing:)) ?? ""
        #expect(text.contains("/you?access_token=REDACTED"), "\(text)")
        #expect(!text.contains(Self.secret), "\(text)")
        #expect(!turntable.playback.missReports.map(\.description).joined().contains(Self.secret))
    }

    /// A request sent live to be recorded that fails there: its error names it, redacted.
    @Test func aLiveFailureWhileRecordingShowsTheRequestRedacted() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Port 9 on loopback: nothing listens, the connection is refused at once.
        let turntable = try Turntable(vinylNamed: "down", from: .folder(folder), recording: Recording(mode: .once, environment: RecordingFixtures.localEnvironment))
        let error = await #expect(throws: LiveRequestError.self) {
            try await turntable.data(from: URL(string: "http://127.0.0.1:9/me?access_token=\(Self.secret)")!)
        }
        let text = error.map(String.init(describing:)) ?? ""
        #expect(text.contains("access_token=REDACTED"), "\(text)")
        #expect(!text.contains(Self.secret), "\(text)")
    }
}
