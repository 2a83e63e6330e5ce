import Foundation

/// Conversations on handshakes the matching strategy cannot tell apart (fifty clients on one
/// echo URL) are told apart by what each client sends: a replayed conversation starts on the
/// track its handshake found, and moves to another such track at the first message that one
/// has and its own does not, as long as the two agree on everything before it.
extension TurntableWebSocketTask {
    /// How `sent` differs from `recorded`, compared by `json`; a secret the code sends is redacted
    /// as the recording was to match it, as a live request is (only after a mismatch: hits never
    /// pay for it).
    func differences(sent: WebSocketMessage, recorded: WebSocketMessage, handshake: Track.Request?, json: JSONComparison) -> [String] {
        let differences = MessageComparison.differences(sent: sent, recorded: recorded, json: json)
        guard !differences.isEmpty, let handshake else { return differences }
        let redacted = turntable.replayRedaction.redaction.redactSent(sent, request: handshake, allowing: turntable.replayRedaction.allowed)
        return redacted == sent ? differences : MessageComparison.differences(sent: redacted, recorded: recorded, json: json)
    }

    /// Moves the task to another recorded conversation whose handshake the strategy cannot tell
    /// from its own, that has `sent` as client message `position` (from 0) and agrees with the
    /// present one on every client message before it and every server message due before it.
    /// Tracks no replay has started are preferred, then the first. False when there is none.
    func rebind(sending sent: WebSocketMessage, at position: Int) -> Bool {
        let bound = state.withLock { state in
            (track: state.trackIndex, schedule: state.schedule, scale: state.scale, comparison: state.comparison, handshake: state.handshake)
        }
        guard let track = bound.track else { return false }
        let candidates = turntable.deck.withLock { deck -> [(Int, WebSocketConversation)] in
            guard track < deck.index.tracks.count else { return [] }
            let recorded = deck.index.tracks[track].request
            return deck.index.allMatches(for: recorded, parts: RequestParts(recorded))
                .filter { $0 != track }
                .sorted { (deck.conversationSends[$0] == nil ? 0 : 1, $0) < (deck.conversationSends[$1] == nil ? 0 : 1, $1) }
                .compactMap { index in deck.index.tracks[index].response?.conversation.map { (index, $0) } }
        }
        for (index, conversation) in candidates {
            let schedule = ConversationSchedule(conversation, scale: bound.scale)
            guard schedule.expected.count > position,
                differences(sent: sent, recorded: schedule.expected[position], handshake: bound.handshake, json: bound.comparison).isEmpty,
                Self.agree(schedule, bound.schedule, before: position, json: bound.comparison)
            else { continue }
            let moved = state.withLock { state -> Bool in
                guard state.phase == .open, state.trackIndex == track, state.sentTimes.count == position else { return false }
                state.schedule = schedule
                state.trackIndex = index
                state.conversationEnd = conversation.end
                return true
            }
            guard moved else { return false }
            turntable.deck.withLock { $0.movePlay(from: track, to: index, sent: position) }
            return true
        }
        return false
    }

    /// Whether two schedules have the same first `position` client messages and the same server
    /// steps up to them (what the code may have received already).
    private static func agree(_ one: ConversationSchedule, _ other: ConversationSchedule, before position: Int, json: JSONComparison) -> Bool {
        guard one.expected.count >= position, other.expected.count >= position else { return false }
        guard (0..<position).allSatisfy({ MessageComparison.differences(sent: one.expected[$0], recorded: other.expected[$0], json: json).isEmpty }) else { return false }
        let due = one.steps.prefix { $0.gate <= position }
        let otherDue = other.steps.prefix { $0.gate <= position }
        guard due.count == otherDue.count else { return false }
        return zip(due, otherDue).allSatisfy { step, otherStep in
            step.gate == otherStep.gate && step.message?.kind == otherStep.message?.kind && step.message?.payload == otherStep.message?.payload
        }
    }
}

extension Turntable.Deck {
    /// A replay moved from the conversation on track `old` to the one on track `new` after
    /// `sent` messages: the play is counted on the track it plays.
    mutating func movePlay(from old: Int, to new: Int, sent: Int) {
        guard playCounts.indices.contains(old), playCounts.indices.contains(new) else { return }
        if playCounts[old] > 0 { playCounts[old] -= 1 }
        if playCounts[old] == 0 {
            index.setPlayed(old, false)
            conversationSends[old] = nil
        }
        playCounts[new] += 1
        index.setPlayed(new, true)
        noteSent(sent, onTrack: new)
    }
}
