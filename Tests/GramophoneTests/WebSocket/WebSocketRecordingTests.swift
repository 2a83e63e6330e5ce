#if WebSocket
import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Recording real conversations through the `WebSocket` trait's client from our WebSocket server
/// on loopback (scripts/lib/websocket_server.py), then replaying each offline from the vinyl
/// written: the same messages, in the same causal order, and the same close.
@Suite(.enabled(if: WebSocketServer.isAvailable))
struct WebSocketRecordingTests {
    typealias Conversation = @Sendable (any WebSocketTask) async throws -> [String]

    /// Runs `conversation` against the real server, recording it into a fresh folder, then
    /// against a replaying Turntable reading the vinyl written; returns both transcripts and
    /// the recorded track.
    static func recordThenReplay(
        _ path: String, recording: Recording = Recording(mode: .once, environment: RecordingFixtures.localEnvironment),
        headers: [String: String] = [:], _ conversation: Conversation
    ) async throws -> (live: [String], replayed: [String], track: Track) {
        let folder = try makeTemporaryFolder(prefix: "websocket-recording")
        defer { try? FileManager.default.removeItem(at: folder) }
        var request = URLRequest(url: try WebSocketServer.url(path))
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }

        let recorder = try Turntable(vinylNamed: "conversation", from: .folder(folder), recording: recording)
        let live = try await conversation(recorder.webSocketTask(with: request))
        // The recording ends at the close; give the close a moment to be kept before ejecting.
        try await waitUntil { recorder.playback.recordedCount == 1 }
        _ = try recorder.eject()

        let player = try Turntable(vinylNamed: "conversation", from: .folder(folder))
        let replayed = try await conversation(player.webSocketTask(with: request))
        #expect(player.playback.misses == 0)
        let track = try #require(player.vinyl.tracks.first)
        return (live, replayed, track)
    }

    static func waitUntil(_ condition: @Sendable () -> Bool) async throws {
        // A bound, not a measurement: a minute, so a starved machine (CI's) cannot fail it.
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(condition(), "the conversation was not recorded")
    }

    static func show(_ message: URLSessionWebSocketTask.Message) -> String {
        switch message {
        case .string(let text): return text
        case .data(let data): return "bytes " + data.map(String.init).joined(separator: ",")
        @unknown default: return "?"
        }
    }

    static func closing(_ socket: any WebSocketTask) async -> String {
        do {
            let message = try await socket.receive()
            return "unexpected " + show(message)
        } catch {
            return "closed \(socket.closeCodeValue) \(String(decoding: socket.closeReason ?? Data(), as: UTF8.self))"
        }
    }

    @Test func echoRecordsAndReplays() async throws {
        let (live, replayed, track) = try await Self.recordThenReplay("/echo") { socket in
            socket.resume()
            var transcript: [String] = []
            for text in ["hello", "again"] {
                try await socket.send(.string(text))
                transcript.append(Self.show(try await socket.receive()))
            }
            socket.cancel(with: .normalClosure, reason: Data("bye".utf8))
            return transcript
        }
        #expect(live == ["hello", "again"])
        #expect(replayed == live)
        let conversation = try #require(track.response?.conversation)
        #expect(conversation.messages.map(\.direction) == [.sent, .received, .sent, .received])
        #expect(conversation.end == .closed(code: 1000, reason: Data("bye".utf8), by: .sent))
        #expect(track.response?.status == 101)
        #expect(track.request.url.scheme == "ws")
    }

    @Test func pushesBeforeTheFirstMessageReplayBeforeIt() async throws {
        let (live, replayed, track) = try await Self.recordThenReplay("/push?count=3") { socket in
            socket.resume()
            var transcript: [String] = []
            for _ in 0..<3 { transcript.append(Self.show(try await socket.receive())) }
            try await socket.send(.string("now"))
            transcript.append(Self.show(try await socket.receive()))
            socket.cancel(with: .normalClosure, reason: nil)
            return transcript
        }
        #expect(live == ["push 1", "push 2", "push 3", "now"])
        #expect(replayed == live)
        let directions = try #require(track.response?.conversation).messages.map(\.direction)
        #expect(directions == [.received, .received, .received, .sent, .received])
    }

    @Test func jsonRequestsAreAnsweredByIdAndMatchByValue() async throws {
        let (live, replayed, _) = try await Self.recordThenReplay("/rpc") { socket in
            socket.resume()
            var transcript: [String] = []
            for (id, method) in [(1, "join"), (2, "say")] {
                try await socket.send(.string(#"{"id":\#(id),"method":"\#(method)","params":{}}"#))
                transcript.append(Self.show(try await socket.receive()))
            }
            socket.cancel(with: .normalClosure, reason: nil)
            return transcript
        }
        #expect(live == [#"{"id":1,"result":"JOIN"}"#, #"{"id":2,"result":"SAY"}"#])
        #expect(replayed == live)
    }

    @Test func binaryFramesRecordAsBytes() async throws {
        let (live, replayed, track) = try await Self.recordThenReplay("/binary") { socket in
            socket.resume()
            try await socket.send(.data(Data([1, 2, 3, 255])))
            let reply = Self.show(try await socket.receive())
            socket.cancel(with: .normalClosure, reason: nil)
            return [reply]
        }
        #expect(live == ["bytes 255,3,2,1"])
        #expect(replayed == live)
        #expect(try #require(track.response?.conversation).messages.map(\.kind) == [.binary, .binary])
    }

    @Test func aHundredMessageExchangeKeepsItsOrderAndTheServersClose() async throws {
        let (live, replayed, track) = try await Self.recordThenReplay("/count") { socket in
            socket.resume()
            var transcript: [String] = []
            for n in 1...100 {
                try await socket.send(.string("message \(n)"))
                transcript.append(Self.show(try await socket.receive()))
            }
            try await socket.send(.string("bye"))
            transcript.append(await Self.closing(socket))
            return transcript
        }
        #expect(live == (1...100).map { "ack \($0)" } + ["closed 1000 done"])
        #expect(replayed == live)
        let conversation = try #require(track.response?.conversation)
        #expect(conversation.messages.count == 201)
        #expect(conversation.end == .closed(code: 1000, reason: Data("done".utf8), by: .received))
    }

    @Test func applicationCloseCodesRecordAndReplay() async throws {
        let (live, replayed, _) = try await Self.recordThenReplay("/close?code=4001&reason=room%20closed") { socket in
            socket.resume()
            try await socket.send(.string("anything"))
            return [await Self.closing(socket)]
        }
        #expect(live == ["closed 4001 room closed"])
        #expect(replayed == live)
    }

    @Test func aServerThatDropsTheConnectionRecordsTheError() async throws {
        let (live, replayed, track) = try await Self.recordThenReplay("/error") { socket in
            socket.resume()
            try await socket.send(.string("anything"))
            do {
                _ = try await socket.receive()
                return ["unexpected message"]
            } catch {
                return ["failed \((error as? URLError)?.code.rawValue ?? 0)"]
            }
        }
        #expect(live == ["failed \(URLError.Code.networkConnectionLost.rawValue)"])
        #expect(replayed == live)
        guard case .failed = try #require(track.response?.conversation).end else {
            Issue.record("a dropped connection should be recorded as an error")
            return
        }
    }

    @Test func aStreamLimitStopsTheRecordingAndTheConnection() async throws {
        let recording = Recording(mode: .once, streamLimit: StreamLimit(events: 2), environment: RecordingFixtures.localEnvironment)
        let (live, replayed, track) = try await Self.recordThenReplay("/push?count=5", recording: recording) { socket in
            socket.resume()
            let first = Self.show(try await socket.receive())
            let second = Self.show(try await socket.receive())
            return [first, second, await Self.closing(socket)]
        }
        #expect(live == ["push 1", "push 2", "closed 1001 recording stopped at its StreamLimit: 2 messages"])
        #expect(replayed == live)
        #expect(try #require(track.response?.conversation).end == .stopped("2 messages"))
    }

    @Test func aTimeLimitStopsAConversationNobodyEnds() async throws {
        let folder = try makeTemporaryFolder(prefix: "websocket-recording")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try WebSocketServer.url("/echo")
        var recording = Recording(mode: .once, streamLimit: StreamLimit(sentinels: [], seconds: 4), environment: RecordingFixtures.localEnvironment)
        recording.isQuiet = true
        let recorder = try Turntable(vinylNamed: "timed", from: .folder(folder), recording: recording)
        let socket = recorder.webSocketTask(with: url)
        socket.resume()
        try await socket.send(.string("hello"))
        #expect(Self.show(try await socket.receive()) == "hello")
        // Nothing more comes: the limit's time ends the conversation, for the code too (long
        // enough that a busy machine still answers the echo in time).
        #expect(await Self.closing(socket) == "closed 1001 recording stopped at its StreamLimit: 4.0 seconds")
        try await Self.waitUntil { recorder.playback.recordedCount == 1 }
        _ = try recorder.eject()

        // Replayed, the limit's close comes after the last message, as it came live.
        let player = try Turntable(vinylNamed: "timed", from: .folder(folder))
        let replayed = player.webSocketTask(with: url)
        replayed.resume()
        try await replayed.send(.string("hello"))
        #expect(Self.show(try await replayed.receive()) == "hello")
        #expect(await Self.closing(replayed) == "closed 1001 recording stopped at its StreamLimit: 4.0 seconds")
        #expect(player.playback.misses == 0)
        #expect(try #require(player.vinyl.tracks.first?.response?.conversation).end == .stopped("4.0 seconds"))
    }

    @Test func aConversationStillOpenAtEjectIsWrittenAsFarAsItGotAndSaysSo() async throws {
        let folder = try makeTemporaryFolder(prefix: "websocket-recording")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try WebSocketServer.url("/echo")
        var recording = Recording(mode: .once, environment: RecordingFixtures.localEnvironment)
        recording.isQuiet = true
        let recorder = try Turntable(vinylNamed: "open", from: .folder(folder), recording: recording)
        let socket = recorder.webSocketTask(with: url)
        socket.resume()
        try await socket.send(.string("before"))
        #expect(Self.show(try await socket.receive()) == "before")

        let report = try #require(try recorder.eject())
        #expect(report.conversationsStoppedAtEject == 1)
        #expect(report.description.contains("1 WebSocket conversation was still open at eject and written as recorded so far"), "\(report)")
        // The connection stays open for the code under test, no longer recorded.
        try await socket.send(.string("after"))
        #expect(Self.show(try await socket.receive()) == "after")
        socket.cancel(with: .normalClosure, reason: nil)

        let player = try Turntable(vinylNamed: "open", from: .folder(folder))
        let conversation = try #require(player.vinyl.tracks.first?.response?.conversation)
        #expect(conversation.messages.map { String(decoding: $0.payload, as: UTF8.self) } == ["before", "before"])
        #expect(conversation.end == .leftOpen("the Turntable was ejected while the conversation was open"))
    }

    @Test func aWrongMessageOnReplayGetsTheMissReport() async throws {
        let (_, _, track) = try await Self.recordThenReplay("/echo") { socket in
            socket.resume()
            try await socket.send(.string("right"))
            let reply = Self.show(try await socket.receive())
            socket.cancel(with: .normalClosure, reason: nil)
            return [reply]
        }
        let player = Turntable(vinyl: Vinyl(name: "echo", tracks: [track]))
        let socket = player.webSocketTask(with: track.request.url)
        socket.resume()
        let error = await #expect(throws: TurntableError.self) { try await socket.send(.string("wrong")) }
        let text = error?.description ?? ""
        #expect(text.contains("Message #1 sent on the WebSocket GET \(track.request.url.absoluteString)"), "\(text)")
        #expect(text.contains("sent:     text wrong"), "\(text)")
        #expect(text.contains("recorded: text right"), "\(text)")
    }

    @Test func handshakeCredentialsAndSecretPayloadsAreRedactedAndStillReplay() async throws {
        let (live, replayed, track) = try await Self.recordThenReplay("/echo", headers: ["Authorization": "Bearer sk-live-0123456789abcdef"]) { socket in
            socket.resume()
            try await socket.send(.string(#"{"user":"ada","password":"hunter2-secret"}"#))
            let reply = Self.show(try await socket.receive())
            socket.cancel(with: .normalClosure, reason: nil)
            return [reply.contains("hunter2-secret") ? "echoed the password" : reply]
        }
        #expect(live == ["echoed the password"])
        // The vinyl holds the redacted echo; the live message, redacted the same way, still matched.
        #expect(replayed == [#"{"user":"ada","password":"REDACTED"}"#])
        #expect(track.request.headers["Authorization"] == nil)
        let payloads = try #require(track.response?.conversation).messages.map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(payloads.allSatisfy { !$0.contains("hunter2-secret") && $0.contains("REDACTED") }, "\(payloads)")
    }
}
#endif
