import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The WebSocket task of a `NetworkSession` that does not implement `webSocketTask(with:)`:
/// everything fails at once with an error that names the session, never silently hangs.
final class UnsupportedWebSocketTask: WebSocketTask {
    let error: URLError

    init(url: URL?, session: String) {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: "\(session) does not open WebSocket connections: implement webSocketTask(with:) in it, or use URLSession or a Turntable"
        ]
        if let url { info[NSURLErrorFailingURLErrorKey] = url }
        error = URLError(.unsupportedURL, userInfo: info)
    }

    func resume() {}
    nonisolated(nonsending) func send(_ message: URLSessionWebSocketTask.Message) async throws { throw error }
    func send(_ message: URLSessionWebSocketTask.Message, completionHandler: @escaping @Sendable ((any Error)?) -> Void) { completionHandler(error) }
    nonisolated(nonsending) func receive() async throws -> URLSessionWebSocketTask.Message { throw error }
    func receive(completionHandler: @escaping @Sendable (Result<URLSessionWebSocketTask.Message, any Error>) -> Void) { completionHandler(.failure(error)) }
    func sendPing(pongReceiveHandler: @escaping @Sendable ((any Error)?) -> Void) { pongReceiveHandler(error) }
    func cancel(with closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?) {}
    func cancel(withCloseCodeValue code: Int, reason: Data?) {}
    var closeCode: URLSessionWebSocketTask.CloseCode { .invalid }
    var closeReason: Data? { nil }
    var closeCodeValue: Int { 0 }
}
