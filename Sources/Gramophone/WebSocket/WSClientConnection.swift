#if WebSocket
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOWebSocket
import WSClient

/// A live connection through swift-websocket's `WSClient`, where URLSession cannot open
/// WebSockets (Linux). `WSClient` runs a connection inside a closure; this keeps the closure
/// open, hands the server's messages on as they arrive, and writes what the client sends.
final class WSClientConnection: LiveConnection {
    let request: Track.Request
    private let messages: AsyncThrowingStream<WebSocketMessage.Content, any Error>
    private let incoming: AsyncThrowingStream<WebSocketMessage.Content, any Error>.Continuation
    private let state = Locked(State())

    private struct State {
        var opening: CheckedContinuation<Void, any Error>?
        var writer: WebSocketOutboundWriter?
        var closing: (code: Int, reason: Data)?
        var runner: Task<Void, Never>?
        /// The client asked to close before the connection was open: close as soon as it is.
        var closeWhenOpen: (code: Int, reason: Data?)?
    }

    init(request: Track.Request) {
        self.request = request
        (messages, incoming) = AsyncThrowingStream.makeStream()
    }

    /// The handshake's headers WSClient does not write itself (it writes Host, Upgrade, Connection
    /// and the Sec-WebSocket key, version and extensions).
    private var additionalHeaders: HTTPFields {
        var fields = HTTPFields()
        let own: Set<String> = ["host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "content-length"]
        for field in request.headers.fields where !own.contains(field.name.lowercased()) {
            if let name = HTTPField.Name(field.name) { fields.append(HTTPField(name: name, value: field.value)) }
        }
        return fields
    }

    func open() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            state.withLock { $0.opening = continuation }
            let runner = Task { await self.run() }
            state.withLock { $0.runner = runner }
        }
    }

    private func run() async {
        var configuration = WebSocketClientConfiguration()
        configuration.additionalHeaders = additionalHeaders
        do {
            let frame = try await WebSocketClient.connect(
                url: request.url.absoluteString, configuration: configuration, logger: Logger(label: "Gramophone.WebSocket")
            ) { inbound, outbound, _ in
                let (opening, closeNow) = self.state.withLock { state in
                    state.writer = outbound
                    defer { state.opening = nil }
                    return (state.opening, state.closeWhenOpen)
                }
                opening?.resume()
                if let closeNow { try await outbound.close(.init(codeNumber: closeNow.code), reason: closeNow.reason.map { String(decoding: $0, as: UTF8.self) }) }
                var iterator = inbound.messages(maxSize: 1 << 26).makeAsyncIterator()
                while let message = try await iterator.next() {
                    switch message {
                    case .text(let text): self.incoming.yield(.text(text))
                    case .binary(let buffer): self.incoming.yield(.binary(Data(buffer.readableBytesView)))
                    }
                }
            }
            let opening = state.withLock { state in
                if let frame { state.closing = (Int(UInt16(webSocketErrorCode: frame.closeCode)), Data((frame.reason ?? "").utf8)) }
                defer { state.opening = nil }
                return state.opening
            }
            // Connected and closed without a close frame: the connection broke off.
            if frame == nil { incoming.finish(throwing: URLError(.networkConnectionLost, userInfo: [NSURLErrorFailingURLErrorKey: request.url])) } else { incoming.finish() }
            opening?.resume(throwing: URLError(.badServerResponse, userInfo: [NSURLErrorFailingURLErrorKey: request.url]))
        } catch {
            let opening = state.withLock { state in
                defer { state.opening = nil }
                return state.opening
            }
            if let opening {
                opening.resume(throwing: error)
            } else {
                incoming.finish(throwing: URLError(.networkConnectionLost, userInfo: [NSURLErrorFailingURLErrorKey: request.url, NSUnderlyingErrorKey: error]))
            }
        }
    }

    func send(_ message: WebSocketMessage.Content) async throws {
        switch message {
        case .text(let text): try await write(.text(text))
        case .binary(let data): try await write(.binary(ByteBuffer(bytes: data)))
        }
    }

    /// Writes `frame`. A write to a connection that is closing fails as `URLSessionWebSocketTask`'s
    /// send does: with `ENOTCONN`, never NIO's own error (`NIOAsyncWriterError.alreadyFinished`),
    /// once the connection has ended, so the server's close is known by then.
    private func write(_ frame: WebSocketOutboundWriter.OutboundFrame) async throws {
        guard let writer = state.withLock({ $0.writer }) else { throw POSIXError(.ENOTCONN) }
        do {
            try await writer.write(frame)
        } catch {
            await state.withLock { $0.runner }?.value
            throw POSIXError(.ENOTCONN)
        }
    }

    func receive() async throws -> WebSocketMessage.Content? {
        var iterator = messages.makeAsyncIterator()
        return try await iterator.next()
    }

    var closing: (code: Int, reason: Data)? { state.withLock { $0.closing } }

    func close(code: Int, reason: Data?) {
        let writer = state.withLock { state -> WebSocketOutboundWriter? in
            if state.writer == nil { state.closeWhenOpen = (code, reason) }
            return state.writer
        }
        guard let writer else { return }
        Task { try? await writer.close(.init(codeNumber: code), reason: reason.map { String(decoding: $0, as: UTF8.self) }) }
    }

    func ping() async throws {
        // WSClient answers the server's pings and sends its own; a pong is not handed out, so a
        // ping succeeds once written.
        try await write(.custom(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer())))
    }
}
#endif
