#if AsyncHTTPClient
import AsyncHTTPClient
import NIOCore

extension Turntable: HTTPClientSession {
    /// The answer to an AsyncHTTPClient request: from a stub, the vinyl, or the recorder
    /// (through a real `HTTPClient`, see `Recording.httpClient`), in that order, as
    /// ``data(for:)`` answers. The body streams as ``bytes(for:)``'s does: a recorded stream
    /// chunk by chunk, paced by ``timing`` and cut by ``chunking``; any other body in one piece.
    ///
    /// A recorded 3xx whose target the Turntable also answers is followed, as `HTTPClient.shared` follows it.
    ///
    /// The deadline holds as it does for `HTTPClient` against a slow server: a response the
    /// playback timing (``timing``, a stub's delay) would hand over after it throws
    /// `HTTPClientError.deadlineExceeded` at the deadline. It covers the wait for the response,
    /// not the reading of its body, as in `HTTPClient`.
    /// - Throws: ``TurntableError/noMatchingTrack(_:)`` when nothing answers;
    ///   `HTTPClientError.deadlineExceeded` when the deadline passes first; a recorded
    ///   transport error as the `URLError` it was recorded as; for a URL `HTTPClient` would
    ///   refuse, the `HTTPClientError` it throws (`.invalidURL`, `.emptyHost`, `.unsupportedScheme(_:)`, …).
    public nonisolated(nonsending) func execute(_ request: HTTPClientRequest, deadline: NIODeadline) async throws -> HTTPClientResponse {
        let live = try await Track.Request(request)
        return HTTPClientResponse(try await streamedAnswer(live, through: .httpClient(deadline: deadline), deadline: ReplayDeadline(deadline)))
    }
    // `execute(_:timeout:)` is HTTPClientSession's: this with a deadline `timeout` from now.
}

extension ReplayDeadline {
    /// AsyncHTTPClient's deadline, and the error `HTTPClient` throws when it passes.
    init(_ deadline: NIODeadline) {
        self.init(uptimeNanoseconds: deadline.uptimeNanoseconds, error: { HTTPClientError.deadlineExceeded })
    }
}
#endif
