#if AsyncHTTPClient
import AsyncHTTPClient
import NIOCore

/// The part of AsyncHTTPClient's `HTTPClient` a server-side network layer needs, so it can take
/// a `Turntable` in tests and `HTTPClient.shared` in production without a change (package
/// trait `AsyncHTTPClient`).
///
/// ```swift
/// struct Weather {
///     var http: any HTTPClientSession = HTTPClient.shared
///     func today() async throws -> HTTPClientResponse {
///         try await http.execute(HTTPClientRequest(url: "https://api.example.com/today"), timeout: .seconds(30))
///     }
/// }
/// ```
///
/// As with ``NetworkSession``, the requirements are `nonisolated(nonsending)`: a Turntable
/// answers on the caller's actor.
public protocol HTTPClientSession: Sendable {
    /// Sends `request` and returns the response once its head arrives; its body streams.
    /// The request fails when `timeout` has passed.
    nonisolated(nonsending) func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse
    /// Sends `request` and returns the response once its head arrives; its body streams.
    /// The request fails when `deadline` has passed.
    nonisolated(nonsending) func execute(_ request: HTTPClientRequest, deadline: NIODeadline) async throws -> HTTPClientResponse
}

extension HTTPClientSession {
    /// The request with a deadline of `timeout` from now.
    public nonisolated(nonsending) func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse {
        try await execute(request, deadline: .now() + timeout)
    }
}

extension HTTPClient: HTTPClientSession {
    // HTTPClient's own methods take a `logger:` argument with a default value, which does not
    // satisfy a protocol requirement; these forward to them.
    /// HTTPClient's `execute(_:timeout:logger:)` with its default logger.
    public nonisolated(nonsending) func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse {
        try await execute(request, timeout: timeout, logger: nil)
    }

    /// HTTPClient's `execute(_:deadline:logger:)` with its default logger.
    public nonisolated(nonsending) func execute(_ request: HTTPClientRequest, deadline: NIODeadline) async throws -> HTTPClientResponse {
        try await execute(request, deadline: deadline, logger: nil)
    }
}
#endif
