#if WebSocket
import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A chat app's flows recorded against the real servers (httpbin for the login, our WebSocket
/// server's `/room`), then replayed offline with the same code: what one request records, the
/// next replays (issue 44, items 1 and 2, through a WebSocket handshake).
@Suite(.enabled(if: WebSocketServer.isAvailable && HTTPBin.isAvailable))
struct WebSocketFlowTests {
    /// The app: logs in (httpbin's `/anything` answers with the JSON it was sent, so the token
    /// comes back in the answer as a server's would), then joins the room with that token in the
    /// handshake's query, says hello and reads the welcome and the echo.
    static func chat(on session: Turntable, name: String) async throws -> [String] {
        var login = URLRequest(url: try HTTPBin.baseURL().appendingPathComponent("anything/login"))
        login.httpMethod = "POST"
        login.setValue("application/json", forHTTPHeaderField: "Content-Type")
        login.httpBody = Data(#"{"user":"ada","access_token":"s3cr3t-live-token-42"}"#.utf8)
        let (body, _) = try await session.data(for: login)
        let answer = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        let token = try #require((answer?["json"] as? [String: Any])?["access_token"] as? String)

        var room = URLComponents(url: try WebSocketServer.url("/room"), resolvingAgainstBaseURL: false)!
        room.queryItems = [URLQueryItem(name: "name", value: name), URLQueryItem(name: "token", value: token)]
        let socket = session.webSocketTask(with: room.url!)
        socket.resume()
        var transcript: [String] = []
        transcript.append(WebSocketRecordingTests.show(try await socket.receive()))
        try await socket.send(.string("hello"))
        transcript.append(WebSocketRecordingTests.show(try await socket.receive()))
        socket.cancel(with: .normalClosure, reason: nil)
        return transcript
    }

    @Test func aLoginThenConnectFlowRecordedWithTheDefaultRedactionReplaysOffline() async throws {
        let folder = try makeTemporaryFolder(prefix: "websocket-flow")
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "ada-\(UUID().uuidString.prefix(8))"
        let recorder = try Turntable(
            vinylNamed: "chat", from: .folder(folder), recording: Recording(mode: .once, environment: RecordingFixtures.localEnvironment))
        let live = try await Self.chat(on: recorder, name: name)
        try await WebSocketRecordingTests.waitUntil { recorder.playback.recordedCount == 2 }
        _ = try recorder.eject()
        // The token is kept off disk: the login's answer and the handshake's query hold the mask.
        let written = try String(contentsOf: folder.appendingPathComponent("chat.json"), encoding: .utf8)
        #expect(!written.contains("s3cr3t-live-token-42"))

        // Replayed offline: the app takes the masked token from the replayed login and sends it
        // in the handshake, which must meet the handshake recorded with the real one.
        let player = try Turntable(vinylNamed: "chat", from: .folder(folder))
        let replayed = try await Self.chat(on: player, name: name)
        #expect(live == [#"{"welcome":"\#(name)","history":0}"#, "hello"])
        #expect(replayed == live)
        #expect(player.playback.misses == 0, "\(player.playback.missReports)")
    }

    @Test func aReconnectWithinOneRecordingRunReachesTheServerTwiceAndReplaysBothVisitsInOrder() async throws {
        let folder = try makeTemporaryFolder(prefix: "websocket-reconnect")
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "grace-\(UUID().uuidString.prefix(8))"
        let recorder = try Turntable(
            vinylNamed: "reconnect", from: .folder(folder), recording: Recording(mode: .once, environment: RecordingFixtures.localEnvironment))
        let first = try await Self.chat(on: recorder, name: name)
        try await WebSocketRecordingTests.waitUntil { recorder.playback.recordedCount == 2 }
        // The same login and the same handshake again: the server must see the second visit.
        let second = try await Self.chat(on: recorder, name: name)
        try await WebSocketRecordingTests.waitUntil { recorder.playback.recordedCount == 4 }
        _ = try recorder.eject()
        #expect(first.first == #"{"welcome":"\#(name)","history":0}"#)
        #expect(second.first == #"{"welcome":"\#(name)","history":1}"#)

        let player = try Turntable(vinylNamed: "reconnect", from: .folder(folder))
        #expect(try await Self.chat(on: player, name: name) == first)
        #expect(try await Self.chat(on: player, name: name) == second)
        #expect(player.playback.misses == 0, "\(player.playback.missReports)")
    }
}
#endif
