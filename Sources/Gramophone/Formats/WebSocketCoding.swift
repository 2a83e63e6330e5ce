import Foundation

/// How a WebSocket conversation is stored in a JSON vinyl, in its handshake's response:
///
/// ```json
/// "webSocket": {"messages": [{"direction": "received", "offsetMs": 0, "text": "welcome"},
///                            {"direction": "sent", "offsetMs": 12.5, "binary": "AAE="}],
///               "end": {"closedBy": "server", "code": 4001, "reason": "room closed"},
///               "endOffsetMs": 40}
/// ```
/// A message is `text` (a text frame, UTF-8) or `binary` (a binary frame, base64), with its time
/// in milliseconds after the connection opened. `end` is `{"closedBy": "client"|"server",
/// "code", "reason"}`, `"cancelled"`, `{"stoppedBy": "count 100"}`, `{"leftOpen": "…"}` or
/// `{"error": {"domain", "code", "description"}}`.
enum WebSocketCoding {
    static let key = "webSocket"

    static func decode(_ value: JSONValue, path: DecodingPath) throws -> WebSocketConversation {
        let items = try value.array("messages", at: path, of: "messages", fix: "List the messages as {\"direction\": \"sent\", \"offsetMs\": 0, \"text\": \"…\"}")
        var previous: TimeInterval = 0
        let messages = try items.indices.map { index in
            let message = try decodeMessage(items[index], path: path.key("messages").index(index), notBefore: previous)
            previous = message.offset
            return message
        }
        let endOffset = try value["endOffsetMs"].flatMap {
            $0 == .null ? nil : try GramophoneFormat.offset($0, path: path.key("endOffsetMs"), notBefore: previous, of: "message", since: "the connection opened")
        }
        return WebSocketConversation(messages: messages, end: try decodeEnd(value["end"], path: path.key("end")), endOffset: endOffset ?? previous)
    }

    private static func decodeMessage(_ item: JSONValue, path: DecodingPath, notBefore previous: TimeInterval) throws -> WebSocketMessage {
        _ = try item.members(at: path)
        let directionText = try item.optionalString("direction", at: path)
        guard let directionText, let direction = WebSocketMessage.Direction(rawValue: directionText) else {
            throw StructureError(
                path: path.key("direction"), problem: directionText.map { "\"\($0)\" is not a direction" } ?? "missing \"direction\"",
                fix: "Say who sent the message: \"sent\" (the client) or \"received\" (from the server)")
        }
        let at = try GramophoneFormat.offset(item["offsetMs"] ?? .number("0"), path: path.key("offsetMs"), notBefore: previous, of: "message", since: "the connection opened")
        let (payload, isText) = try item.bytes(text: "text", base64: "binary", at: path, fix: "Give a text frame as \"text\", a binary frame's bytes as \"binary\" (base64)")
        return WebSocketMessage(direction: direction, kind: isText ? .text : .binary, payload: payload, offset: at)
    }

    /// A conversation's `end` (HAR's `_gramophoneWebSocket` holds the same shape).
    static func decodeEnd(_ value: JSONValue?, path: DecodingPath) throws -> WebSocketConversation.End {
        let fix =
            "Use {\"closedBy\": \"server\", \"code\": 1000, \"reason\": \"…\"}, \"cancelled\", {\"stoppedBy\": \"…\"}, {\"leftOpen\": \"…\"} or {\"error\": {\"domain\": …, \"code\": …}}"
        guard let value, value != .null else { return .closed(code: 1000, by: .received) }
        switch value {
        case .string("cancelled"): return .cancelled
        case .object:
            if let reason = try value.optionalString("stoppedBy", at: path) { return .stopped(reason) }
            if let reason = try value.optionalString("leftOpen", at: path) { return .leftOpen(reason) }
            if let error = value["error"] { return .failed(try GramophoneFormat.decodeFailure(error, path: path.key("error"))) }
            if let by = try value.optionalString("closedBy", at: path) {
                guard by == "client" || by == "server" else {
                    throw StructureError(path: path.key("closedBy"), problem: "\"\(by)\" is not a side", fix: "Use \"client\" or \"server\"")
                }
                let code = try (value["code"] ?? .number("1005")).int(at: path.key("code"))
                guard (1000...4999).contains(code) else {
                    throw StructureError(path: path.key("code"), problem: "\(code) is not a WebSocket close code", fix: "Use a code from 1000 to 4999 (4000-4999 for an application's own)")
                }
                let reason = try value.optionalString("reason", at: path) ?? ""
                return .closed(code: code, reason: Data(reason.utf8), by: by == "client" ? .sent : .received)
            }
            throw StructureError(path: path, problem: "an end names \"closedBy\", \"stoppedBy\", \"leftOpen\" or \"error\"", fix: fix)
        default:
            throw StructureError(path: path, problem: "\(value.kindName) is not a conversation's end", fix: fix)
        }
    }

    static func encode(_ conversation: WebSocketConversation) -> JSONValue {
        let messages: [JSONValue] = conversation.messages.map { message in
            let payload: (String, JSONValue) = (message.kind == .text ? "text" : "binary", .string(storedPayload(message)))
            // Keys in sorted order, as every member the format writes: `binary` comes first, `text` last.
            let members: [(key: String, value: JSONValue)] = [("direction", .string(message.direction.rawValue)), ("offsetMs", GramophoneFormat.milliseconds(message.offset))]
            return .object(message.kind == .text ? members + [payload] : [payload] + members)
        }
        return .object([("end", encodeEnd(conversation.end)), ("endOffsetMs", GramophoneFormat.milliseconds(conversation.endOffset)), ("messages", .array(messages))])
    }

    /// A message's payload as the formats store it: a text frame's text, a binary frame's base64.
    static func storedPayload(_ message: WebSocketMessage) -> String {
        message.kind == .text ? String(decoding: message.payload, as: UTF8.self) : message.payload.base64EncodedString()
    }

    static func encodeEnd(_ end: WebSocketConversation.End) -> JSONValue {
        switch end {
        case .closed(let code, let reason, let by):
            return .object([
                ("closedBy", .string(by == .sent ? "client" : "server")), ("code", .number(String(code))),
                ("reason", .string(String(decoding: reason, as: UTF8.self))),
            ])
        case .cancelled: return .string("cancelled")
        case .stopped(let reason): return .object([("stoppedBy", .string(reason))])
        case .leftOpen(let reason): return .object([("leftOpen", .string(reason))])
        case .failed(let failure): return .object([("error", GramophoneFormat.encodeFailure(failure))])
        }
    }

    /// Formats that keep conversations; writing one elsewhere would lose it without a word.
    static func checkStorable(_ vinyl: Vinyl, in format: VinylFormat) throws {
        guard format == .dvr || format == .plist, let index = vinyl.tracks.firstIndex(where: { $0.response?.conversation != nil }) else { return }
        throw VinylError(
            .unwritable, file: nil, place: format.place(ofTrack: index),
            problem: "the track holds a WebSocket conversation, which the \(format) format cannot store",
            fix: "Write the vinyl as gramophone (JSON), which keeps conversations")
    }
}
