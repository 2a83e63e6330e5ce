#if canImport(XCTest)
import Foundation
import Gramophone
import XCTest

/// An XCTest base class giving each test its own Turntable, named `<Class>/<test>`.
///
/// ```swift
/// final class UsersClientTests: VinylTestCase {
///     override class var vinylDefaults: VinylConfiguration { VinylConfiguration(store: .bundle(.module)) }
///
///     func testFetchesUser() async throws {
///         let client = UsersClient(baseURL: api, session: turntable)   // Vinyls/UsersClientTests/testFetchesUser.json
///         XCTAssertEqual(try await client.user(42).name, "Ada Lovelace")
///     }
/// }
/// ```
///
/// The vinyl is opened in `setUpWithError` and checked in `tearDownWithError` (subclasses
/// that override them call `super`): every miss, even one the code under test swallowed,
/// and unplayed tracks when all must play, fail the test. Override the hooks to choose
/// which tests use a vinyl and how.
open class VinylTestCase: XCTestCase {
    private var currentVinyl: TestVinyl?
    /// The empty Turntable of a test without a vinyl, kept so its playback adds up.
    private var emptyTurntable: Turntable?

    /// Defaults for every test of the class, as `.vinyl(…)` on a Swift Testing suite.
    open class var vinylDefaults: VinylConfiguration { VinylConfiguration() }

    /// Whether this test gets a vinyl; override to opt tests out, e.g. by name. True by default.
    open var shouldUseVinyl: Bool { true }

    /// Adjusts this test's configuration before the vinyl is opened; `configuration.name`
    /// already holds `<Class>/<test>`. Override to rename the vinyl, or to change matching
    /// for tests whose name carries a marker.
    open func configureVinyl(_ configuration: inout VinylConfiguration) {}

    /// Called with the opened Turntable before the test runs, to adjust it (load another
    /// vinyl, change its matching strategy).
    open func prepare(_ turntable: Turntable) throws {}

    /// Reports a problem found when the test ended as a test failure located in the vinyl
    /// file. Override to route or filter the reports.
    open func recordVinylProblem(_ problem: VinylProblem, vinyl: TestVinyl) {
        #if canImport(Darwin)
        let location = XCTSourceCodeLocation(filePath: vinyl.file.path, lineNumber: 1)
        record(XCTIssue(type: .assertionFailure, compactDescription: problem.message, sourceCodeContext: XCTSourceCodeContext(location: location)))
        #else
        recordFailure(withDescription: problem.message, inFile: vinyl.file.path, atLine: 1, expected: true)
        #endif
    }

    /// This test's vinyl name: `<Class>/<test method>`.
    public var defaultVinylName: String {
        VinylNaming.name(components: [String(describing: type(of: self)), VinylNaming.xcTestMethod(from: name)])
    }

    /// This test's vinyl, nil when `shouldUseVinyl` is false or outside a test.
    public var vinyl: TestVinyl? { currentVinyl }

    /// This test's Turntable, to hand to the code under test. In a test that has no vinyl it
    /// is an empty one, so each request fails with a report saying so.
    public var turntable: Turntable {
        if let vinyl = currentVinyl { return vinyl.turntable }
        if let emptyTurntable { return emptyTurntable }
        let empty = Turntable(vinyl: Vinyl(name: "no vinyl: \(defaultVinylName) has shouldUseVinyl == false"))
        emptyTurntable = empty
        return empty
    }

    /// Opens this test's vinyl through the hooks; a vinyl that cannot be opened fails the test here.
    open override func setUpWithError() throws {
        try super.setUpWithError()
        guard shouldUseVinyl else { return }
        var configuration = Self.vinylDefaults
        configuration.name = configuration.name ?? defaultVinylName
        configureVinyl(&configuration)
        // XCTest knows no test's source file: without a store, the current directory's Vinyls
        // (under Xcode, set `store: .defaultFolder()` in `vinylDefaults`).
        let vinyl = try TestVinyl(name: configuration.name ?? defaultVinylName, configuration: configuration, sourcePath: nil)
        currentVinyl = vinyl
        try prepare(vinyl.turntable)
    }

    /// Saves what was recorded and reports the vinyl's problems through `recordVinylProblem`.
    open override func tearDownWithError() throws {
        emptyTurntable = nil
        if let vinyl = currentVinyl {
            currentVinyl = nil
            for problem in vinyl.finish() { recordVinylProblem(problem, vinyl: vinyl) }
        }
        try super.tearDownWithError()
    }
}
#endif
