import Foundation
import Testing

/// The WebSocket server `scripts/test` starts beside httpbin (scripts/lib/websocket_server.py,
/// Python's `websockets`): echo, pushes, JSON-RPC, binary frames, counted exchanges, closes.
public enum WebSocketServer {
    /// The server's base URL (`ws://127.0.0.1:PORT`), from `GRAMOPHONE_WEBSOCKETS`.
    public static var url: URL? {
        ProcessInfo.processInfo.environment["GRAMOPHONE_WEBSOCKETS"].flatMap { URL(string: $0) }
    }

    /// Use as `@Test(.enabled(if: WebSocketServer.isAvailable))`, as `HTTPBin.isAvailable`.
    public static var isAvailable: Bool { url != nil || HTTPBin.isRequired }

    /// The URL of `path` (with its query) on the server, or a test failure saying how to get one.
    public static func url(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let base = try #require(url, "GRAMOPHONE_WEBSOCKETS is not set: run the suite with scripts/test, which starts the WebSocket server", sourceLocation: sourceLocation)
        return try #require(URL(string: base.absoluteString + path), sourceLocation: sourceLocation)
    }
}
