import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Turntable {
    /// A WebSocket task playing the conversation recorded for the handshake `request`; call
    /// `resume()` to connect.
    ///
    /// The handshake finds its track as any request does (the matching strategy, stubs first, a
    /// miss report when nothing answers). Then the server's messages arrive in recorded causal
    /// order: what the server sent after the client's Nth message waits until the code under
    /// test has sent its Nth message, at the recorded pace or at once as `timing` says. Each
    /// message sent is compared with the recorded one at its place (text exactly, JSON by value,
    /// binary by bytes); one that differs fails the connection with a `TurntableError` whose
    /// miss report names the conversation, the message and the difference.
    /// The URL forms, `webSocketTask(with: url)` and `webSocketTask(with: url, protocols:)`,
    /// come from `NetworkSession`.
    public func webSocketTask(with request: URLRequest) -> any WebSocketTask {
        TurntableWebSocketTask(turntable: self, request: request)
    }

    /// Counts and logs a message that did not fit its conversation, as a miss is, and returns
    /// the error the connection fails with.
    func conversationMissed(_ miss: ConversationMiss, handshake: Track.Request, differences: [String]) -> TurntableError {
        // Printed: the handshake as the recording redacts it, never with its live credential.
        let shown = replayRedaction.redaction.redact(handshake, allowing: replayRedaction.allowed)
        let report = deck.withLock { deck -> MissReport in
            deck.misses += 1
            var report = MissReport(
                request: shown, vinylName: deck.vinyl.name, vinylPath: deck.file?.path, strategy: deck.strategy.description, differences: differences)
            report.sourcePath = deck.sourceFile?.path
            report.records = recorder != nil
            report.nearestTrackIndex = miss.trackIndex
            report.nearestRequest = miss.trackIndex.flatMap { deck.index.tracks.indices.contains($0) ? deck.index.tracks[$0].request : nil }
            report.conversationMiss = miss
            if deck.missLog.count < Self.missLogLimit { deck.missLog.append(report) }
            return report
        }
        return .noMatchingTrack(report)
    }

    /// How recorded tracks were redacted: the recording's redaction, or the default's for a
    /// Turntable that only replays.
    var replayRedaction: (redaction: Redaction, allowed: [SecretPlace]) {
        guard let recorder else { return (.default, []) }
        return (recorder.recording.redaction, recorder.recording.allowedSecrets)
    }
}
