import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A WebSocket connection as `URLSessionWebSocketTask` offers it, so code that opens one can be
/// handed a Turntable's replaying task in tests and a real `URLSessionWebSocketTask` in production.
///
/// ```swift
/// let socket: any WebSocketTask = session.webSocketTask(with: url)   // session: any NetworkSession
/// socket.resume()
/// try await socket.send(.string("hello"))
/// let reply = try await socket.receive()
/// ```
///
/// The members have `URLSessionWebSocketTask`'s names and meanings, and `URLSessionWebSocketTask`
/// conforms with its own. A replaying task cannot be a subclass of it: on Linux its `send` and
/// `receive` are `public`, not `open`, so the unit of injection is this protocol.
///
/// Close codes an application defines (4000-4999) have no case in `CloseCode`; on Linux
/// `CloseCode(rawValue: 4001)` is nil. ``closeCodeValue`` and ``cancel(withCloseCodeValue:reason:)``
/// carry the number itself on every platform.
public protocol WebSocketTask: AnyObject, Sendable {
    /// Opens the connection: the handshake, then messages flow. Sends and receives made before
    /// wait for it.
    func resume()
    /// Sends `message`; returns once it is on its way.
    nonisolated(nonsending) func send(_ message: URLSessionWebSocketTask.Message) async throws
    /// Sends `message` and calls `completionHandler` with nil, or the error that stopped it.
    func send(_ message: URLSessionWebSocketTask.Message, completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// The next message from the server, in the order they arrive.
    nonisolated(nonsending) func receive() async throws -> URLSessionWebSocketTask.Message
    /// Calls `completionHandler` with the next message from the server, or the error that ended
    /// the connection.
    func receive(completionHandler: @escaping @Sendable (Result<URLSessionWebSocketTask.Message, any Error>) -> Void)
    /// Sends a ping; `pongReceiveHandler` gets nil when the pong comes back, or an error.
    func sendPing(pongReceiveHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Closes the connection with `closeCode` and an optional UTF-8 `reason`.
    func cancel(with closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?)
    /// The close code once the connection closed (`.invalid` while it is open).
    var closeCode: URLSessionWebSocketTask.CloseCode { get }
    /// The close reason once the connection closed, if one was given.
    var closeReason: Data? { get }
    /// The close code as the number on the wire, 4000-4999 included; 0 while the connection is open.
    var closeCodeValue: Int { get }
    /// Closes the connection with the close code `code` (1000-4999, an application's own
    /// 4000-4999 included) and an optional UTF-8 `reason`.
    func cancel(withCloseCodeValue code: Int, reason: Data?)
}

extension URLSessionWebSocketTask: WebSocketTask {
    /// `closeCode.rawValue`: on Apple platforms `CloseCode` carries any number, 4000-4999 included.
    public var closeCodeValue: Int { closeCode.rawValue }

    /// `cancel(with:reason:)` with the close code `code`; a number `CloseCode` cannot hold (an
    /// application's own code on Linux, where the enum is closed) closes with `.invalid`'s 0.
    public func cancel(withCloseCodeValue code: Int, reason: Data?) {
        cancel(with: URLSessionWebSocketTask.CloseCode(rawValue: code) ?? .invalid, reason: reason)
    }
}
