import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The example API the vinyls in this target were written for.
enum ExampleAPI {
    static func baseURL() throws -> URL {
        try #require(URL(string: "https://api.example.com"))
    }
}

/// The local httpbin server that `scripts/test` starts (never a mock of one); a copy of the
/// helper in GramophoneTests.
enum HTTPBin {
    /// The server's base URL, from `GRAMOPHONE_HTTPBIN`.
    static var url: URL? {
        ProcessInfo.processInfo.environment["GRAMOPHONE_HTTPBIN"].flatMap { URL(string: $0) }
    }

    /// True when the tests must have the server (`scripts/test` sets it).
    static var isRequired: Bool {
        ProcessInfo.processInfo.environment["GRAMOPHONE_REQUIRE_HTTPBIN"] == "1"
    }

    /// Use as `@Test(.enabled(if: HTTPBin.isAvailable))`.
    static var isAvailable: Bool { url != nil || isRequired }

    /// The server's URL, or a test failure saying how to get one.
    static func baseURL(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        try #require(url, "GRAMOPHONE_HTTPBIN is not set: run the suite with scripts/test, which starts httpbin", sourceLocation: sourceLocation)
    }
}

/// A fresh temporary folder, removed by the caller.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("gramophone-testing-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
