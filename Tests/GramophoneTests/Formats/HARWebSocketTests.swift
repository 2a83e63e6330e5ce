import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// WebSocket conversations in HAR, in Chrome's `_webSocketMessages` shape: a conversation a
/// browser recorded replays, a vinyl's conversation survives a write and a read, and what HAR
/// cannot hold (the close Chrome does not record, frames that are not messages) is said.
@Suite struct HARWebSocketTests {
    static let socketURL = URL(string: "wss://chat.example.com/socket?room=lobby")!

    static func browserExport() throws -> Vinyl {
        try Vinyl(contentsOf: FormatFiles.resource("HAR/browser-websocket.har"))
    }

    static func text(_ message: URLSessionWebSocketTask.Message) -> String? {
        if case .string(let text) = message { return text }
        return nil
    }

    static func read(_ json: String) throws -> Vinyl {
        try Vinyl(data: Data(json.utf8), name: "hand", format: .har, file: "hand.har")
    }

    /// One entry answered `status`, with `messages` (a JSON array) and any other `extra` members.
    static func entry(status: Int = 101, messages: String, extra: String = "") -> String {
        """
        {"log": {"entries": [{"startedDateTime": "2026-11-20T10:00:00.000Z", \(extra)
          "request": {"method": "GET", "url": "ws://localhost:8080/echo"},
          "response": {"status": \(status)}, "_resourceType": "websocket", "_webSocketMessages": \(messages)}]}}
        """
    }

    @Test func aBrowsersConversationReadsInOrderWithSidesKindsAndTimes() throws {
        let vinyl = try Self.browserExport()
        #expect(vinyl.tracks.count == 2)
        #expect(vinyl.tracks[0].response?.conversation == nil, "the page itself is plain HTTP")
        let handshake = vinyl.tracks[1]
        #expect(handshake.request.url == Self.socketURL)
        #expect(handshake.request.headers["Sec-WebSocket-Protocol"] == "chat")
        let response = try #require(handshake.response)
        #expect(response.status == 101)
        #expect(response.headers["Upgrade"] == "websocket")
        let conversation = try #require(response.conversation)
        #expect(
            conversation.messages == [
                .received(.text(#"{"type":"welcome","room":"lobby","users":2}"#), at: 0.05),
                .sent(.text(#"{"id":1,"type":"join","name":"ada"}"#), at: 0.12),
                .received(.text(#"{"id":1,"type":"joined","ok":true}"#), at: 0.135),
                .received(.text(#"{"type":"message","from":"grace","text":"hi ada"}"#), at: 0.8),
                .sent(.text(#"{"id":2,"type":"say","text":"hello grace"}"#), at: 1.5),
                .received(.text(#"{"id":2,"type":"said","ok":true}"#), at: 1.512),
                .sent(.binary(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])), at: 2.0),
                .received(.text(#"{"id":3,"type":"uploaded","bytes":10}"#), at: 2.03),
            ])
        // Chrome does not record the close: the conversation stays open, and the reader says so.
        #expect(conversation.end == .leftOpen("HAR, which does not record the close"))
        #expect(conversation.endOffset == 2.03)
        #expect(vinyl.issues.count == 1)
        let issue = try #require(vinyl.issues.first)
        #expect(issue.place == "log.entries[1]")
        #expect(issue.problem.contains("does not record how the WebSocket connection closed"))
        #expect(issue.fix.contains(#""_gramophoneWebSocket": {"end": {"closedBy": "server""#))
    }

    @Test func aTurntablePlaysTheBrowsersConversationInCausalOrder() async throws {
        let turntable = Turntable(vinyl: try Self.browserExport())
        let socket = turntable.webSocketTask(with: Self.socketURL)
        socket.resume()
        // The server's welcome came before the client said anything.
        #expect(Self.text(try await socket.receive()) == #"{"type":"welcome","room":"lobby","users":2}"#)
        // Asked for before the join is sent, the reply to it waits for it.
        let events = Locked<[String]>([])
        let replied = AsyncStream<Void>.makeStream()
        socket.receive { result in
            events.withLock { $0.append("received " + ((try? result.get()).flatMap(Self.text) ?? "error")) }
            replied.continuation.finish()
        }
        events.withLock { $0.append("sending join") }
        // JSON compares by value, as a body does: the browser's key order need not be kept.
        try await socket.send(.string(#"{"name": "ada", "type": "join", "id": 1}"#))
        for await _ in replied.stream {}
        #expect(events.withLock { $0 } == ["sending join", #"received {"id":1,"type":"joined","ok":true}"#])
        #expect(Self.text(try await socket.receive()) == #"{"type":"message","from":"grace","text":"hi ada"}"#)
        try await socket.send(.string(#"{"id":2,"type":"say","text":"hello grace"}"#))
        #expect(Self.text(try await socket.receive()) == #"{"id":2,"type":"said","ok":true}"#)
        try await socket.send(.data(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])))
        #expect(Self.text(try await socket.receive()) == #"{"id":3,"type":"uploaded","bytes":10}"#)

        // The messages have run out and no close was recorded: the connection stays open until
        // the code closes it, and what waits then learns of that close, not of one the file lacks.
        let (failed, finish) = AsyncStream<(any Error)?>.makeStream()
        socket.receive { result in
            if case .failure(let error) = result { finish.yield(error) } else { finish.yield(nil) }
            finish.finish()
        }
        socket.cancel(with: .goingAway, reason: nil)
        var waiting: (any Error)?
        for await error in failed { waiting = error }
        #expect(waiting is POSIXError)
        #expect(socket.closeCode == .goingAway)
        #expect(turntable.playback.requestsAnswered == 1)
        #expect(turntable.playback.misses == 0)
    }

    @Test func aWrongMessageToTheBrowsersConversationGetsTheMissReport() async throws {
        let turntable = Turntable(vinyl: try Self.browserExport())
        let socket = turntable.webSocketTask(with: Self.socketURL)
        socket.resume()
        _ = try await socket.receive()
        let error = await #expect(throws: TurntableError.self) { try await socket.send(.string(#"{"id":1,"type":"join","name":"bob"}"#)) }
        let report = try #require(error?.missReport)
        let text = report.description
        #expect(text.contains("Message #1 sent on the WebSocket GET wss://chat.example.com/socket?room=lobby"), "\(text)")
        #expect(text.contains("track #1 of vinyl"), "\(text)")
        #expect(text.contains(#""bob" vs "ada""#), "\(text)")
        #expect(report.nearestTrackIndex == 1)
        #expect(turntable.playback.misses == 1)
    }

    static let conversation = WebSocketConversation(
        messages: [
            .received(.text("welcome"), at: 0),
            .sent(.text(#"{"id":1,"op":"join"}"#), at: 0.0125),
            .received(.text(#"{"id":1,"ok":true}"#), at: 0.02),
            .sent(.binary(Data("abc".utf8)), at: 0.03),
            .received(.binary(Data([0x00, 0xFF, 0x80])), at: 0.031),
            .received(.text(""), at: 0.04),
        ], end: .closed(code: 4001, reason: Data("room closed".utf8), by: .received), endOffset: 0.05)

    static func vinyl(_ conversation: WebSocketConversation, url: String = "wss://chat.example.com/socket", recordedAt: Date? = nil) -> Vinyl {
        Vinyl(
            name: "chat",
            tracks: [
                Track(
                    request: Track.Request(url: URL(string: url)!, headers: ["Sec-WebSocket-Protocol": "chat"]),
                    outcome: .response(.webSocket(conversation, subprotocol: "chat")), recordedAt: recordedAt)
            ])
    }

    @Test(arguments: [
        // A recording date to the millisecond, none (written as the epoch), one before 1970.
        Date(timeIntervalSince1970: 1_795_169_730.25), nil, Date(timeIntervalSince1970: -86_400.5),
    ])
    func aConversationRoundTripsThroughHAR(recordedAt: Date?) throws {
        let vinyl = Self.vinyl(Self.conversation, recordedAt: recordedAt)
        let read = try Vinyl(data: try vinyl.encoded(as: .har), name: "chat", format: .har)
        #expect(read.issues == [])
        #expect(read.tracks[0].response?.conversation == Self.conversation)
        #expect(read.tracks[0].response?.status == 101)
        #expect(read.tracks[0].response?.headers == vinyl.tracks[0].response?.headers)
        #expect(read.tracks[0].request.url == vinyl.tracks[0].request.url)
        #expect(read.tracks[0].recordedAt == recordedAt)
        // And on into the vinyl format, unchanged.
        let again = try Vinyl(data: try read.encoded(as: .gramophone), name: "chat", format: .gramophone)
        #expect(again.tracks[0].response?.conversation == Self.conversation)
    }

    @Test(arguments: [
        WebSocketConversation.End.closed(code: 1000, by: .sent), .closed(code: 1011, reason: Data("overloaded".utf8), by: .received), .cancelled,
        .stopped("count 100"), .failed(Track.Failure(domain: NSURLErrorDomain, code: -1005, description: "The network connection was lost.")),
    ])
    func everyEndingRoundTripsThroughHAR(end: WebSocketConversation.End) throws {
        let conversation = WebSocketConversation(messages: [.sent(.text("hi")), .received(.text("hi"), at: 0.25)], end: end, endOffset: 1.5)
        let read = try Vinyl(data: try Self.vinyl(conversation, url: "ws://localhost:8080/echo").encoded(as: .har), name: "chat", format: .har)
        #expect(read.tracks[0].response?.conversation == conversation)
        #expect(read.tracks[0].request.url.absoluteString == "ws://localhost:8080/echo")
        #expect(read.issues == [])
    }

    @Test func theWrittenEntryHasChromesShape() throws {
        let data = try Self.vinyl(Self.conversation, recordedAt: Date(timeIntervalSince1970: 1_795_169_730.25)).encoded(as: .har)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entry = try #require(((json["log"] as? [String: Any])?["entries"] as? [[String: Any]])?.first)
        #expect(entry["_resourceType"] as? String == "websocket")
        #expect((entry["request"] as? [String: Any])?["url"] as? String == "wss://chat.example.com/socket")
        let response = try #require(entry["response"] as? [String: Any])
        #expect(response["status"] as? Int == 101)
        #expect(response["statusText"] as? String == "Switching Protocols")
        let messages = try #require(entry["_webSocketMessages"] as? [[String: Any]])
        #expect(messages.map { $0["type"] as? String } == ["receive", "send", "receive", "send", "receive", "receive"])
        #expect(messages.map { $0["opcode"] as? Int } == [1, 1, 1, 2, 2, 1])
        #expect(messages.map { $0["data"] as? String } == ["welcome", #"{"id":1,"op":"join"}"#, #"{"id":1,"ok":true}"#, "YWJj", "AP+A", ""])
        // Seconds since 1970, as Chrome writes them.
        let times = messages.compactMap { $0["time"] as? Double }
        #expect(times.count == 6)
        #expect(abs(times[1] - 1_795_169_730.2625) < 0.000_001)
        // What Chrome has no field for is kept beside its fields.
        let saved = try #require(entry["_gramophoneWebSocket"] as? [String: Any])
        #expect((saved["end"] as? [String: Any])?["code"] as? Int == 4001)
        #expect((saved["end"] as? [String: Any])?["reason"] as? String == "room closed")
        #expect(saved["endOffsetMs"] as? Double == 50)
    }

    @Test func framesThatAreNotMessagesAreLeftOutWithAnIssueEach() throws {
        let vinyl = try Self.read(
            Self.entry(
                messages: """
                    [{"type": "receive", "time": 1795168800.01, "opcode": 1, "data": "hello"},
                     {"type": "send", "time": 1795168800.02, "opcode": 9, "data": ""},
                     {"type": "receive", "time": 1795168800.03, "opcode": -1, "data": "net::ERR_CONNECTION_RESET"},
                     {"type": "sideways", "time": 1795168800.04, "opcode": 1, "data": "?"},
                     {"type": "send", "time": 1795168800.05, "opcode": 1, "data": "bye"},
                     {"type": "receive", "time": 1795168800.06, "opcode": 8, "data": ""}]
                    """))
        let conversation = try #require(vinyl.tracks[0].response?.conversation)
        #expect(conversation.messages == [.received(.text("hello"), at: 0.01), .sent(.text("bye"), at: 0.05)])
        #expect(
            vinyl.issues.map(\.place) == [
                "log.entries[0]._webSocketMessages[1].opcode", "log.entries[0]._webSocketMessages[2].opcode",
                "log.entries[0]._webSocketMessages[3].type", "log.entries[0]._webSocketMessages[5].opcode", "log.entries[0]",
            ])
        #expect(vinyl.issues[0].problem.contains("opcode 9 is a ping"))
        #expect(vinyl.issues[1].problem.contains("Chrome's record of a WebSocket error"))
        #expect(vinyl.issues[2].problem.contains("\"sideways\" is not a direction"))
        #expect(vinyl.issues[3].problem.contains("opcode 8 is a close frame"))
        #expect(vinyl.issues.allSatisfy { !$0.served.isEmpty && !$0.fix.isEmpty })
    }

    @Test func aCloseGivenByHandReplaysAndNeedsNoIssue() async throws {
        let vinyl = try Self.read(
            Self.entry(
                messages: #"[{"type": "send", "time": 1795168800.5, "opcode": 1, "data": "bye"}]"#,
                extra: #""_gramophoneWebSocket": {"end": {"closedBy": "server", "code": 4000, "reason": "done"}},"#))
        #expect(vinyl.issues == [])
        let conversation = try #require(vinyl.tracks[0].response?.conversation)
        #expect(conversation.end == .closed(code: 4000, reason: Data("done".utf8), by: .received))
        #expect(conversation.endOffset == 0.5)
        let socket = Turntable(vinyl: vinyl).webSocketTask(with: URL(string: "ws://localhost:8080/echo")!)
        socket.resume()
        try await socket.send(.string("bye"))
        await #expect(throws: POSIXError.self) { try await socket.receive() }
        #expect(socket.closeCodeValue == 4000)
        #expect(socket.closeReason == Data("done".utf8))
    }

    @Test func timesOutOfOrderOrBeforeTheStartKeepFileOrderWithAnIssue() throws {
        let vinyl = try Self.read(
            Self.entry(
                messages: """
                    [{"type": "receive", "time": 1795168799.0, "opcode": 1, "data": "early"},
                     {"type": "receive", "time": 1795168800.3, "opcode": 1, "data": "b"},
                     {"type": "receive", "time": 1795168800.2, "opcode": 1, "data": "c"}]
                    """))
        let conversation = try #require(vinyl.tracks[0].response?.conversation)
        #expect(conversation.messages.map(\.offset) == [0, 0.3, 0.3])
        #expect(conversation.messages.map(\.content) == [.text("early"), .text("b"), .text("c")])
        #expect(vinyl.issues.first?.place == "log.entries[0]._webSocketMessages")
        #expect(vinyl.issues.first?.problem.contains("2 message times are before") == true)
    }

    @Test func aHandshakeAnsweredOtherwiseIsSaid() throws {
        let http2 = try Self.read(Self.entry(status: 200, messages: #"[{"type": "send", "time": 1795168800.1, "opcode": 1, "data": "a"}]"#))
        #expect(http2.tracks[0].response?.status == 101)
        #expect(http2.tracks[0].response?.conversation?.messages.count == 1)
        #expect(http2.issues.contains { $0.place == "log.entries[0].response.status" && $0.problem.contains("answered 200, not 101") })
        let failed = try Self.read(Self.entry(status: 0, messages: #"[{"type": "send", "time": 1795168800.1, "opcode": 1, "data": "a"}]"#))
        #expect(failed.tracks[0].failure != nil)
        #expect(failed.issues.map(\.place) == ["log.entries[0]._webSocketMessages"])
    }

    @Test func aRefusedHandshakeStaysTheAnswerItWas() throws {
        // Chrome marks a handshake the server turned down as a WebSocket too.
        let refused = try Self.read(Self.entry(status: 403, messages: "null"))
        #expect(refused.tracks[0].response?.status == 403)
        #expect(refused.tracks[0].response?.conversation == nil)
        #expect(refused.issues == [])
    }

    @Test func aMessageMoreThanADayLaterIsPlayedADayInWithAnIssue() throws {
        let vinyl = try Self.read(
            Self.entry(messages: #"[{"type": "receive", "time": 1795168800.5, "data": "a"}, {"type": "receive", "time": 1795300000, "data": "b"}]"#))
        #expect(vinyl.tracks[0].response?.conversation?.messages.map(\.offset) == [0.5, 86_400])
        #expect(vinyl.issues.first?.problem.contains("1 message time is more than a day after") == true)
    }

    @Test func aBrowsersFileRewrittenAsHARReadsTheSameAndSaysHowItEnded() throws {
        let export = try Self.browserExport()
        let again = try Vinyl(data: try export.encoded(as: .har), name: "again", format: .har)
        #expect(again.tracks.map(\.response?.conversation) == export.tracks.map(\.response?.conversation))
        // The end the reader chose is written down now, so the rewritten file has nothing to say.
        #expect(again.issues == [])
    }

    @Test func timesFinerThanAMicrosecondReadBackToTheMicrosecond() throws {
        let recorded = WebSocketConversation(
            messages: [.sent(.text("a"), at: 0.000_000_4), .received(.text("b"), at: 0.012_345_678_9)], end: .closed(code: 1000, by: .received),
            endOffset: 0.012_345_678_9)
        let read = try Vinyl(data: try Self.vinyl(recorded, recordedAt: Date(timeIntervalSince1970: 1_795_169_730.25)).encoded(as: .har), name: "chat", format: .har)
        let conversation = try #require(read.tracks[0].response?.conversation)
        #expect(conversation.messages.map(\.offset) == [0, 0.012_346])
        #expect(conversation.endOffset == 0.012_346)
    }

    @Test(arguments: [
        (#"[{"type": "send", "time": 1e999, "data": "a"}]"#, "log.entries[0]._webSocketMessages[0].time", "is not a time in seconds since 1970"),
        (#"[{"type": "send", "opcode": 2, "data": "%%"}]"#, "log.entries[0]._webSocketMessages[0].data", "not valid base64"),
        (#"{"type": "send"}"#, "log.entries[0]._webSocketMessages", "expected an array"),
        (#"[{"type": "send", "time": "soon", "data": "a"}]"#, "log.entries[0]._webSocketMessages[0].time", "expected a number"),
    ])
    func malformedMessagesAreRefusedWithTheirPlace(messages: String, place: String, problem: String) {
        expectMalformed(place: place, problem: problem) { _ = try Self.read(Self.entry(messages: messages)) }
    }
}
