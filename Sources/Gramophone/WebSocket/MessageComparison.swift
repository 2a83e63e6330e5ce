import Foundation

/// Whether a message the code under test sends is the one the recording has at that place:
/// text exactly, or, where both are JSON, by value as `Matcher.body` compares bodies (key order
/// and number spelling do not matter, nor the paths the strategy's `.body(ignoring:)` leaves
/// out); binary byte for byte; a text frame never equals a binary one.
enum MessageComparison {
    /// One line per difference (sent value first, as a miss report shows them); empty when they
    /// match. `json` compares JSON messages: the matching strategy's body comparison.
    static func differences(sent: WebSocketMessage, recorded: WebSocketMessage, json: JSONComparison = JSONComparison()) -> [String] {
        guard sent.kind == recorded.kind else {
            return ["kind: \(sent.kind) vs \(recorded.kind)", "message: \(BodyComparison.preview(sent.payload)) vs \(BodyComparison.preview(recorded.payload))"]
        }
        if sent.payload == recorded.payload { return [] }
        if sent.kind == .text, let live = try? JSONParser.parse(sent.payload), let kept = try? JSONParser.parse(recorded.payload) {
            if json.canonicalText(live) == json.canonicalText(kept) { return [] }
            return json.differences(live, kept, prefix: "message")
        }
        if sent.kind == .binary {
            return [
                "message: \(BodyComparison.grouped(sent.payload.count)) vs \(BodyComparison.grouped(recorded.payload.count)) bytes, first difference at byte \(firstDifference(sent.payload, recorded.payload))"
            ]
        }
        return ["message: \(BodyComparison.preview(sent.payload)) vs \(BodyComparison.preview(recorded.payload))"]
    }

    /// The JSON comparison of `strategy`'s body matcher, which messages are compared by too.
    static func json(of strategy: MatchingStrategy) -> JSONComparison {
        for matcher in strategy.matchers {
            if case .body(let comparison) = matcher.kind { return comparison.json }
            if case .graphQL(let comparison) = matcher.kind { return comparison.json }
        }
        return JSONComparison()
    }

    private static func firstDifference(_ a: Data, _ b: Data) -> Int {
        zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
    }
}
