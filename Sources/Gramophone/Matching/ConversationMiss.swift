import Foundation

/// A message the code under test sent on a replayed WebSocket that the recording does not have
/// at that place: the part of a `MissReport` that says which conversation, which message, and
/// what differs.
struct ConversationMiss: Sendable, Equatable {
    /// The track holding the conversation, by position in the vinyl; nil for a stub's.
    var trackIndex: Int?
    /// Which client message this was, from 1.
    var position: Int
    /// What the code sent.
    var sent: WebSocketMessage
    /// What the recording has there; nil when the recorded client sent fewer messages.
    var recorded: WebSocketMessage?
    /// How many messages the recorded client sent in all.
    var recordedCount: Int
    /// Where the recorded message is among the conversation's messages (both directions, from
    /// 0), as the vinyl file, `inspect` and `scan` number them; nil when there is none.
    var place: Int?

    func lines(for report: MissReport) -> [String] {
        let place = (report.sourcePath ?? report.vinylPath).map { " (\($0))" } ?? ""
        let track = trackIndex.map { "track #\($0) of vinyl \"\(report.vinylName)\"\(place)" } ?? "the stub's conversation"
        var lines = [
            "Message #\(position) sent on the WebSocket \(report.request.method) \(report.request.url.absoluteString) is not the recorded one",
            "  conversation: \(track), \(recordedCount) client message\(recordedCount == 1 ? "" : "s") recorded",
            "  sent:     \(Self.show(sent))",
        ]
        if let recorded {
            lines.append("  recorded: \(Self.show(recorded))")
            for difference in report.differences { lines.append("    " + difference) }
        } else {
            lines.append("  recorded: nothing more: the recorded client sent \(recordedCount) message\(recordedCount == 1 ? "" : "s")")
        }
        lines.append("  The connection fails with this report; receives waiting on it end with it too.")
        // The message by the place the file, `inspect --messages` and `scan` give it.
        let edit: String
        switch (trackIndex, self.place) {
        case (let index?, let message?): edit = "edit tracks[\(index)].response.webSocket.messages[\(message)] in the vinyl"
        case (nil, let message?): edit = "change messages[\(message)] of the stub's conversation"
        case (let index?, nil): edit = "add the message to tracks[\(index)].response.webSocket.messages in the vinyl"
        case (nil, nil): edit = "add the message to the stub's conversation"
        }
        lines.append(
            "  To fix: send what was recorded, record the conversation again (Recording(mode: .all) or GRAMOPHONE_RECORD_MODE=all), or \(edit)")
        return lines
    }

    private static func show(_ message: WebSocketMessage) -> String {
        "\(message.kind) \(BodyComparison.preview(message.payload))"
    }
}
