import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    // Disfavored, as `bytes(for:)` is: a direct `URLSession.shared.webSocketTask(with: request)`
    // stays Foundation's, returning `URLSessionWebSocketTask`; the conformance is matched by
    // signature, which the attribute does not affect.
    /// Foundation's `webSocketTask(with:)`, as `any WebSocketTask`: what code that takes
    /// `any NetworkSession` gets from a `URLSession`.
    @_disfavoredOverload
    public func webSocketTask(with request: URLRequest) -> any WebSocketTask {
        let task: URLSessionWebSocketTask = webSocketTask(with: request)
        return task
    }
}

extension NetworkSession {
    /// A WebSocket task for `url` (`ws://` or `wss://`); call `resume()` to connect.
    @_disfavoredOverload
    public func webSocketTask(with url: URL) -> any WebSocketTask {
        webSocketTask(with: URLRequest(url: url))
    }

    /// A WebSocket task for `url` offering `protocols` in `Sec-WebSocket-Protocol`, in order.
    @_disfavoredOverload
    public func webSocketTask(with url: URL, protocols: [String]) -> any WebSocketTask {
        var request = URLRequest(url: url)
        if !protocols.isEmpty { request.setValue(protocols.joined(separator: ", "), forHTTPHeaderField: "Sec-WebSocket-Protocol") }
        return webSocketTask(with: request)
    }

    /// A session of your own (a fake, a logging wrapper) that opens no WebSockets: the task
    /// fails every send and receive with `URLError(.unsupportedURL)`, saying so.
    @_disfavoredOverload
    public func webSocketTask(with request: URLRequest) -> any WebSocketTask {
        UnsupportedWebSocketTask(url: request.url, session: String(describing: type(of: self)))
    }
}
