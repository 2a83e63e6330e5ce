#if AsyncHTTPClient
import NIOCore
#endif

/// The client stack a request came in through, so a recording Turntable reaches the real
/// network the same way and records what that client sees (its redirects, its decompression).
enum LiveFetch: Sendable {
    /// `NetworkSession` and `URLSession`: the recording's `session`.
    case urlSession
    /// A `URLSession` the Turntable answers (`makeURLSession()`): the recording's `session`. A
    /// delegate task hears each piece of a stream as it arrives; a body of known length that is
    /// not an event stream is recorded whole, as `data(for:)` records it.
    case urlProtocol
    /// An OpenAPI `ClientTransport` call: the recording's `session`.
    case clientTransport
    /// A WebSocket's opening handshake: the WebSocket task goes live itself, to keep the
    /// conversation that follows (WebSocket/LiveWebSocket.swift).
    case webSocket
    #if AsyncHTTPClient
    /// `HTTPClientSession`: the recording's `httpClient`, by the caller's deadline.
    case httpClient(deadline: NIODeadline)
    #endif

    /// Whether a streamed answer of known length (not an event stream) is recorded whole before
    /// it is handed on. `bytes(for:)` callers read what they ask for, and keep its chunks; AHC
    /// and OpenAPI callers get every body as a stream and often drop the one they do not want
    /// (an error status, an undocumented response), which must still be recorded.
    var keepsSizedBodiesWhole: Bool {
        if case .urlSession = self { return false }
        return true
    }
}
