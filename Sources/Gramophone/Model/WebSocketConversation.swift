import Foundation

/// A WebSocket conversation as it was recorded: every message either side sent after the
/// opening handshake, in order, and how the conversation ended.
///
/// It lives on the handshake's track, in its response (status 101): the track's request is the
/// handshake request, matched as any request is; `Track.Response.conversation` holds the rest.
/// A Turntable plays it back through its `webSocketTask(with:)`: what the
/// server sent after the client's Nth message waits for that message (causal order).
///
/// ```swift
/// let chat = WebSocketConversation(messages: [
///     .received(.text("welcome")),
///     .sent(.text("hello")),
///     .received(.text("hello back"), at: 0.05),
/// ], end: .closed(code: 1000, by: .server))
/// ```
public struct WebSocketConversation: Sendable, Hashable {
    /// The messages, client's and server's, in the order they crossed the connection.
    public var messages: [WebSocketMessage]
    /// How the conversation ended.
    public var end: End
    /// When it ended, in seconds after the connection opened.
    public var endOffset: TimeInterval

    /// How a conversation ended.
    public enum End: Sendable, Hashable {
        /// A close frame with `code` (1000–4999, application codes 4000–4999 included) and
        /// `reason` (UTF-8 text, possibly empty), sent by the client (`.sent`) or the server (`.received`).
        case closed(code: Int, reason: Data = Data(), by: WebSocketMessage.Direction)
        /// The connection broke off with this error (no close frame, a protocol error).
        case failed(Track.Failure)
        /// The caller cancelled the task while it was recorded, without a close frame.
        case cancelled
        /// The recorder stopped the conversation at a `StreamLimit`; the text says which
        /// (`2 messages`, `sentinel response.done`, `30.0 seconds`). Live, the connection was
        /// closed there for the code under test with 1001 (going away) and the reason
        /// "recording stopped at its StreamLimit: " and the text; replayed, that close comes
        /// after the last message, as it came live.
        case stopped(String)
        /// The recording ended while the connection was still open, without its close; the text
        /// says why: a HAR file's conversation (HAR does not record the close), or one still
        /// open at `eject()`. Replayed, the connection stays open and quiet after the last
        /// message, as a live server that sends nothing more.
        case leftOpen(String)
    }

    /// A conversation of `messages` ending with `end`, `endOffset` seconds after it opened
    /// (the last message's offset when nil).
    public init(messages: [WebSocketMessage], end: End = .closed(code: 1000, by: .received), endOffset: TimeInterval? = nil) {
        self.messages = messages
        self.end = end
        self.endOffset = endOffset ?? messages.last?.offset ?? 0
    }

    /// The messages the client sent, in order.
    package var sent: [WebSocketMessage] { messages.filter { $0.direction == .sent } }
    /// The messages the server sent, in order.
    package var received: [WebSocketMessage] { messages.filter { $0.direction == .received } }

    /// "12 messages (5 sent, 7 received) over 480 ms, closed by the server with 1000", as
    /// `gramophone inspect` shows it.
    package var summary: String {
        let span = Int((endOffset * 1000).rounded())
        let (count, sentCount) = (messages.count, sent.count)
        return "\(count) message\(count == 1 ? "" : "s") (\(sentCount) sent, \(count - sentCount) received) over \(span) ms, \(end.summary)"
    }
}

extension WebSocketConversation.End {
    /// How it ended, in words: "closed by the server with 4001 (room closed)", "cancelled by the
    /// caller", "stopped by count 100", "left open (HAR, which does not record the close)",
    /// "broke off with NSURLErrorDomain -1005", as
    /// `WebSocketConversation.summary` and `gramophone inspect` say it.
    package var summary: String {
        switch self {
        case .closed(let code, let reason, let by):
            let text = String(decoding: reason, as: UTF8.self)
            return "closed by the \(by == .sent ? "client" : "server") with \(code)\(text.isEmpty ? "" : " (\(text))")"
        case .failed(let failure): return "broke off with \(failure.domain) \(failure.code)"
        case .cancelled: return "cancelled by the caller"
        case .stopped(let reason): return "stopped by \(reason)"
        case .leftOpen(let reason): return "left open (\(reason))"
        }
    }
}

/// One WebSocket message: who sent it, text or binary, its payload, and when.
public struct WebSocketMessage: Sendable, Hashable {
    /// Which way a message went.
    public enum Direction: String, Sendable, Hashable {
        /// From the client (the code under test) to the server.
        case sent
        /// From the server to the client.
        case received
    }

    /// A text frame or a binary one (`content` says which to users).
    package enum Kind: String, Sendable, Hashable {
        /// A text frame: the payload is UTF-8.
        case text
        /// A binary frame.
        case binary
    }

    /// A message's content: text or bytes, as `URLSessionWebSocketTask.Message` has it.
    public enum Content: Sendable, Hashable {
        /// A text frame.
        case text(String)
        /// A binary frame.
        case binary(Data)
    }

    /// Which way the message went.
    public var direction: WebSocketMessage.Direction
    /// Text or binary.
    package var kind: Kind
    /// The payload as it crossed: a text frame's UTF-8 bytes, or a binary frame's bytes.
    public var payload: Data
    /// When the message crossed, in seconds after the connection opened.
    public var offset: TimeInterval

    /// A message of `kind` going `direction`, `offset` seconds after the connection opened.
    package init(direction: Direction, kind: Kind, payload: Data, offset: TimeInterval = 0) {
        self.direction = direction
        self.kind = kind
        self.payload = payload
        self.offset = offset
    }

    /// A message the client sent.
    public static func sent(_ content: Content, at offset: TimeInterval = 0) -> WebSocketMessage {
        WebSocketMessage(direction: .sent, content: content, offset: offset)
    }

    /// A message the server sent.
    public static func received(_ content: Content, at offset: TimeInterval = 0) -> WebSocketMessage {
        WebSocketMessage(direction: .received, content: content, offset: offset)
    }

    init(direction: Direction, content: Content, offset: TimeInterval) {
        switch content {
        case .text(let text): self.init(direction: direction, kind: .text, payload: Data(text.utf8), offset: offset)
        case .binary(let data): self.init(direction: direction, kind: .binary, payload: data, offset: offset)
        }
    }

    /// The payload as text (a text frame) or bytes (a binary frame).
    public var content: Content {
        switch kind {
        case .text: return .text(String(decoding: payload, as: UTF8.self))
        case .binary: return .binary(payload)
        }
    }
}

extension Track.Response {
    /// A handshake's response for `conversation`: status 101, the upgrade headers, and the
    /// conversation that followed; `subprotocol` is the one the server chose, if any.
    public static func webSocket(_ conversation: WebSocketConversation, subprotocol: String? = nil, headers: Headers = [:]) -> Track.Response {
        // In the order a vinyl writes them (sorted), so a track built here equals its read-back.
        var all: Headers = ["Connection": "Upgrade"]
        if let subprotocol { all["Sec-WebSocket-Protocol"] = subprotocol }
        all["Upgrade"] = "websocket"
        for field in headers.fields { all.add(name: field.name, value: field.value) }
        var response = Track.Response(status: 101, headers: all)
        response.conversation = conversation
        return response
    }
}
