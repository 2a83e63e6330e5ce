import Foundation

// WebSocket conversations in HAR, as Chrome's devtools export them: the handshake is an entry
// with `"_resourceType": "websocket"` answered 101, and the messages are the entry's
// `_webSocketMessages`: `{"type": "send"|"receive", "time": <seconds since 1970>, "opcode": 1|2,
// "data": …}`, text for opcode 1, base64 for opcode 2 (binary). Proxies that export HAR with
// WebSocket messages (mitmproxy's HAR export, for one) follow Chrome's shape.
//
// HAR has no place for how the connection ended: Chrome does not record the close. A file
// without one reads as a conversation that stays open after its last message (`.leftOpen`), with
// a `VinylIssue` saying so; `_gramophoneWebSocket` (`{"end": …, "endOffsetMs": …}`, the vinyl
// format's `end` and `endOffsetMs`) gives the end, and Gramophone writes it so nothing is lost.
extension HARFormat {
    /// Chrome's field for the messages, and Gramophone's for what Chrome leaves out.
    static let messagesKey = "_webSocketMessages"
    static let conversationEndKey = "_gramophoneWebSocket"
    /// Chrome's `type` of a message: who sent it.
    private static let directions: [String: WebSocketMessage.Direction] = ["send": .sent, "receive": .received]
    /// The end of a conversation whose file does not say how it closed.
    static let unrecordedEnd = WebSocketConversation.End.leftOpen("HAR, which does not record the close")

    /// Whether the entry answered `status` is a WebSocket handshake whose conversation HAR
    /// holds: a 101 Chrome marks as a WebSocket, or any answer with messages after it. A
    /// handshake the server refused (Chrome marks a 403 as a WebSocket too) stays an answer.
    static func holdsConversation(_ entry: JSONValue, status: Int) -> Bool {
        switch entry[messagesKey] {
        case .array(let messages)?: return status == 101 || !messages.isEmpty
        case nil, .null?: return status == 101 && entry["_resourceType"]?.stringValue == "websocket"
        default: return true  // not a list: reading it says where
        }
    }

    /// The entry's conversation: its messages in file order, timed from `startedDateTime`.
    static func decodeConversation(_ entry: JSONValue, path: DecodingPath, issues: inout [VinylIssue]) throws -> WebSocketConversation {
        let messagesPath = path.key(messagesKey)
        let items = try entry.optionalArray(messagesKey, at: path, fix: "List the messages as [{\"type\": \"send\", \"time\": …, \"opcode\": 1, \"data\": …}]")
        // Chrome's `time` is seconds since 1970; the vinyl keeps seconds since the connection
        // opened. Without a start date, the first message's time stands in for it.
        var start = entry["startedDateTime"]?.stringValue.flatMap(ISO8601.parse)?.timeIntervalSince1970
        var messages: [WebSocketMessage] = []
        var previous: TimeInterval = 0
        var reordered = 0
        var late = 0
        for (index, item) in items.enumerated() {
            let itemPath = messagesPath.index(index)
            _ = try item.members(at: itemPath)
            let type = try item.optionalString("type", at: itemPath)
            guard let direction = type.flatMap({ directions[$0] }) else {
                issues.append(
                    VinylIssue(
                        place: itemPath.key("type").place, problem: type.map { "\"\($0)\" is not a direction" } ?? "missing \"type\"",
                        served: "the message is left out of the replay", fix: "Say who sent it: \"send\" (the client) or \"receive\" (the server)"))
                continue
            }
            let opcode = try (item["opcode"] ?? .number("1")).int(at: itemPath.key("opcode"))
            let data = try item.optionalString("data", at: itemPath) ?? ""
            guard opcode == 1 || opcode == 2 else {
                issues.append(
                    VinylIssue(
                        place: itemPath.key("opcode").place, problem: "opcode \(opcode) is \(frameNames[opcode] ?? "not a WebSocket message"), not a text (1) or binary (2) message",
                        served: "the frame is left out of the replay",
                        fix: "Remove the frame; give a close as \"\(conversationEndKey)\": {\"end\": {\"closedBy\": \"server\", \"code\": 1000}} on the entry"))
                continue
            }
            // Text frames (1) hold UTF-8, binary ones (2) base64.
            let kind: WebSocketMessage.Kind = opcode == 1 ? .text : .binary
            let payload =
                kind == .text
                ? Data(data.utf8) : try BodyCoding.base64(data, at: itemPath.key("data"), problem: "a binary message (opcode 2) is not valid base64", fix: "Store a binary message's bytes as base64")
            var offset = previous
            if let time = item["time"], time != .null {
                let seconds = try time.double(at: itemPath.key("time"))
                guard GramophoneFormat.dateRange.contains(seconds) else {
                    throw StructureError(
                        path: itemPath.key("time"), problem: "\(seconds) is not a time in seconds since 1970",
                        fix: "Give the time the message crossed in seconds since 1970, as Chrome does")
                }
                if start == nil { start = seconds }
                // To the microsecond, as Chrome writes it and Gramophone writes it back.
                let since = ((seconds - (start ?? seconds)) * 1_000_000).rounded() / 1_000_000
                if since < previous {
                    reordered += 1
                } else if since > GramophoneFormat.maximumDuration {
                    late += 1
                    offset = max(previous, GramophoneFormat.maximumDuration)
                } else {
                    offset = since
                }
            }
            previous = offset
            messages.append(WebSocketMessage(direction: direction, kind: kind, payload: payload, offset: offset))
        }
        let misplaced = [
            (
                reordered, "before the entry's startedDateTime or the message before", "each is replayed right after the message before it, in file order",
                "Give each message its time in seconds since 1970, in order, after startedDateTime"
            ),
            (
                late, "more than a day after the entry's startedDateTime", "each is replayed a day after the connection opened",
                "Split the conversation, or give the times in seconds since 1970 from startedDateTime on"
            ),
        ]
        for (count, problem, served, fix) in misplaced where count > 0 {
            issues.append(VinylIssue(place: messagesPath.place, problem: "\(count) message time\(count == 1 ? " is" : "s are") \(problem)", served: served, fix: fix))
        }
        guard let saved = entry[conversationEndKey], saved != .null else {
            issues.append(
                VinylIssue(
                    place: path.place, problem: "HAR does not record how the WebSocket connection closed",
                    served: "replayed as a connection that stays open and quiet after its last message, until the code cancels it",
                    fix: "Add \"\(conversationEndKey)\": {\"end\": {\"closedBy\": \"server\", \"code\": 1000, \"reason\": \"\"}} to the entry to replay a close"))
            return WebSocketConversation(messages: messages, end: unrecordedEnd)
        }
        let savedPath = path.key(conversationEndKey)
        _ = try saved.members(at: savedPath)
        let end = try WebSocketCoding.decodeEnd(saved["end"], path: savedPath.key("end"))
        var endOffset = previous
        if let milliseconds = saved["endOffsetMs"], milliseconds != .null {
            // To the microsecond, as the messages: a hair before the last one is at it.
            let seconds = (try milliseconds.double(at: savedPath.key("endOffsetMs")) * 1000).rounded() / 1_000_000
            guard seconds >= previous - 0.000_001, seconds <= GramophoneFormat.maximumDuration else {
                throw StructureError(
                    path: savedPath.key("endOffsetMs"), problem: "\(seconds * 1000) ms is before the last message or past a day",
                    fix: "Give the milliseconds from startedDateTime to the end, after the last message")
            }
            endOffset = max(previous, seconds)
        }
        return WebSocketConversation(messages: messages, end: end, endOffset: endOffset)
    }

    /// What the opcodes that are no message are; any other is "not a WebSocket message".
    private static let frameNames = [0: "a continuation frame", 8: "a close frame", 9: "a ping", 10: "a pong", -1: "Chrome's record of a WebSocket error"]

    /// The entry members that hold `conversation`: Chrome's, and the end Chrome has no field for.
    static func encodeConversation(_ conversation: WebSocketConversation, startedDateTime: String) -> [(key: String, value: JSONValue)] {
        // From the date as written, to the millisecond, so the times read back to the same offsets.
        let start = ISO8601.parse(startedDateTime)?.timeIntervalSince1970 ?? 0
        let messages: [JSONValue] = conversation.messages.map { message in
            .object([
                ("type", .string(message.direction == .sent ? "send" : "receive")),
                // The offset to the microsecond first: a sum near 2e9 s holds no finer.
                ("time", .number(GramophoneFormat.formatSeconds(start + (message.offset * 1_000_000).rounded() / 1_000_000))),
                ("opcode", .number(message.kind == .text ? "1" : "2")),
                ("data", .string(WebSocketCoding.storedPayload(message))),
            ])
        }
        return [
            ("_resourceType", .string("websocket")),
            (messagesKey, .array(messages)),
            (
                conversationEndKey,
                .object([
                    ("end", WebSocketCoding.encodeEnd(conversation.end)),
                    ("endOffsetMs", .number(GramophoneFormat.formatSeconds(conversation.endOffset * 1000))),
                ])
            ),
        ]
    }
}
