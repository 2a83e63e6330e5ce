import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Replayed answers that take values from the live request (`MatchingStrategy.echoing`,
/// `.jsonRPC`), recorded from real servers on loopback and replayed with new values.
@Suite("Echoing the live request in replayed answers")
struct EchoTests {
    /// A JSON-RPC call to the stream server's `/rpc`.
    static func rpc(_ body: String, stream: Bool = false) throws -> URLRequest {
        var request = URLRequest(url: try StreamServer.url("/rpc"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(stream ? "application/json, text/event-stream" : "application/json", forHTTPHeaderField: "Accept")
        request.httpBody = Data(body.utf8)
        return request
    }

    static func randomID() -> Int { Int.random(in: 1...1_000_000_000) }

    /// The three exchanges of the test, with these ids: a call, a batch (two calls and a
    /// notification), and a call answered as an event stream that carries a server notification first.
    static func exchanges(_ a: Int, _ b: String, _ c: Int, _ d: Int) throws -> [URLRequest] {
        [
            try rpc(#"{"jsonrpc":"2.0","id":\#(a),"method":"tools/list","params":{"cursor":null}}"#),
            try rpc(
                #"[{"jsonrpc":"2.0","id":"\#(b)","method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":\#(c),"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}]"#
            ),
            try rpc(#"{"jsonrpc":"2.0","id":\#(d),"method":"tools/call","params":{"name":"slow"}}"#, stream: true),
        ]
    }

    static func json(_ data: Data) throws -> Any { try JSONSerialization.jsonObject(with: data) }

    @Test(
        "a JSON-RPC exchange with random ids (single, batch, and an event stream with a server notification) records and replays with new ids, with one line",
        .enabled(if: StreamServer.isAvailable))
    func jsonRPCReplaysWithLiveIDs() async throws {
        let folder = try makeTemporaryFolder(prefix: "jsonrpc")
        defer { try? FileManager.default.removeItem(at: folder) }
        var recording = Recording(mode: .once, environment: [:])
        recording.isQuiet = true
        let recorder = try Turntable(vinylNamed: "mcp", from: .folder(folder), matching: .jsonRPC, recording: recording)
        for request in try Self.exchanges(Self.randomID(), "b-\(Self.randomID())", Self.randomID(), Self.randomID()) {
            _ = try await recorder.data(for: request)
        }
        try recorder.eject()
        #expect(recorder.vinyl.tracks.count == 3)

        let (a, b, c, d) = (Self.randomID(), "b-\(Self.randomID())", Self.randomID(), Self.randomID())
        let replay = try Turntable(vinylNamed: "mcp", from: .folder(folder), matching: .jsonRPC)
        let requests = try Self.exchanges(a, b, c, d)

        let (single, _) = try await replay.data(for: requests[0])
        let answer = try #require(try Self.json(single) as? [String: Any])
        #expect(answer["id"] as? Int == a)
        #expect((answer["result"] as? [String: Any])?["method"] as? String == "tools/list")

        let (batch, _) = try await replay.data(for: requests[1])
        let answers = try #require(try Self.json(batch) as? [[String: Any]])
        #expect(answers.count == 2)
        #expect(answers.first?["id"] as? String == b)
        #expect(answers.last?["id"] as? Int == c)
        #expect((answers.last?["result"] as? [String: Any])?["method"] as? String == "tools/call")

        // The event stream, read event by event as an MCP client reads it.
        let (bytes, _) = try await replay.bytes(for: requests[2])
        var events: [[String: Any]] = []
        for try await event in bytes.events {
            events.append(try #require(try Self.json(Data(event.data.utf8)) as? [String: Any]))
        }
        #expect(events.count == 2)
        #expect(events.first?["method"] as? String == "notifications/progress")
        #expect(events.first?["id"] == nil)
        #expect(events.last?["id"] as? Int == d)

        let playback = replay.playback
        #expect(playback.misses == 0)
        #expect(playback.echoedCount == 3)
        #expect(playback.description.contains("3 echoing the live request"))
        // The vinyl keeps the server's answers as recorded.
        #expect(replay.vinyl.tracks.map(\.response?.body) == recorder.vinyl.tracks.map(\.response?.body))
    }

    @Test("the same JSON-RPC exchange replays through a URLSession from makeURLSessionConfiguration()", .enabled(if: StreamServer.isAvailable))
    func jsonRPCThroughURLSession() async throws {
        let folder = try makeTemporaryFolder(prefix: "jsonrpc-session")
        defer { try? FileManager.default.removeItem(at: folder) }
        var recording = Recording(mode: .once, environment: [:])
        recording.isQuiet = true
        let recorder = try Turntable(vinylNamed: "mcp", from: .folder(folder), matching: .jsonRPC, recording: recording)
        let recordingSession = URLSession(configuration: recorder.makeURLSessionConfiguration())
        _ = try await recordingSession.data(for: try Self.rpc(#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#))
        recordingSession.finishTasksAndInvalidate()
        try recorder.eject()

        let replay = try Turntable(vinylNamed: "mcp", from: .folder(folder), matching: .jsonRPC)
        let session = URLSession(configuration: replay.makeURLSessionConfiguration())
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: try Self.rpc(#"{"jsonrpc":"2.0","id":"second-run","method":"initialize"}"#))
        #expect((try Self.json(data) as? [String: Any])?["id"] as? String == "second-run")
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Length") == String(data.count))
    }

    @Test("a declared echo takes a value from the live request's JSON into the replayed answer", .enabled(if: HTTPBin.isAvailable))
    func jsonValueEcho() async throws {
        let url = try HTTPBin.baseURL().appendingPathComponent("anything/echo")
        func request(nonce: String) -> URLRequest {
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"nonce":"\#(nonce)","query":"weather"}"#.utf8)
            return request
        }
        let strategy = MatchingStrategy.attributes([.method, .url, .body(ignoring: ["nonce"])]).echoing(.jsonValue(at: "json.nonce", from: "nonce"))
        let folder = try makeTemporaryFolder(prefix: "echo")
        defer { try? FileManager.default.removeItem(at: folder) }
        var recording = Recording(mode: .once, environment: [:])
        recording.isQuiet = true
        let recorder = try Turntable(vinylNamed: "echo", from: .folder(folder), matching: strategy, recording: recording)
        _ = try await recorder.data(for: request(nonce: "recorded-nonce"))
        try recorder.eject()

        let replay = try Turntable(vinylNamed: "echo", from: .folder(folder), matching: strategy)
        let (data, _) = try await replay.data(for: request(nonce: "live-nonce"))
        let echoed = try #require(try Self.json(data) as? [String: Any])
        #expect((echoed["json"] as? [String: Any])?["nonce"] as? String == "live-nonce")
        #expect((echoed["json"] as? [String: Any])?["query"] as? String == "weather")
        #expect(replay.playback.echoedCount == 1)
        // Without the echo, the recorded value comes back (the strategy is what changes it).
        let plain = try Turntable(vinylNamed: "echo", from: .folder(folder), matching: [.method, .url])
        let (recordedData, _) = try await plain.data(for: request(nonce: "live-nonce"))
        #expect(((try Self.json(recordedData) as? [String: Any])?["json"] as? [String: Any])?["nonce"] as? String == "recorded-nonce")
    }

    @Test("a miss report names the echoes of the strategy")
    func missReportNamesTheEchoes() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"), matching: .jsonRPC)
        let error = await #expect(throws: TurntableError.self) { _ = try await turntable.data(for: URLRequest(url: URL(string: "https://rpc.example.com/")!)) }
        #expect(error.map { "\($0)" }?.contains("echoing JSON-RPC response id ← request id") == true)
    }

    @Test("an event stream's answer is rewritten event by event, notifications untouched, and its chunks follow the new body")
    func eventStreamChunksFollowTheRewrite() throws {
        let notification = "event: message\ndata: {\"jsonrpc\": \"2.0\", \"method\": \"notifications/progress\"}\n\n"
        let answer = "event: message\ndata: {\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {}}\n\n"
        var response = Track.Response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data((notification + answer).utf8))
        // The answer event arrived cut in two pieces.
        response.stream = TrackStream(
            chunks: [.init(offset: 0, length: notification.utf8.count), .init(offset: 0.1, length: 20), .init(offset: 0.2, length: answer.utf8.count - 20)],
            end: .finished)
        let url = URL(string: "https://rpc.example.com/mcp")!
        let recorded = Track.Request(method: "POST", url: url, headers: Headers(), body: Data(#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#.utf8))
        let live = Track.Request(method: "POST", url: url, headers: Headers(), body: Data(#"{"jsonrpc":"2.0","id":"live-7","method":"tools/call"}"#.utf8))

        let echoed = try #require(Echo.jsonRPCID.apply(to: response, live: live, recorded: recorded))
        #expect(String(decoding: echoed.body, as: UTF8.self) == notification + "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"live-7\",\"result\":{}}\n\n")
        let chunks = try #require(echoed.stream?.chunks)
        #expect(chunks.map(\.offset) == [0, 0.1, 0.2])
        #expect(chunks.first?.length == notification.utf8.count)
        #expect(chunks.map(\.length).reduce(0, +) == echoed.body.count)
        // The same ids, or a body that is not JSON-RPC, change nothing.
        #expect(Echo.jsonRPCID.apply(to: response, live: recorded, recorded: recorded) == nil)
        let text = Track.Response(status: 200, headers: ["Content-Type": "text/plain"], body: Data("id 1".utf8))
        #expect(Echo.jsonRPCID.apply(to: text, live: live, recorded: recorded) == nil)
    }
}
