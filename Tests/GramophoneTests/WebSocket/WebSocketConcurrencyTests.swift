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

    @Test func fiftyConversationsOnOneURLAreToldApartByWhatEachSends() async throws {
        let url = URL(string: "wss://chat.example.com/echo")!
        let clients = 50
        // Recorded in whatever order the clients happened to connect: track n is not client n's.
        let tracks = (0..<clients).reversed().map { client in
            Track(
                request: Track.Request(url: url),
                outcome: .response(
                    .webSocket(
                        WebSocketConversation(
                            messages: [
                                .received(.text("welcome")),
                                .sent(.text("hello from \(client)")), .received(.text("hello from \(client)")),
                                .sent(.text("bye from \(client)")), .received(.text("bye from \(client)")),
                            ], end: .closed(code: 1000, by: .received)))))
        }
        let turntable = Turntable(vinyl: Vinyl(name: "echo", tracks: tracks))
        let transcripts = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            for client in 0..<clients {
                group.addTask {
                    let socket = turntable.webSocketTask(with: url)
                    socket.resume()
                    var seen: [String] = []
                    for text in ["hello from \(client)", "bye from \(client)"] {
                        try await socket.send(.string(text))
                        while case .string(let reply) = try await socket.receive() {
                            seen.append(reply)
                            if reply == text { break }
                        }
                    }
                    return (client, seen)
                }
            }
            var all: [Int: [String]] = [:]
            for try await (client, seen) in group { all[client] = seen }
            return all
        }
        for client in 0..<clients {
            #expect(transcripts[client] == ["welcome", "hello from \(client)", "bye from \(client)"])
        }
        #expect(turntable.playback.misses == 0)
        #expect(turntable.playback.allPlayed, "\(turntable.playback.playCounts)")
    }
}
