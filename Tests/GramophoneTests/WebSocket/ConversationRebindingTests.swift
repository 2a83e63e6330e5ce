import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A conversation that moves to another recorded track (its handshake matched several, and what
/// it sends is another's) gives its first track back, to be played by the next connection.
@Suite struct ConversationRebindingTests {
    static let url = URL(string: "wss://chat.example.com/echo")!

    static func conversation(says text: String) -> Track {
        Track(
            request: Track.Request(url: url),
            outcome: .response(
                .webSocket(
                    WebSocketConversation(
                        messages: [.received(.text("welcome")), .sent(.text(text)), .received(.text(text))],
                        end: .closed(code: 1000, by: .received)))))
    }

    /// Opened, its welcome read: the handshake has played a track.
    static func open(_ turntable: Turntable) async throws -> any WebSocketTask {
        let socket = turntable.webSocketTask(with: url)
        socket.resume()
        guard case .string("welcome") = try await socket.receive() else {
            Issue.record("the conversation starts with its welcome")
            return socket
        }
        return socket
    }

    /// With the default strategy, and with one that leaves bodies out of the index.
    @Test(arguments: [MatchingStrategy.default, .attributes([.method, .url])])
    func aTrackGivenBackIsTheNextConnectionsAfterLaterOnesPlayed(matching: MatchingStrategy) async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "echo", tracks: [Self.conversation(says: "a"), Self.conversation(says: "b")]), matching: matching)
        let first = try await Self.open(turntable)  // track 0
        _ = try await Self.open(turntable)  // track 1
        // The first client says what track 1 holds: it moves there and gives track 0 back.
        try await first.send(.string("b"))
        #expect(turntable.playback.playCounts == [0, 2])
        // The next connection is track 0's, not the last occurrence's again.
        let third = try await Self.open(turntable)
        #expect(turntable.playback.playCounts == [1, 2])
        #expect(turntable.playback.unplayedTracks.isEmpty)
        third.cancel(with: .normalClosure, reason: nil)
    }
}
