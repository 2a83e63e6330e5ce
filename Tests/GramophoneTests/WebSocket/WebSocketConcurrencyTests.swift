import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Many conversations on one Turntable at once (scripts/test runs the suites named
/// `Concurrency` under ThreadSanitizer): each gets its own track, in its own causal order, and
/// the Turntable's counts add up.
@Suite struct WebSocketConcurrencyTests {
    @Test func fiftyConversationsReplayAtOnceEachInItsOwnOrder() async throws {
        let rooms = 50
        let tracks = (0..<rooms).map { room in
            Track(
                request: Track.Request(url: URL(string: "wss://chat.example.com/rooms/\(room)")!),
                outcome: .response(
                    .webSocket(
                        WebSocketConversation(
                            messages: [.received(.text("welcome \(room)"))]
                                + (1...10).flatMap { n in [WebSocketMessage.sent(.text(#"{"n":\#(n)}"#)), .received(.text("\(room)-\(n)"))] },
                            end: .closed(code: 4000 + room, by: .received)))))
        }
        let turntable = Turntable(vinyl: Vinyl(name: "rooms", tracks: tracks))
        let transcripts = try await withThrowingTaskGroup(of: (Int, [String], Int).self) { group in
            for room in 0..<rooms {
                group.addTask {
                    let socket = turntable.webSocketTask(with: URL(string: "wss://chat.example.com/rooms/\(room)")!)
                    socket.resume()
                    var seen: [String] = []
                    if case .string(let text) = try await socket.receive() { seen.append(text) }
                    for n in 1...10 {
                        // Half send with the completion handler, half with async send.
                        if room.isMultiple(of: 2) {
                            try await socket.send(.string(#"{"n":\#(n)}"#))
                        } else {
                            let error: (any Error)? = await withCheckedContinuation { continuation in
                                socket.send(.string(#"{ "n" : \#(n) }"#)) { continuation.resume(returning: $0) }
                            }
                            if let error { throw error }
                        }
                        if case .string(let text) = try await socket.receive() { seen.append(text) }
                    }
                    _ = try? await socket.receive()
                    return (room, seen, socket.closeCodeValue)
                }
            }
            var all: [Int: ([String], Int)] = [:]
            for try await (room, seen, code) in group { all[room] = (seen, code) }
            return all
        }
        for room in 0..<rooms {
            #expect(transcripts[room]?.0 == ["welcome \(room)"] + (1...10).map { "\(room)-\($0)" })
            #expect(transcripts[room]?.1 == 4000 + room)
        }
        #expect(turntable.playback.requestsAnswered == rooms)
        #expect(turntable.playback.misses == 0)
        #expect(turntable.playback.allPlayed)
    }
}
