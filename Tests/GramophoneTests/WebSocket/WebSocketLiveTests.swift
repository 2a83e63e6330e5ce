import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a recording Turntable does with a WebSocket it has no track for, and how a recorded
/// conversation is redacted, on every build (the live recordings themselves are in
/// WebSocketRecordingTests, with the `WebSocket` trait).
@Suite struct WebSocketLiveTests {
    #if canImport(FoundationNetworking) && !WebSocket
    @Test func recordingOnLinuxWithoutTheTraitSaysWhichTraitToEnable() async throws {
        let folder = try makeTemporaryFolder(prefix: "websocket-no-trait")
        defer { try? FileManager.default.removeItem(at: folder) }
        let turntable = try Turntable(vinylNamed: "chat", from: .folder(folder), recording: Recording(mode: .once, environment: [:]))
        let socket = turntable.webSocketTask(with: URL(string: "ws://127.0.0.1:9/echo")!)
        socket.resume()
        let error = await #expect(throws: URLError.self) { try await socket.receive() }
        #expect(error?.localizedDescription.contains("needs Gramophone's WebSocket package trait") == true, "\(String(describing: error))")
        #expect(turntable.playback.recordedCount == 0)
    }
    #endif

    @Test func payloadsAreRedactedAsBodiesAndTheHandshakesSecretsScrubbedFromThem() {
        let conversation = WebSocketConversation(messages: [
            .sent(.text(#"{"type":"auth","api_key":"k-123456789","text":"hi"}"#)),
            .received(.text("welcome, your token is tok-abcdefgh")),
            .received(.binary(Data("tok-abcdefgh".utf8))),
        ])
        let track = Track(
            request: Track.Request(url: URL(string: "wss://chat.example.com/socket")!, headers: ["Authorization": "Bearer tok-abcdefgh"]),
            outcome: .response(.webSocket(conversation)))
        let redacted = Redaction.default.redact(track)
        let payloads = redacted.response?.conversation?.messages.map { String(decoding: $0.payload, as: UTF8.self) } ?? []
        #expect(redacted.request.headers["Authorization"] == nil)
        #expect(payloads[0] == #"{"type":"auth","api_key":"REDACTED","text":"hi"}"#)
        #expect(!payloads[1].contains("tok-abcdefgh") && !payloads[2].contains("tok-abcdefgh"), "\(payloads)")
        #expect(RedactedPlaces.places(from: track, to: redacted).contains(#"response.webSocket.messages (sent) JSON "api_key""#))
    }

    @Test func aSecretTheCodeSendsMatchesItsRedactedRecording() async throws {
        let recorded = Redaction.default.redact(
            Track(
                request: Track.Request(url: URL(string: "wss://chat.example.com/socket")!),
                outcome: .response(.webSocket(WebSocketConversation(messages: [.sent(.text(#"{"password":"hunter2-secret"}"#)), .received(.text("ok"))], end: .stopped("1 message"))))))
        let socket = Turntable(vinyl: Vinyl(name: "chat", tracks: [recorded])).webSocketTask(with: recorded.request.url)
        socket.resume()
        try await socket.send(.string(#"{"password":"hunter2-secret"}"#))
        guard case .string(let reply) = try await socket.receive() else {
            Issue.record("no text reply")
            return
        }
        #expect(reply == "ok")
    }

    @Test func sentinelsAndCountsStopARecordingAsTheyStopAStream() {
        let limit = StreamLimit(sentinels: ["response.done"], events: 3)
        #expect(TurntableWebSocketTask.limitReached(limit, by: .received(.text(#"{"type":"response.done"}"#)), count: 1) == "sentinel response.done")
        #expect(TurntableWebSocketTask.limitReached(limit, by: .received(.text("response.done")), count: 1) == "sentinel response.done")
        #expect(TurntableWebSocketTask.limitReached(limit, by: .received(.text("delta")), count: 2) == nil)
        #expect(TurntableWebSocketTask.limitReached(limit, by: .received(.text("delta")), count: 3) == "3 messages")
    }
}
