#if AsyncHTTPClient
import NIOCore
#endif

/// The client stack a request came in through, so a recording Turntable reaches the real
/// network the same way and records what that client sees (its redirects, its decompression).
enum LiveFetch: Sendable {
    /// `NetworkSession` and `URLSession`: the recording's `session`.
    case urlSession
    #if AsyncHTTPClient
    /// `HTTPClientSession`: the recording's `httpClient`, by the caller's deadline.
    case httpClient(deadline: NIODeadline)
    #endif
}
