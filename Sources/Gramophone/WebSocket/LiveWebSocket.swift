import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The answer to a WebSocket handshake that must go to the real network: recorded (a recording
/// Turntable with nothing to replay) or passed through (a host the recording leaves alone).
/// The WebSocket task opens the live connection itself, so it sees every message.
struct LiveWebSocket: Error {
    /// Whether the conversation is kept as a new track.
    var records: Bool
}

extension Answer {
    static func liveWebSocket(records: Bool) -> Answer {
        Answer(outcome: .failure(LiveWebSocket(records: records)), source: .network)
    }
}
