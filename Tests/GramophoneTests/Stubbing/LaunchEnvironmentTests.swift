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
