import Foundation

/// When each server message of a recorded conversation is due on replay: causal order and pace.
///
/// A server message waits for as many client messages as preceded it in the recording (what the
/// server sent after the client's Nth message waits for that message), and then for its
/// recorded distance from the later of that client message and the server message before it,
/// scaled by the timing (nothing at all for `.immediate`).
struct ConversationSchedule: Sendable {
    struct Step: Sendable {
        /// The client messages that must have been sent before this one is delivered.
        var gate: Int
        /// Seconds after the later of its gate's send and the delivery before it.
        var delay: TimeInterval
        /// The message, or nil for the server's close frame (or the error that ended it).
        var message: WebSocketMessage?
    }

    var steps: [Step] = []
    /// The client messages, in order: what the code under test must send.
    var expected: [WebSocketMessage] = []
    /// Where each of `expected` is among the conversation's messages (both directions, from 0),
    /// as the vinyl file, `inspect` and `scan` number them.
    var expectedPlaces: [Int] = []

    /// The connection ends from the far side (the server's close, a break) once the client has
    /// sent all it sent: a send after that fails with that end, as it did live.
    var endsAfterLastSend: Bool { steps.last.map { $0.message == nil } ?? false }

    init(_ conversation: WebSocketConversation, scale: (TimeInterval) -> TimeInterval) {
        var sentOffset: TimeInterval = 0
        var previousReceived: TimeInterval = 0
        func delay(until offset: TimeInterval) -> TimeInterval { scale(max(0, offset - max(sentOffset, previousReceived))) }
        for (place, message) in conversation.messages.enumerated() {
            switch message.direction {
            case .sent:
                expected.append(message)
                expectedPlaces.append(place)
                sentOffset = message.offset
            case .received:
                steps.append(Step(gate: expected.count, delay: delay(until: message.offset), message: message))
                previousReceived = message.offset
            }
        }
        // The server's close, the break or the limit's close comes after everything the client
        // sent before it.
        switch conversation.end {
        case .closed(_, _, .received), .failed, .stopped:
            steps.append(Step(gate: expected.count, delay: delay(until: conversation.endOffset), message: nil))
        case .closed(_, _, .sent), .cancelled, .leftOpen:
            break
        }
    }
}

extension Turntable {
    /// How a conversation's recorded gaps become replay delays under the Turntable's timing.
    func conversationScale(stubbed: Bool) -> @Sendable (TimeInterval) -> TimeInterval {
        // A stub's pacing is its own, whatever the timing, as its delay is.
        if stubbed { return { $0 } }
        switch settings.withLock({ $0.timing }) {
        case .immediate: return { _ in 0 }
        case .chunkInterval(let seconds): return { _ in StreamPlan.clamped(seconds) }
        case .recordedDuration(let speed), .chronological(let speed):
            guard speed.isFinite, speed > 0 else { return { _ in 0 } }
            return { StreamPlan.clamped($0 / speed) }
        }
    }
}
