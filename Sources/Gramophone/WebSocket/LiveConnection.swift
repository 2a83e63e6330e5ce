import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real WebSocket connection that a recording Turntable holds open for the code under test,
/// whichever client the platform needs: the recording session's `URLSessionWebSocketTask`
/// where URLSession speaks WebSocket (Apple platforms), swift-websocket's `WSClient` behind the
/// `WebSocket` trait where it does not (Linux).
protocol LiveConnection: Sendable {
    /// Connects: the opening handshake. Throws when the server refuses it.
    func open() async throws
    func send(_ message: WebSocketMessage.Content) async throws
    /// The next message from the server, or nil once the server closed with a close frame
    /// (`closing` says how). Throws when the connection broke off.
    func receive() async throws -> WebSocketMessage.Content?
    /// The server's close frame, once it came.
    var closing: (code: Int, reason: Data)? { get }
    /// Closes from the client's side with `code` and `reason`.
    func close(code: Int, reason: Data?)
    func ping() async throws
}

extension Recorder {
    /// The live connection for `request`, by the client this platform records WebSockets with.
    func liveConnection(for request: Track.Request) -> any LiveConnection {
        #if WebSocket && !canImport(Darwin)
        // FoundationNetworking cannot open WebSockets (swift.org's libcurl has no ws): a NIO client.
        return WSClientConnection(request: request)
        #elseif canImport(FoundationNetworking)
        // The error is printed: it names the URL as the recording redacts it.
        return UnavailableConnection(url: recording.redaction.redact(request, allowing: recording.allowedSecrets).url)
        #else
        return TaskConnection(session.webSocketTask(with: request.urlRequest))
        #endif
    }
}

/// A live connection through a `WebSocketTask`: the recording session's real
/// `URLSessionWebSocketTask` on Apple platforms (written for them, checked by reading only).
final class TaskConnection: LiveConnection {
    let task: any WebSocketTask

    init(_ task: any WebSocketTask) { self.task = task }

    func open() async throws { task.resume() }

    func send(_ message: WebSocketMessage.Content) async throws {
        try await task.send(WebSocketMessage(direction: .sent, content: message, offset: 0).taskMessage)
    }

    func receive() async throws -> WebSocketMessage.Content? {
        do {
            return WebSocketMessage(try await task.receive(), direction: .received).content
        } catch {
            // URLSession ends receive with an error at a close too; the code tells them apart.
            if task.closeCodeValue != 0 { return nil }
            throw error
        }
    }

    var closing: (code: Int, reason: Data)? {
        let code = task.closeCodeValue
        return code == 0 ? nil : (code, task.closeReason ?? Data())
    }

    func close(code: Int, reason: Data?) { task.cancel(withCloseCodeValue: code, reason: reason) }

    func ping() async throws {
        let error: (any Error)? = await withCheckedContinuation { continuation in
            task.sendPing { continuation.resume(returning: $0) }
        }
        if let error { throw error }
    }
}

/// Linux without the `WebSocket` trait: FoundationNetworking's `URLSessionWebSocketTask` fails
/// at once ("WebSockets not supported by libcurl"), so recording says what to enable instead.
final class UnavailableConnection: LiveConnection {
    let url: URL

    init(url: URL) { self.url = url }

    func open() async throws {
        let problem =
            "recording the WebSocket \(url.absoluteString) on Linux needs Gramophone's WebSocket package trait (URLSession on Linux cannot open WebSockets): depend on Gramophone with traits: [\"WebSocket\"], or add a track or a stub for it"
        throw Track.Failure(.unsupportedURL, description: problem).makeError(for: url)
    }

    func send(_ message: WebSocketMessage.Content) async throws { try await open() }
    func receive() async throws -> WebSocketMessage.Content? { try await open(); return nil }
    var closing: (code: Int, reason: Data)? { nil }
    func close(code: Int, reason: Data?) {}
    func ping() async throws { try await open() }
}
