import Foundation
import Gramophone
import GramophoneTestSupport
import GramophoneTesting
import Testing
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 30, "Failed tests don't save": what a failing test recorded is not written (the vinyl
/// on disk stays as it was; a new one is not created) unless `saveOnFailure` says so; a passing
/// test writes it. A test's failure is only known to its framework, so the fixtures below run
/// in a child process (this test binary again, filtered to them) against the local httpbin,
/// and the parent reads what they left on disk.
@Suite struct SaveOnFailureTests {
    /// The test binary, run directly (`swift test` on Linux); under `xctest` or Xcode the
    /// binary is not a runnable test executable, and the test is skipped.
    static var testBinary: URL? {
        let path = ProcessInfo.processInfo.arguments.first ?? ""
        return path.hasSuffix(".xctest") && FileManager.default.isExecutableFile(atPath: path) ? URL(fileURLWithPath: path) : nil
    }

    /// Runs `arguments` on the test binary with the fixture folder set; returns its exit status.
    static func runFixtures(_ arguments: [String], folder: URL, httpbin: URL) async throws -> Int32 {
        guard let testBinary else { return -1 }
        var environment = ProcessInfo.processInfo.environment
        environment[SaveOnFailureFixture.variable] = folder.path
        environment["GRAMOPHONE_HTTPBIN"] = httpbin.absoluteString
        // The fixtures choose their own modes; nothing from the parent's run may override them.
        environment["GRAMOPHONE_RECORD_MODE"] = nil
        return try await ChildProcess.run(testBinary, arguments, environment: environment).status
    }

    /// An existing vinyl with one track, that a failing test appends to in `.newEpisodes`.
    static func writeExisting(in folder: URL) throws -> Data {
        let existing = Vinyl(name: "existing", tracks: [Track("GET https://api.example.com/users/1", .json(#"{"id":1}"#))])
        let file = folder.appendingPathComponent("existing.json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try existing.write(to: file)
        return try Data(contentsOf: file)
    }

    @Test(.enabled(if: HTTPBin.isAvailable && testBinary != nil, "runs this test binary as a child process (swift test on Linux)"))
    func swiftTestingAFailingTestSavesNothingAPassingOneSaves() async throws {
        let httpbin = try HTTPBin.baseURL()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = try Self.writeExisting(in: folder)
        let status = try await Self.runFixtures(["--testing-library", "swift-testing", "--filter", "SaveOnFailureFixtures"], folder: folder, httpbin: httpbin)
        #expect(status != 0, "the failing fixtures fail the child run")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("failing.json").path), "a brand-new vinyl is not created")
        #expect(try Data(contentsOf: folder.appendingPathComponent("existing.json")) == existing, "an existing vinyl stays as it was")
        #expect(try Vinyl(contentsOf: folder.appendingPathComponent("passing.json")).tracks.count == 1)
        #expect(try Vinyl(contentsOf: folder.appendingPathComponent("kept.json")).tracks.count == 1, "saveOnFailure keeps it")
    }

    @Test(.enabled(if: HTTPBin.isAvailable && testBinary != nil, "runs this test binary as a child process (swift test on Linux)"))
    func aTestThatRecordedAttachesWhatWasWritten() async throws {
        // The recording report goes with the test's results (Xcode's report, --attachments-path),
        // for the passing test that wrote a vinyl; the failing ones wrote nothing to report.
        let httpbin = try HTTPBin.baseURL()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try Self.writeExisting(in: folder)
        let attachments = folder.appendingPathComponent("attachments")
        try FileManager.default.createDirectory(at: attachments, withIntermediateDirectories: true)
        _ = try await Self.runFixtures(
            ["--testing-library", "swift-testing", "--filter", "SaveOnFailureFixtures", "--attachments-path", attachments.path], folder: folder, httpbin: httpbin)
        let files = try FileManager.default.contentsOfDirectory(atPath: attachments.path)
        let texts = try files.map { try String(contentsOf: attachments.appendingPathComponent($0), encoding: .utf8) }
        #expect(files.contains { $0.contains("passing recording") }, "attachments: \(files)")
        #expect(texts.contains { $0.contains("wrote 1 track") && $0.contains("passing.json") })
        #expect(!texts.contains { $0.contains("failing.json") }, "a failed test wrote nothing, so attaches nothing")
    }

    @Test(.enabled(if: HTTPBin.isAvailable && testBinary != nil, "runs this test binary as a child process (swift test on Linux)"))
    func xcTestAFailingTestSavesNothingAPassingOneSaves() async throws {
        let httpbin = try HTTPBin.baseURL()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = try Self.writeExisting(in: folder)
        let status = try await Self.runFixtures(["GramophoneTestingTests.SaveOnFailureXCFixtures"], folder: folder, httpbin: httpbin)
        #expect(status != 0, "the failing fixtures fail the child run")
        let vinyls = folder.appendingPathComponent("SaveOnFailureXCFixtures")
        #expect(!FileManager.default.fileExists(atPath: vinyls.appendingPathComponent("testFailing.json").path), "a brand-new vinyl is not created")
        #expect(try Data(contentsOf: folder.appendingPathComponent("existing.json")) == existing, "an existing vinyl stays as it was")
        #expect(try Vinyl(contentsOf: vinyls.appendingPathComponent("testPassing.json")).tracks.count == 1)
        #expect(try Vinyl(contentsOf: vinyls.appendingPathComponent("testFailingKept.json")).tracks.count == 1, "saveOnFailure keeps it")
    }
}

/// What the fixtures share: the folder the parent gives them, nil outside the child run.
enum SaveOnFailureFixture {
    static let variable = "GRAMOPHONE_SAVE_ON_FAILURE_FIXTURE"
    static var folder: URL? { ProcessInfo.processInfo.environment[variable].map { URL(fileURLWithPath: $0) } }
    static var store: VinylStore { .folder(folder ?? URL(fileURLWithPath: NSTemporaryDirectory())) }
    static func uuidURL() throws -> URL { try #require(HTTPBin.url).appendingPathComponent("uuid") }
}

/// Run only by `SaveOnFailureTests`, in a child process; two of them fail on purpose.
@Suite(.enabled(if: SaveOnFailureFixture.folder != nil, "run by SaveOnFailureTests in a child process"))
struct SaveOnFailureFixtures {
    static let recording = Recording(environment: [:])

    @Test(.vinyl("failing", store: SaveOnFailureFixture.store, recording: recording))
    func failing() async throws {
        _ = try await Turntable.requireCurrent().data(from: SaveOnFailureFixture.uuidURL())
        Issue.record("fails on purpose after recording")
    }

    @Test(.vinyl("existing", store: SaveOnFailureFixture.store, record: .newEpisodes, recording: recording))
    func failingOnAnExistingVinyl() async throws {
        _ = try await Turntable.requireCurrent().data(from: SaveOnFailureFixture.uuidURL())
        #expect(Bool(false), "fails on purpose after recording")
    }

    @Test(.vinyl("passing", store: SaveOnFailureFixture.store, recording: recording))
    func passing() async throws {
        _ = try await Turntable.requireCurrent().data(from: SaveOnFailureFixture.uuidURL())
    }

    @Test(.vinyl("kept", store: SaveOnFailureFixture.store, recording: recording, saveOnFailure: true))
    func failingKept() async throws {
        _ = try await Turntable.requireCurrent().data(from: SaveOnFailureFixture.uuidURL())
        Issue.record("fails on purpose; saveOnFailure keeps the recording")
    }
}

/// The XCTest fixtures, run only by `SaveOnFailureTests` in a child process.
final class SaveOnFailureXCFixtures: VinylTestCase {
    override class var vinylDefaults: VinylConfiguration {
        VinylConfiguration(store: SaveOnFailureFixture.store, recording: Recording(environment: [:]))
    }

    override var shouldUseVinyl: Bool { SaveOnFailureFixture.folder != nil }

    override func configureVinyl(_ configuration: inout VinylConfiguration) {
        if name.contains("Existing") {
            configuration.name = "existing"
            configuration.record = .newEpisodes
        }
        if name.contains("Kept") { configuration.saveOnFailure = true }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try XCTSkipIf(SaveOnFailureFixture.folder == nil, "run by SaveOnFailureTests in a child process")
    }

    func testFailing() async throws {
        _ = try await turntable.data(from: SaveOnFailureFixture.uuidURL())
        XCTFail("fails on purpose after recording")
    }

    func testFailingOnExisting() async throws {
        _ = try await turntable.data(from: SaveOnFailureFixture.uuidURL())
        XCTFail("fails on purpose after recording")
    }

    func testPassing() async throws {
        _ = try await turntable.data(from: SaveOnFailureFixture.uuidURL())
    }

    func testFailingKept() async throws {
        _ = try await turntable.data(from: SaveOnFailureFixture.uuidURL())
        XCTFail("fails on purpose; saveOnFailure keeps the recording")
    }
}
