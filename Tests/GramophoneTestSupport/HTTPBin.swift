import Foundation
import Testing

/// The local httpbin server that `scripts/test` starts (never a mock of one), shared by both
/// test targets.
public enum HTTPBin {
    /// The server's base URL, from `GRAMOPHONE_HTTPBIN`.
    public static var url: URL? {
        ProcessInfo.processInfo.environment["GRAMOPHONE_HTTPBIN"].flatMap { URL(string: $0) }
    }

    /// True when the tests must have the server: `scripts/test` sets this, so a server that
    /// failed to start fails the suite instead of silently skipping recording tests.
    public static var isRequired: Bool {
        ProcessInfo.processInfo.environment["GRAMOPHONE_REQUIRE_HTTPBIN"] == "1"
    }

    /// Use as `@Test(.enabled(if: HTTPBin.isAvailable))`: runs when the server is there
    /// or required (and then fails loudly if it is missing).
    public static var isAvailable: Bool { url != nil || isRequired }

    /// The server's URL, or a test failure saying how to get one.
    public static func baseURL(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        try #require(url, "GRAMOPHONE_HTTPBIN is not set: run the suite with scripts/test, which starts httpbin", sourceLocation: sourceLocation)
    }
}

/// A fresh temporary folder named `PREFIX-UUID`; the caller removes it.
public func makeTemporaryFolder(prefix: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The small streaming server `scripts/test` starts beside httpbin (scripts/lib/stream_server.py):
/// server-sent events and chunked bodies with known content and gaps, which httpbin cannot serve.
public enum StreamServer {
    /// The server's base URL, from `GRAMOPHONE_STREAMS`.
    public static var url: URL? {
        ProcessInfo.processInfo.environment["GRAMOPHONE_STREAMS"].flatMap { URL(string: $0) }
    }

    /// Use as `@Test(.enabled(if: StreamServer.isAvailable))`, as `HTTPBin.isAvailable`.
    public static var isAvailable: Bool { url != nil || HTTPBin.isRequired }

    /// The URL of `path` (with its query) on the server, or a test failure saying how to get one.
    public static func url(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let base = try #require(url, "GRAMOPHONE_STREAMS is not set: run the suite with scripts/test, which starts the streaming server", sourceLocation: sourceLocation)
        return try #require(URL(string: base.absoluteString + path), sourceLocation: sourceLocation)
    }
}
