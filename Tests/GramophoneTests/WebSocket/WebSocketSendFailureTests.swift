#if WebSocket
import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends that race a server's close (scripts/lib/websocket_server.py's `/shut` closes with 4401
/// right after the handshake): the vinyl keeps only the messages that went out, each failure is
/// the error `URLSessionWebSocketTask` gives (`ENOTCONN`, the close code set), and the replay
/// fails the same sends the same way.
@Suite(.enabled(if: WebSocketServer.isAvailable))
struct WebSocketSendFailureTests {
    /// Sends messages one after another until three have failed (for a minute at most: a bound,
    /// not a measurement; the server closes at once, but a starved machine may take its time to
    /// say so); one line per send: "sent ×N" for a run of sends that went out, or the error's
    /// shape and the close code the task held when the send failed.
    static func sendUntilRefused(_ socket: any WebSocketTask) async -> [String] {
        socket.resume()
        var outcomes: [String] = []
        var sent = 0
        var failures = 0
        let deadline = ContinuousClock.now + .seconds(60)
        var n = 0
        while failures < 3, ContinuousClock.now < deadline {
            n += 1
            do {
                try await socket.send(.string("message \(n)"))
                sent += 1
            } catch {
                if sent > 0 { outcomes.append("sent ×\(sent)") }
                sent = 0
                let shape = error as NSError
                outcomes.append("failed \(shape.domain) \(shape.code), close \(socket.closeCodeValue)")
                failures += 1
            }
        }
        if sent > 0 { outcomes.append("sent ×\(sent)") }
        return outcomes
    }

    /// Records `/shut` until a send fails on the way out (not only once the close was seen: that
    /// is the race), and returns what each send did and the vinyl's folder.
    static func recordRacingTheClose() async throws -> (outcomes: [String], folder: URL) {
        let folder = try makeTemporaryFolder(prefix: "websocket-send-failure")
        var recording = Recording(mode: .once, environment: RecordingFixtures.localEnvironment)
        recording.isQuiet = true
        let recorder = try Turntable(vinylNamed: "shut", from: .folder(folder), recording: recording)
        let outcomes = await sendUntilRefused(recorder.webSocketTask(with: try WebSocketServer.url("/shut")))
        try await WebSocketRecordingTests.waitUntil { recorder.playback.recordedCount == 1 }
        _ = try recorder.eject()
        return (outcomes, folder)
    }

    @Test func aFailedSendIsNotRecordedAsSentAndFailsAgainOnReplay() async throws {
        let (live, folder) = try await Self.recordRacingTheClose()
        defer { try? FileManager.default.removeItem(at: folder) }
        let player = try Turntable(vinylNamed: "shut", from: .folder(folder))
        let conversation = try #require(player.vinyl.tracks.first?.response?.conversation)
        let wentOut = live.compactMap { $0.hasPrefix("sent ×") ? Int($0.dropFirst("sent ×".count)) : nil }.reduce(0, +)
        #expect(conversation.sent.count == wentOut, "\(live)")
        #expect(conversation.end == .closed(code: 4401, reason: Data("unauthorized".utf8), by: .received))

        let replayed = await Self.sendUntilRefused(player.webSocketTask(with: try WebSocketServer.url("/shut")))
        #expect(replayed == live)
        #expect(player.playback.misses == 0)
    }

    @Test func aSendThatFailsLiveGetsURLSessionsErrorWithTheCloseCode() async throws {
        let (live, folder) = try await Self.recordRacingTheClose()
        defer { try? FileManager.default.removeItem(at: folder) }
        let failures = live.filter { !$0.hasPrefix("sent") }
        #expect(failures.count == 3, "\(live)")
        let expected = "failed \(NSPOSIXErrorDomain) \(POSIXError.Code.ENOTCONN.rawValue), close 4401"
        #expect(failures.allSatisfy { $0 == expected }, "\(failures)")
    }
}
#endif
