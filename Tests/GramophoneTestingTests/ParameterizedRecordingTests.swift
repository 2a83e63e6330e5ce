import Foundation
import Gramophone
import GramophoneTestSupport
import GramophoneTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the child run below runs: a parameterized `.vinyl` test as a user writes one, four
/// cases sharing one vinyl, run in parallel by Swift Testing. Enabled only in the child, which
/// names its folder.
enum ParameterizedChild {
    static let folderVariable = "GRAMOPHONE_PARAMETERIZED_FOLDER"
    static var folder: URL? {
        ProcessInfo.processInfo.environment[folderVariable].map { URL(fileURLWithPath: $0, isDirectory: true) }
    }
    static let cities = ["Paris", "Oslo", "Lima", "Rome"]
}

@Suite(.enabled(if: ParameterizedChild.folder != nil))
struct ParameterizedVinylChild {
    @Test(.vinyl(store: .folder(ParameterizedChild.folder ?? FileManager.default.temporaryDirectory)), arguments: ParameterizedChild.cities)
    func weather(city: String) async throws {
        let turntable = try Turntable.requireCurrent()
        let url = try #require(URL(string: try HTTPBin.baseURL().absoluteString + "/anything/weather?city=\(city)"))
        let (data, response) = try await turntable.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains(city))
    }
}

/// Runs the test binary itself as a child (the test runs as a user's would: its own process,
/// Swift Testing's parallel cases), recording, then replaying with recording off.
@Suite(.enabled(if: HTTPBin.isAvailable))
struct ParameterizedRecordingTests {
    /// The running test executable, when it can be run again as a child (`swift test` on
    /// Linux runs the `.xctest` executable itself; Xcode and macOS run a bundle in a host).
    static var testExecutable: URL? {
        let path = CommandLine.arguments.first ?? ""
        guard path.hasSuffix(".xctest"), FileManager.default.isExecutableFile(atPath: path) else { return nil }
        return URL(fileURLWithPath: path)
    }

    static func runChild(folder: URL, mode: String?) async throws -> ChildProcess {
        var environment = ProcessInfo.processInfo.environment
        for name in ["CI", "TEST_RUNNER_CI", "GRAMOPHONE_RECORD_MODE", "GRAMOPHONE_VINYLS"] { environment[name] = nil }
        environment[ParameterizedChild.folderVariable] = folder.path
        if let mode { environment["GRAMOPHONE_RECORD_MODE"] = mode }
        let executable = try #require(testExecutable, "the test executable cannot be run as a child here")
        return try await ChildProcess.run(executable, ["--testing-library", "swift-testing", "--filter", "ParameterizedVinylChild"], environment: environment)
    }

    @Test(.enabled(if: testExecutable != nil))
    func fourParallelCasesRecordFourTracksThatReplayOffline() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorded = try await Self.runChild(folder: folder, mode: nil)
        #expect(recorded.status == 0, "\(recorded.stdout)\n\(recorded.stderr)")
        #expect((recorded.stdout + recorded.stderr).contains("with 4 test cases"), "\(recorded.stdout)\n\(recorded.stderr)")
        let file = folder.appendingPathComponent("ParameterizedVinylChild/weather_city.json")
        let vinyl = try Vinyl(contentsOf: file)
        let cities = vinyl.tracks.compactMap { URLComponents(url: $0.request.url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value }
        #expect(cities.sorted() == ParameterizedChild.cities.sorted(), "every case's track is in the vinyl")

        // The held-out check: the same four cases, recording off, answered from the vinyl.
        let replayed = try await Self.runChild(folder: folder, mode: "never")
        #expect(replayed.status == 0, "\(replayed.stdout)\n\(replayed.stderr)")
        #expect(try Vinyl(contentsOf: file).tracks.count == 4, "replaying writes nothing")
    }
}
