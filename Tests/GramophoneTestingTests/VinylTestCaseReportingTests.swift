import Foundation
import Gramophone
import GramophoneTesting
import XCTest

/// What `VinylTestCase` reports in tearDown. Each test provokes one failure; the class
/// intercepts failures carrying the expected text (so the suite stays green) and fails in
/// tearDown if the expected failure never came.
final class VinylTestCaseReportingTests: VinylTestCase {
    override class var vinylDefaults: VinylConfiguration { VinylConfiguration(store: .bundle(.module)) }

    /// Text the provoked failure must contain, and whether it was seen.
    private var expectedFragments: [String] = []
    private var sawExpectedFailure = false

    override func configureVinyl(_ configuration: inout VinylConfiguration) {
        if name.contains("Unplayed") { configuration.allTracksMustPlay = true }
    }

    private func intercepts(_ description: String, file: String) -> Bool {
        guard !expectedFragments.isEmpty, expectedFragments.allSatisfy(description.contains), file == vinyl?.file.path || vinyl == nil else { return false }
        sawExpectedFailure = true
        return true
    }

    #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
        if intercepts(issue.compactDescription, file: issue.sourceCodeContext.location?.fileURL.path ?? "") { return }
        super.record(issue)
    }
    #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if intercepts(description, file: filePath) { return }
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
    #endif

    override func tearDownWithError() throws {
        let vinylFile = vinyl?.file.path
        try super.tearDownWithError()  // reports the vinyl's problems
        XCTAssertTrue(sawExpectedFailure, "VinylTestCase did not report a failure containing \(expectedFragments) in \(vinylFile ?? "-")")
    }

    func client() throws -> UserFetcher {
        UserFetcher(session: turntable)
    }

    func testSwallowedMissIsReportedWithTheDiff() async throws {
        expectedFragments = ["GET https://api.example.com/users/41", "nearest track #0: GET https://api.example.com/users/42", "path: /users/41 vs /users/42"]
        let user = try await client().userIfAvailable(41)
        XCTAssertNil(user)
    }

    func testUnplayedTracksAreReported() async throws {
        expectedFragments = ["1 of 2 tracks", "never played", "track #1: GET https://api.example.com/users?page=1"]
        let user = try await client().user(42)
        XCTAssertEqual(user.id, 42)
    }
}
