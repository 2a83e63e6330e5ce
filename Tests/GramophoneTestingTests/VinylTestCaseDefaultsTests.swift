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

/// Issue 31 item 9: a vinyl that cannot be opened is one failure, not a failure and a skip,
/// and the test body does not run.
final class OpeningFailureXCTests: VinylTestCase {
    static let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gramophone-opening-failure-\(UUID().uuidString)")
    override class var vinylDefaults: VinylConfiguration {
        VinylConfiguration(store: .folder(folder), record: .never, recording: Recording(environment: [:]))
    }

    private var intercepted: [String] = []
    private var bodyRan = false

    private func intercepts(_ description: String) -> Bool {
        guard description.contains("could not be opened, so the test did not run"), description.contains("testMissingVinylIsOneFailure.json: no such file") else { return false }
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

    override func invokeTest() {
        super.invokeTest()
        XCTAssertEqual(intercepted.count, 1, "reported once: \(intercepted)")
        XCTAssertFalse(bodyRan, "the body must not run without its vinyl")
        XCTAssertEqual(testRun?.skipCount ?? 0, 0, "not also reported as a skip")
    }

    func testMissingVinylIsOneFailure() {
        bodyRan = true
    }
}
