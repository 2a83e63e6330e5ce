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
    /// Sends 20 messages one after another; one line per send: "sent", or the error's shape and
    /// the close code the task held when the send failed.
    static func sendTwenty(_ socket: any WebSocketTask) async -> [String] {
        socket.resume()
        var outcomes: [String] = []
        for n in 1...20 {
            do {
                try await socket.send(.string("message \(n)"))
                outcomes.append("sent")
            } catch {
                let shape = error as NSError
                outcomes.append("failed \(shape.domain) \(shape.code), close \(socket.closeCodeValue)")
            }
        }
        return outcomes
    }

    /// Records `/shut` until a send fails on the way out (not only once the close was seen: that
    /// is the race), and returns what each send did and the vinyl's folder.
    static func recordRacingTheClose() async throws -> (outcomes: [String], folder: URL) {
        let folder = try makeTemporaryFolder(prefix: "websocket-send-failure")
        var recording = Recording(mode: .once, environment: RecordingFixtures.localEnvironment)
        recording.isQuiet = true
        let recorder = try Turntable(vinylNamed: "shut", from: .folder(folder), recording: recording)
        let outcomes = await sendTwenty(recorder.webSocketTask(with: try WebSocketServer.url("/shut")))
        try await WebSocketRecordingTests.waitUntil { recorder.playback.recordedCount == 1 }
        _ = try recorder.eject()
        return (outcomes, folder)
    }

    @Test func aFailedSendIsNotRecordedAsSentAndFailsAgainOnReplay() async throws {
        let (live, folder) = try await Self.recordRacingTheClose()
        defer { try? FileManager.default.removeItem(at: folder) }
        let player = try Turntable(vinylNamed: "shut", from: .folder(folder))
        let conversation = try #require(player.vinyl.tracks.first?.response?.conversation)
        #expect(conversation.sent.count == live.filter { $0 == "sent" }.count, "\(live)")
        #expect(conversation.end == .closed(code: 4401, reason: Data("unauthorized".utf8), by: .received))

        let replayed = await Self.sendTwenty(player.webSocketTask(with: try WebSocketServer.url("/shut")))
        #expect(replayed == live)
        #expect(player.playback.misses == 0)
    }

    @Test func aSendThatFailsLiveGetsURLSessionsErrorWithTheCloseCode() async throws {
        let (live, folder) = try await Self.recordRacingTheClose()
        defer { try? FileManager.default.removeItem(at: folder) }
        let failures = live.filter { $0 != "sent" }
        #expect(!failures.isEmpty, "the server closed at once: some sends must fail")
        let expected = "failed \(NSPOSIXErrorDomain) \(POSIXError.Code.ENOTCONN.rawValue), close 4401"
        #expect(failures.allSatisfy { $0 == expected }, "\(failures)")
    }
}
#endif
