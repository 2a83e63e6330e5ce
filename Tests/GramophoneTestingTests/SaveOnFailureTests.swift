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
    /// How to run this test bundle again as a child process, as the runner of this one does:
    /// - Linux (`swift test`): the test binary itself, `arguments.first`, a runnable `.xctest`.
    /// - macOS (`swift test` or Xcode): the bundle is not runnable. Swift Testing runs through
    ///   `swiftpm-testing-helper --test-bundle-path BINARY BINARY …`, as SwiftPM runs it (the
    ///   running helper, or the toolchain's beside `swift`); XCTest through the toolchain's
    ///   `xctest -XCTest CLASS BUNDLE`. Both found by `xcrun`, and run directly: `/usr/bin/xcrun`
    ///   itself would drop the `DYLD_` variables the bundle needs under Xcode.
    /// Nil where neither is found; the tests are then skipped.
    enum ChildRun {
        case swiftTesting, xcTest

        /// The executable and arguments that run the fixtures `filter` names.
        func command(filter: String) -> (executable: URL, arguments: [String])? {
            #if canImport(Darwin)
            guard let binary = Bundle(for: SaveOnFailureXCFixtures.self).executableURL else { return nil }
            switch self {
            case .swiftTesting:
                let running = ProcessInfo.processInfo.arguments.first.map { URL(fileURLWithPath: $0) }
                let helper =
                    running?.lastPathComponent == "swiftpm-testing-helper"
                    ? running
                    : Self.toolchainTool("swift").map {
                        $0.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("libexec/swift/pm/swiftpm-testing-helper")
                    }
                guard let helper, FileManager.default.isExecutableFile(atPath: helper.path) else { return nil }
                return (helper, ["--test-bundle-path", binary.path, binary.path, "--testing-library", "swift-testing", "--filter", filter])
            case .xcTest:
                // …/X.xctest/Contents/MacOS/X → …/X.xctest
                let bundle = binary.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                guard let xctest = Self.toolchainTool("xctest") else { return nil }
                return (xctest, ["-XCTest", "GramophoneTestingTests.\(filter)", bundle.path])
            }
            #else
            let path = ProcessInfo.processInfo.arguments.first ?? ""
            guard path.hasSuffix(".xctest"), FileManager.default.isExecutableFile(atPath: path) else { return nil }
            switch self {
            case .swiftTesting: return (URL(fileURLWithPath: path), ["--testing-library", "swift-testing", "--filter", filter])
            case .xcTest: return (URL(fileURLWithPath: path), ["GramophoneTestingTests.\(filter)"])
            }
            #endif
        }

        #if canImport(Darwin)
        /// `xcrun --find TOOL`: the active toolchain's.
        static func toolchainTool(_ tool: String) -> URL? {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/xcrun")
            process.arguments = ["--find", tool]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            let path = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            process.waitUntilExit()
            return process.terminationStatus == 0 && !path.isEmpty ? URL(fileURLWithPath: path) : nil
        }
        #endif

        var isAvailable: Bool { command(filter: "SaveOnFailureFixtures") != nil }
    }

    /// Runs the fixtures `filter` names in a child run with the fixture folder set; returns its exit status.
    static func runFixtures(_ run: ChildRun, _ filter: String, extra: [String] = [], folder: URL, httpbin: URL) async throws -> Int32 {
        guard let (executable, arguments) = run.command(filter: filter) else { return -1 }
        var environment = ProcessInfo.processInfo.environment
        environment[SaveOnFailureFixture.variable] = folder.path
        environment["GRAMOPHONE_HTTPBIN"] = httpbin.absoluteString
        // The fixtures choose their own modes; nothing from the parent's run may override them.
        environment["GRAMOPHONE_RECORD_MODE"] = nil
        // Under Xcode the runner reports to the IDE through these; the child reports to no one.
        for name in ["XCTestConfigurationFilePath", "XCTestSessionIdentifier", "XCTestBundlePath", "XCInjectBundleInto", "DYLD_INSERT_LIBRARIES"] {
            environment[name] = nil
        }
        return try await ChildProcess.run(executable, arguments + extra, environment: environment).status
    }

    /// An existing vinyl with one track, that a failing test appends to in `.newEpisodes`.
    static func writeExisting(in folder: URL) throws -> Data {
        let existing = Vinyl(name: "existing", tracks: [Track("GET https://api.example.com/users/1", .json(#"{"id":1}"#))])
        let file = folder.appendingPathComponent("existing.json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try existing.write(to: file)
        return try Data(contentsOf: file)
    }

    @Test(.enabled(if: HTTPBin.isAvailable && ChildRun.swiftTesting.isAvailable, "runs this test bundle in a child process"))
    func swiftTestingAFailingTestSavesNothingAPassingOneSaves() async throws {
        let httpbin = try HTTPBin.baseURL()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = try Self.writeExisting(in: folder)
        let status = try await Self.runFixtures(.swiftTesting, "SaveOnFailureFixtures", folder: folder, httpbin: httpbin)
        #expect(status != 0, "the failing fixtures fail the child run")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("failing.json").path), "a brand-new vinyl is not created")
        #expect(try Data(contentsOf: folder.appendingPathComponent("existing.json")) == existing, "an existing vinyl stays as it was")
        #expect(try Vinyl(contentsOf: folder.appendingPathComponent("passing.json")).tracks.count == 1)
        #expect(try Vinyl(contentsOf: folder.appendingPathComponent("kept.json")).tracks.count == 1, "saveOnFailure keeps it")
    }

    @Test(.enabled(if: HTTPBin.isAvailable && ChildRun.swiftTesting.isAvailable, "runs this test bundle in a child process"))
    func aTestThatRecordedAttachesWhatWasWritten() async throws {
        // The recording report goes with the test's results (Xcode's report, --attachments-path),
        // for the passing test that wrote a vinyl; the failing ones wrote nothing to report.
        let httpbin = try HTTPBin.baseURL()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try Self.writeExisting(in: folder)
        let attachments = folder.appendingPathComponent("attachments")
        try FileManager.default.createDirectory(at: attachments, withIntermediateDirectories: true)
        _ = try await Self.runFixtures(.swiftTesting, "SaveOnFailureFixtures", extra: ["--attachments-path", attachments.path], folder: folder, httpbin: httpbin)
        let files = try FileManager.default.contentsOfDirectory(atPath: attachments.path)
        let texts = try files.map { try String(contentsOf: attachments.appendingPathComponent($0), encoding: .utf8) }
        #expect(files.contains { $0.contains("passing recording") }, "attachments: \(files)")
        #expect(texts.contains { $0.contains("wrote 1 track") && $0.contains("passing.json") })
        #expect(!texts.contains { $0.contains("failing.json") }, "a failed test wrote nothing, so attaches nothing")
    }

    @Test(.enabled(if: HTTPBin.isAvailable && ChildRun.xcTest.isAvailable, "runs this test bundle in a child process"))
    func xcTestAFailingTestSavesNothingAPassingOneSaves() async throws {
        let httpbin = try HTTPBin.baseURL()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = try Self.writeExisting(in: folder)
        let status = try await Self.runFixtures(.xcTest, "SaveOnFailureXCFixtures", folder: folder, httpbin: httpbin)
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

    @Test(.vinyl("existing", store: SaveOnFailureFixture.store, mode: .newEpisodes, recording: recording))
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
            configuration.mode = .newEpisodes
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
