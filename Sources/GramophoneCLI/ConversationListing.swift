import Foundation
import Gramophone

/// How `gramophone inspect` shows a WebSocket conversation: one line on its track always
/// (`websocket: ` and its summary), its messages under the track with `--messages`, and all of
/// it in `--json`.
enum ConversationListing {
    /// One line per message, `[N]` as the file numbers them, then how the conversation ended.
    static func rows(_ conversation: WebSocketConversation) -> [String] {
        let messages = conversation.messages.enumerated().map { index, message in
            ["[\(index)]", message.direction.rawValue, message.kind.rawValue, "\(message.payload.count) B", milliseconds(message.offset), preview(message)]
        }
        // Under the track's URL column, so a long conversation still reads as the track's.
        let indent = "      "
        return InspectCommand.aligned(messages, rightAligned: [0, 3, 4]).map { indent + $0 }
            + ["\(indent)  end: \(conversation.end.summary) at \(milliseconds(conversation.endOffset))"]
    }

    /// The conversation for `--json`; see `InspectCommand.usage` for its shape.
    static func json(_ conversation: WebSocketConversation) -> [String: Any] {
        let messages: [[String: Any]] = conversation.messages.enumerated().map { index, message in
            [
                "index": index, "direction": message.direction.rawValue, "kind": message.kind.rawValue,
                "bytes": message.payload.count, "offsetMs": millisecondsValue(message.offset), "preview": preview(message),
            ]
        }
        return [
            "summary": conversation.summary, "sent": conversation.sent.count, "received": conversation.received.count,
            "end": end(conversation.end), "endOffsetMs": millisecondsValue(conversation.endOffset), "messages": messages,
        ]
    }

    /// How it ended, in the vinyl format's own shape for `end`.
    static func end(_ end: WebSocketConversation.End) -> Any {
        switch end {
        case .closed(let code, let reason, let by):
            var object: [String: Any] = ["closedBy": by == .sent ? "client" : "server", "code": code]
            if !reason.isEmpty { object["reason"] = String(decoding: reason, as: UTF8.self) }
            return object
        case .failed(let failure):
            var error: [String: Any] = ["domain": failure.domain, "code": failure.code]
            if !failure.description.isEmpty { error["description"] = failure.description }
            return ["error": error]
        case .cancelled: return "cancelled"
        case .stopped(let reason): return ["stoppedBy": reason]
        case .leftOpen(let reason): return ["leftOpen": reason]
        }
    }

    /// Most payloads whole on one line: a text's first 60 characters, line breaks and other
    /// control characters escaped; a binary frame's first 16 bytes in hex.
    static func preview(_ message: WebSocketMessage) -> String {
        switch message.content {
        case .text(let text):
            var shown = ""
            // "\r\n" is one Character.
            let escapes: [Character: String] = ["\r\n": "\\r\\n", "\n": "\\n", "\r": "\\r", "\t": "\\t"]
            for character in text.prefix(previewLength) {
                let scalar = character.unicodeScalars.first
                let control = scalar?.properties.generalCategory == .control
                shown += escapes[character] ?? (control ? "\\u{\(String(scalar?.value ?? 0, radix: 16))}" : String(character))
            }
            return text.count > previewLength ? shown + "…" : shown
        case .binary(let data):
            let bytes = data.prefix(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
            return data.count > 16 ? bytes + " …" : bytes
        }
    }

    static let previewLength = 60

    /// `0 ms`, `12.5 ms`: to a tenth, as offsets are recorded.
    static func milliseconds(_ seconds: TimeInterval) -> String {
        let tenths = Int((seconds * 10_000).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10) ms" : "\(tenths / 10).\(tenths % 10) ms"
    }

    /// Milliseconds as a JSON number, to the microsecond.
    static func millisecondsValue(_ seconds: TimeInterval) -> Double {
        (seconds * 1_000_000).rounded() / 1000
    }
}
