import Foundation
import Gramophone
import GramophoneTesting
import XCTest

/// Issue 27 item 8 / issue 31 item 2: with no store, `VinylTestCase` plays from this test
/// target's `Vinyls` folder (found from the test bundle SwiftPM built), not the working
/// directory's.
final class DefaultFolderXCTests: VinylTestCase {
    func testFindsTheTargetsVinylsFolder() async throws {
        let expected = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent()
            .appendingPathComponent("Vinyls/DefaultFolderXCTests/testFindsTheTargetsVinylsFolder.json")
        XCTAssertEqual(vinyl?.file.standardizedFileURL.path, expected.standardizedFileURL.path)
        let user = try await UserFetcher(session: turntable).user(7)
        XCTAssertEqual(user.name, "Default Folder")
    }
}

/// Issue 31 item 9: a vinyl that cannot be opened (here, one that is not JSON) is one failure,
/// not a failure and a skip, and the test body does not run. (A missing one is opened lazily:
/// see `MissingVinylXCTests`.)
final class OpeningFailureXCTests: VinylTestCase {
    static let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gramophone-opening-failure-\(UUID().uuidString)")
    override class var vinylDefaults: VinylConfiguration {
        VinylConfiguration(store: .folder(folder), mode: .never, recording: Recording(environment: [:]))
    }

    private var intercepted: [String] = []
    private var bodyRan = false

    private func intercepts(_ description: String) -> Bool {
        guard description.contains("could not be opened, so the test did not run"), description.contains("testUnreadableVinylIsOneFailure.json: line 1") else { return false }
        intercepted.append(description)
        return true
    }

    #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
        if intercepts(issue.compactDescription) { return }
        super.record(issue)
    }
    #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if intercepts(description) { return }
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
    #endif

    override func configureVinyl(_ configuration: inout VinylConfiguration) {
        let file = Self.folder.appendingPathComponent("OpeningFailureXCTests/testUnreadableVinylIsOneFailure.json")
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data("not a vinyl".utf8).write(to: file)
    }

    override func invokeTest() {
        super.invokeTest()
        XCTAssertEqual(intercepted.count, 1, "reported once: \(intercepted)")
        XCTAssertFalse(bodyRan, "the body must not run without its vinyl")
        XCTAssertEqual(testRun?.skipCount ?? 0, 0, "not also reported as a skip")
    }

    func testUnreadableVinylIsOneFailure() {
        bodyRan = true
    }
}

/// Issue 40 item 6: on CI a missing vinyl is not recorded; a test that asks it for no track
/// runs and passes without the file, as in a `.vinyl` suite.
final class MissingVinylXCTests: VinylTestCase {
    static let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gramophone-missing-xctest-\(UUID().uuidString)")
    override class var vinylDefaults: VinylConfiguration {
        VinylConfiguration(store: .folder(folder), recording: Recording(environment: ["CI": "true"]))
    }

    func testAStubOnlyTestNeedsNoFile() async throws {
        turntable.stubs.add(try Stub().matching(.path("/users/1")).responding(with: .json(#"{"id": 1, "name": "Ada"}"#)))
        let user = try await UserFetcher(session: turntable).user(1)
        XCTAssertEqual(user.name, "Ada")
        XCTAssertNotNil(vinyl, "the test has its vinyl, only its file is missing")
    }
}
