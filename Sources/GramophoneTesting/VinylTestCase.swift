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
///         let client = UsersClient(baseURL: api, session: turntable)   // Tests/<Target>/Vinyls/UsersClientTests/testFetchesUser.json
///         XCTAssertEqual(try await client.user(42).name, "Ada Lovelace")
///     }
/// }
/// ```
///
/// The vinyl is opened before `setUp` (a vinyl that cannot be opened fails the test once, and
/// the test does not run) and checked in `tearDownWithError` (subclasses that override it
/// call `super`): every miss, even one the code under test swallowed, and unplayed tracks
/// when all must play, fail the test. What a failed test recorded is not saved unless
/// `saveOnFailure` says so. Override the hooks to choose which tests use a vinyl and how;
/// prepare files a vinyl needs in `configureVinyl`, which runs just before it is opened.
///
/// Without a `store`, vinyls live in the default folder (see `VinylStore`): XCTest does not
/// know a test's source file, so it is found from the test bundle SwiftPM built
/// (`<package>/.build/…`) and the class's module: `Tests/<Module>/Vinyls/`. Where that cannot
/// be found (Xcode builds into DerivedData), set `store: .defaultFolder()` in `vinylDefaults`:
/// it finds the same folder from the file it is written in.
open class VinylTestCase: XCTestCase {
    private var currentVinyl: TestVinyl?
    /// The empty Turntable of a test without a vinyl, kept so its playback adds up.
    private var emptyTurntable: Turntable?

    /// Defaults for every test of the class, as `.vinyl(…)` on a Swift Testing suite.
    open class var vinylDefaults: VinylConfiguration { VinylConfiguration() }

    /// Whether this test gets a vinyl; override to opt tests out, e.g. by name. By default
    /// `vinylDefaults.shouldUseVinyl`, else true.
    open var shouldUseVinyl: Bool { Self.vinylDefaults.shouldUseVinyl ?? true }

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
        recordFailure(problem.message, inFile: vinyl.file.path)
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

    /// Opens this test's vinyl through the hooks, then runs the test (`setUp`, the test,
    /// `tearDown`). A vinyl that cannot be opened (or a `prepare` that throws) is reported once,
    /// as a failure, and the test does not run: throwing from `setUpWithError` would also
    /// report it as a skip on Linux.
    open override func invokeTest() {
        currentVinyl = nil
        emptyTurntable = nil
        if shouldUseVinyl {
            do {
                var configuration = Self.vinylDefaults
                configuration.name = configuration.name ?? defaultVinylName
                configureVinyl(&configuration)
                let vinyl = try TestVinyl(
                    name: configuration.name ?? defaultVinylName, configuration: configuration, sourcePath: try Self.sourcePath(for: configuration),
                    recordAdvice: "record it (run the test once with GRAMOPHONE_RECORD_MODE=new_episodes, or set configuration.mode = .newEpisodes in configureVinyl)")
                currentVinyl = vinyl
                try prepare(vinyl.turntable)
            } catch {
                // Once, as a failure located in the vinyl's file when it has one.
                let message = "Gramophone: the vinyl of \(defaultVinylName) could not be opened, so the test did not run: \(error)"
                recordFailure(message, inFile: (error as? VinylError)?.file)
                return
            }
        }
        super.invokeTest()
    }

    /// Saves what was recorded (unless the test failed and `saveOnFailure` is not set) and
    /// reports the vinyl's problems through `recordVinylProblem`.
    open override func tearDownWithError() throws {
        emptyTurntable = nil
        if let vinyl = currentVinyl {
            currentVinyl = nil
            let failed = (testRun?.totalFailureCount ?? 0) > 0
            for problem in vinyl.finish(testFailed: failed) { recordVinylProblem(problem, vinyl: vinyl) }
        }
        try super.tearDownWithError()
    }

    /// A path in the class's test target folder, standing in for its source file (XCTest does
    /// not know it), which places the default store and a bundle's source folder: the folder
    /// `Tests/<Module>/` of the package whose `.build` holds the test bundle. Nil when it
    /// cannot be found (Xcode builds into DerivedData).
    /// - Throws: `VinylError` saying to set `store: .defaultFolder()` when the default store
    ///   is needed and cannot be found.
    private static func sourcePath(for configuration: VinylConfiguration) throws -> String? {
        let module = String(String(reflecting: self).prefix { $0 != "." })
        let bundle = Bundle(for: self).bundleURL.standardizedFileURL
        var folder = bundle
        while folder.path != "/" && !folder.path.isEmpty {
            folder.deleteLastPathComponent()
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) else { continue }
            let target = folder.appendingPathComponent("Tests", isDirectory: true).appendingPathComponent(module, isDirectory: true)
            if FileManager.default.fileExists(atPath: target.path) { return target.appendingPathComponent("\(self).swift").path }
            break
        }
        // GRAMOPHONE_VINYLS places the default store without a source file.
        guard configuration.store == nil, !VinylStore.defaultFolderIsOverridden else { return nil }
        throw VinylError(
            .notFound, file: nil,
            problem:
                "VinylTestCase cannot find the source folder of \(String(reflecting: self)) from its test bundle (\(bundle.path)), so it does not know where its Vinyls folder is",
            fix: "Add to the class: override class var vinylDefaults: VinylConfiguration { VinylConfiguration(store: .defaultFolder()) } "
                + "(it finds Tests/<Target>/Vinyls from the file it is written in), or name another store")
    }

    /// Records `message` as a failure located at the top of `file` when there is one.
    private func recordFailure(_ message: String, inFile file: String?) {
        #if canImport(Darwin)
        let context = file.map { XCTSourceCodeContext(location: XCTSourceCodeLocation(filePath: $0, lineNumber: 1)) } ?? XCTSourceCodeContext()
        record(XCTIssue(type: .assertionFailure, compactDescription: message, sourceCodeContext: context))
        #else
        recordFailure(withDescription: message, inFile: file ?? "<VinylTestCase>", atLine: 1, expected: true)
        #endif
    }
}
#endif
