import Foundation
import Testing

@testable import Gramophone

/// The executables some tests run as a user or a UI test would (the `gramophone` CLI, the
/// writer and launch probes), found wherever the build put them.
///
/// - `swift build --build-tests` and `swift test` put them in the products folder, beside the
///   test target's resource bundle (`Bundle.module`).
/// - Xcode (`xcodebuild test`) may put the resource bundle inside the `.xctest` bundle, so the
///   folder holding each enclosing bundle is tried too, then the folders Xcode names in
///   `__XCODE_BUILT_PRODUCTS_DIR_PATHS`.
/// - `GRAMOPHONE_PRODUCTS` (a folder; `TEST_RUNNER_GRAMOPHONE_PRODUCTS` from `xcodebuild`'s
///   environment) is tried first, for any other layout.
///
/// Not found under Xcode (a scheme that did not build the executable), the test is skipped with
/// the reason and the folders tried; not found anywhere else it fails, since `swift build
/// --build-tests` always builds them.
enum BuiltProducts {
    static let folderVariable = "GRAMOPHONE_PRODUCTS"

    /// Where to look, in order, without repeats.
    static func folders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var folders: [URL] = []
        if let folder = Environment.value(folderVariable, in: environment) {
            folders.append(URL(fileURLWithPath: folder, isDirectory: true))
        }
        // The resource bundle's folder, then the folder of every bundle that encloses it
        // (`…/Debug/GramophoneTests.xctest/Contents/Resources/X.bundle` → `…/Debug`).
        var place = Bundle.module.bundleURL.standardizedFileURL
        folders.append(place.deletingLastPathComponent())
        while place.pathComponents.count > 1 {
            place = place.deletingLastPathComponent()
            if ["xctest", "bundle", "app"].contains(place.pathExtension) { folders.append(place.deletingLastPathComponent()) }
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let paths = environment["__XCODE_BUILT_PRODUCTS_DIR_PATHS"] {
            folders += paths.split(separator: ":").map { URL(fileURLWithPath: String($0), isDirectory: true) }
        }
        var seen = Set<String>()
        return folders.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// Whether Xcode runs the tests (it sets these for its test runner; `swift test` does not).
    static var underXcode: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["__XCODE_BUILT_PRODUCTS_DIR_PATHS"] != nil || environment["XCTestConfigurationFilePath"] != nil
    }

    /// The executable `name` from the first folder that has it. Under Xcode, when none has it,
    /// the running test is skipped (cancelled) with the reason; elsewhere it fails.
    static func executable(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let folders = folders()
        let found = folders.map { $0.appendingPathComponent(name) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        let tried = folders.map(\.path).joined(separator: ", ")
        if found == nil, underXcode {
            try Test.cancel(
                "Skipped under Xcode: the executable \(name) was not found (tried \(tried)). This scheme did not build it; run `swift test`, or set \(folderVariable) (TEST_RUNNER_\(folderVariable) for xcodebuild) to the folder that has it",
                sourceLocation: sourceLocation)
        }
        return try #require(
            found, "no executable \(name) in \(tried): run `swift build --build-tests`, or set \(folderVariable) to the folder that has it", sourceLocation: sourceLocation)
    }
}
