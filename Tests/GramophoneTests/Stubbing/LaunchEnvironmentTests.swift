import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

/// An app under UI test plays the vinyl its launch environment names: the test launches a
/// small executable (`GramophoneLaunchProbe`) as a UI test launches an app, with only
/// environment variables to go on.
@Suite("Launch environment (UI tests)")
struct LaunchEnvironmentTests {
    /// The probe the build made (see `BuiltProducts`).
    static var probe: URL {
        get throws { try BuiltProducts.executable("GramophoneLaunchProbe") }
    }

    /// Runs the probe with `environment`, fetching `urls`; its output lines.
    func launch(_ environment: [String: String], fetching urls: [String]) async throws -> [String] {
        // What a UI test sets, over this process's environment less anything Gramophone reads
        // (the sanitizer passes need their own variables in the child too).
        let inherited = ProcessInfo.processInfo.environment.filter { name, _ in
            !name.hasPrefix("GRAMOPHONE_") && !name.hasPrefix("TEST_RUNNER_") && name != "CI"
        }
        let child = try await ChildProcess.run(try Self.probe, urls, environment: inherited.merging(environment) { _, set in set })
        return child.stdout.split(separator: "\n").map(String.init)
    }

    @Test func theNamedVinylAnswersTheAppsSharedSession() async throws {
        let folder = try makeTemporaryFolder(prefix: "gramophone-launch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let vinyl = Vinyl(
            name: "onboarding",
            tracks: [
                Track("GET https://api.example.com/welcome", .json(#"{"title":"Hello"}"#)),
                Track("GET https://api.example.com/offline", .error(.notConnectedToInternet)),
            ])
        let file = folder.appendingPathComponent("onboarding.json")
        try vinyl.write(to: file)
        let lines = try await launch(
            ["GRAMOPHONE_VINYL_PATH": file.path],
            fetching: ["https://api.example.com/welcome", "https://api.example.com/offline", "https://api.example.com/missing"])
        #expect(lines.prefix(3) == ["installed: yes", #"200 {"title":"Hello"}"#, "ERROR \(URLError.notConnectedToInternet.rawValue)"])
        // A miss fails the request; it never reaches the network.
        #expect(lines.count == 4 && lines.last?.hasPrefix("ERROR") == true)
    }

    /// A recorded stream reaches the app piece by piece, and one that broke off ends with its
    /// error, as from a Turntable's own session (the adapter once answered both in one piece,
    /// and the broken one as a success).
    @Test func aRecordedStreamArrivesInItsPiecesAndEndsAsRecorded() async throws {
        let folder = try makeTemporaryFolder(prefix: "gramophone-launch-stream")
        defer { try? FileManager.default.removeItem(at: folder) }
        func track(_ path: String, end: String) -> String {
            #"{"request": {"method": "GET", "url": "https://api.example.com/\#(path)"}, "response": {"status": 200, "headers": {"Content-Type": "text/event-stream"}, "#
                + #""stream": {"chunks": [{"offsetMs": 0, "text": "data: 1\n\n"}, {"offsetMs": 1, "text": "data: 2\n\n"}, {"offsetMs": 2, "text": "data: 3\n\n"}], "end": \#(end)}}}"#
        }
        let file = folder.appendingPathComponent("events.json")
        let broken = #"{"error": {"domain": "NSURLErrorDomain", "code": -1005, "description": "The network connection was lost."}}"#
        try Data(#"{"name": "events", "tracks": [\#(track("events", end: #""finished""#)), \#(track("broken", end: broken))]}"#.utf8).write(to: file)
        let lines = try await launch(
            ["GRAMOPHONE_VINYL_PATH": file.path, "PROBE_PIECES": "1"], fetching: ["https://api.example.com/events", "https://api.example.com/broken"])
        #expect(lines == ["installed: yes", "200 3 pieces data: 1  data: 2  data: 3  ", "ERROR \(URLError.networkConnectionLost.rawValue) after 3 pieces"])
    }

    /// A recorded redirect is followed to its recorded target, as from a Turntable's own session.
    @Test func aRecordedRedirectIsFollowed() async throws {
        let folder = try makeTemporaryFolder(prefix: "gramophone-launch-redirect")
        defer { try? FileManager.default.removeItem(at: folder) }
        let vinyl = Vinyl(
            name: "moved",
            tracks: [
                Track("GET https://api.example.com/old", .status(302, headers: ["Location": "https://api.example.com/new"])),
                Track("GET https://api.example.com/new", .text("moved here")),
            ])
        let file = folder.appendingPathComponent("moved.json")
        try vinyl.write(to: file)
        let lines = try await launch(["GRAMOPHONE_VINYL_PATH": file.path], fetching: ["https://api.example.com/old"])
        #expect(lines == ["installed: yes", "200 moved here"])
    }

    @Test func aNormalLaunchInstallsNothing() async throws {
        #expect(try await launch([:], fetching: []) == ["installed: no"])
    }

    @Test func aMatchingItDoesNotKnowIsRefusedWithTheVariableNamed() throws {
        #expect(throws: VinylError.self) { try MatchingStrategy(launchValue: "method,colour") }
        #expect(try MatchingStrategy(launchValue: "method, path ,query")?.description == "method, path, query")
        #expect(try MatchingStrategy(launchValue: "trackOrder")?.description == "track order")
        // Unset: the vinyl's own strategy (DVR's for a DVR cassette); `dvr` names it.
        #expect(try MatchingStrategy(launchValue: nil) == nil)
        #expect(try MatchingStrategy(launchValue: "dvr")?.description.hasPrefix("DVR's") == true)
    }

    @Test(.enabled(if: HTTPBin.isAvailable, "needs the local httpbin (scripts/test starts it)"))
    func inRecordModeTheVinylIsWrittenWhereTheTestCanReadIt() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try makeTemporaryFolder(prefix: "gramophone-launch-record")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("recorded.json")
        let url = base.appendingPathComponent("base64/R3JhbW9waG9uZQ==").absoluteString
        let lines = try await launch(["GRAMOPHONE_VINYL_PATH": file.path, "GRAMOPHONE_RECORD_MODE": "once"], fetching: [url])
        #expect(lines == ["installed: yes", "200 Gramophone"])
        // The app process is gone; the test reads what it recorded.
        let recorded = try Vinyl(contentsOf: file)
        #expect(recorded.tracks.count == 1)
        #expect(recorded.tracks.first?.response?.body == Data("Gramophone".utf8))
    }
}
