import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The local httpbin server that `scripts/test` starts (never a mock of one).
enum HTTPBin {
    /// The server's base URL, from `GRAMOPHONE_HTTPBIN`.
    static var url: URL? {
        ProcessInfo.processInfo.environment["GRAMOPHONE_HTTPBIN"].flatMap { URL(string: $0) }
    }

    /// True when the tests must have the server: `scripts/test` sets this, so a server that
    /// failed to start fails the suite instead of silently skipping recording tests.
    static var isRequired: Bool {
        ProcessInfo.processInfo.environment["GRAMOPHONE_REQUIRE_HTTPBIN"] == "1"
    }

    /// Use as `@Test(.enabled(if: HTTPBin.isAvailable))`: runs when the server is there
    /// or required (and then fails loudly if it is missing).
    static var isAvailable: Bool { url != nil || isRequired }

    /// The server's URL, or a test failure saying how to get one.
    static func baseURL(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        try #require(url, "GRAMOPHONE_HTTPBIN is not set: run the suite with scripts/test, which starts httpbin", sourceLocation: sourceLocation)
    }
}

/// Files the tests read.
enum TestFiles {
    /// Files written by other tools (copied from shared/fixtures; see its README for sources and licenses).
    static var fixtures: URL {
        // `.copy("Resources")` keeps the folder; ask the bundle rather than assume its layout.
        Bundle.module.url(forResource: "Fixtures", withExtension: nil, subdirectory: "Resources")
            ?? Bundle.module.bundleURL.appendingPathComponent("Resources/Fixtures")
    }

    static func fixture(_ path: String) -> URL { fixtures.appendingPathComponent(path) }

    static func fixtures(in folder: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: fixtures.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" || $0.pathExtension == "har" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// A fresh temporary folder, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gramophone-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
