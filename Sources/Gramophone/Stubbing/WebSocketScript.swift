import Foundation

/// A WebSocket conversation written in code, for a stub: messages pushed on open, reply rules
/// for the messages the code under test sends, and a close after a number of them.
///
/// ```swift
/// try turntable.stubs.add(
///     Stub().matching(.path("/chat")).responding(with: .webSocket(
///         WebSocketScript()
///             .pushing(.text(#"{"type":"hello"}"#))
///             .replying(to: "ping", with: .text("pong"))
///             .replying(with: .json(template: #"{"id":{{id}},"ok":true}"#))
///             .closing(after: 3, code: 4000, reason: "bye"))))
/// ```
///
/// Rules are tried in the order they were added; the first whose `to:` matches answers (a rule
/// without one answers every message). A message no rule answers gets no reply.
public struct WebSocketScript: Sendable, CopyModifiable {
    /// What a rule answers with.
    public enum Reply: Sendable {
        /// The message itself, text as text and binary as binary.
        case echo
        /// This text frame.
        case text(String)
        /// This binary frame.
        case binary(Data)
        /// A text frame from `template`, whose `{{name}}` placeholders are filled with the members
        /// of the JSON object the client sent (`{{id}}` → `7`, a string member without quotes).
        case json(template: String)
        /// Several messages, in order.
        case messages([Reply])
    }

    var pushes: [WebSocketMessage.Content] = []
    /// In the order they were added; a rule without a trigger answers every message.
    var rules: [(trigger: String?, reply: Reply)] = []
    var close: (after: Int, code: Int, reason: String)?

    /// An empty script: no pushes, no replies, no close.
    public init() {}

    /// The same script pushing `messages` as soon as the connection opens, before any is sent.
    public func pushing(_ messages: WebSocketMessage.Content...) -> WebSocketScript { modified { $0.pushes += messages } }

    /// The same script answering every message with `reply` (after the rules added before it).
    public func replying(with reply: Reply) -> WebSocketScript { modified { $0.rules.append((nil, reply)) } }

    /// The same script answering a text message equal to `text` (or, for JSON, whose `"type"`
    /// or `"method"` is `text`) with `reply`.
    public func replying(to text: String, with reply: Reply) -> WebSocketScript { modified { $0.rules.append((text, reply)) } }

    /// The same script closing the connection with `code` (application codes 4000-4999
    /// included) and `reason` once the client has sent `count` messages and their replies went out.
    public func closing(after count: Int, code: Int = 1000, reason: String = "") -> WebSocketScript { modified { $0.close = (max(0, count), code, reason) } }

    /// What the server answers to `message`: the first rule that matches, or nothing.
    func replies(to message: WebSocketMessage) -> [WebSocketMessage.Content] {
        guard let rule = rules.first(where: { $0.trigger.map { Self.matches($0, message) } ?? true }) else { return [] }
        return Self.expand(rule.reply, for: message)
    }

    private static func matches(_ trigger: String, _ message: WebSocketMessage) -> Bool {
        guard message.kind == .text else { return false }
        if String(decoding: message.payload, as: UTF8.self) == trigger { return true }
        guard let value = try? JSONParser.parse(message.payload) else { return false }
        return ["type", "method"].contains { value[$0] == .string(trigger) }
    }

    private static func expand(_ reply: Reply, for message: WebSocketMessage) -> [WebSocketMessage.Content] {
        switch reply {
        case .echo: return [message.content]
        case .text(let text): return [.text(text)]
        case .binary(let data): return [.binary(data)]
        case .messages(let replies): return replies.flatMap { expand($0, for: message) }
        case .json(let template):
            var variables: [String: String] = [:]
            if message.kind == .text, case .object(let members)? = try? JSONParser.parse(message.payload) {
                // A string without its quotes; anything else as JSON writes it.
                for (key, value) in members {
                    if case .string(let text) = value { variables[key] = text } else { variables[key] = String(decoding: JSONWriter.compact(value), as: UTF8.self) }
                }
            }
            return [.text(String(decoding: Placeholders.fill(Data(template.utf8), variables: variables, values: [:]), as: UTF8.self))]
        }
    }
}

extension StubResponse {
    /// A WebSocket handshake answered (101) and the conversation `script` plays: pushes,
    /// replies, a close. Through `Turntable.webSocketTask(with:)`; other API styles get the 101.
    public static func webSocket(_ script: WebSocketScript) -> StubResponse {
        var response = StubResponse(.response(Track.Response.webSocket(WebSocketConversation(messages: [], end: .leftOpen("a stub's script")))))
        response.webSocketScript = script
        return response
    }

    /// A WebSocket handshake answered (101) and `conversation` replayed as a recorded one is:
    /// in causal order, with what the code sends compared with it.
    public static func webSocket(_ conversation: WebSocketConversation) -> StubResponse {
        StubResponse(.response(Track.Response.webSocket(conversation)))
    }
}
