import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Turntable.webSocketTask(with:)`: a recorded conversation replayed in causal order, what the
/// code sends checked against it, and the task behaving as `URLSessionWebSocketTask` does.
@Suite struct WebSocketReplayTests {
    static let url = URL(string: "wss://chat.example.com/socket")!

    static func turntable(_ conversation: WebSocketConversation, url: URL = url) -> Turntable {
        Turntable(vinyl: Vinyl(name: "chat", tracks: [Track(request: Track.Request(url: url), outcome: .response(.webSocket(conversation)))]))
    }

    static let echo = WebSocketConversation(
        messages: [
            .received(.text("welcome")),
            .sent(.text("a")), .received(.text("a")),
            .sent(.text("b")), .received(.text("b")),
        ], end: .closed(code: 1000, by: .received))

    static func text(_ message: URLSessionWebSocketTask.Message) -> String? {
        if case .string(let text) = message { return text }
        return nil
    }

    @Test func echoReplaysInOrderAndEndsWithTheServersClose() async throws {
        let turntable = Self.turntable(Self.echo)
        let socket = turntable.webSocketTask(with: Self.url)
        socket.resume()
        #expect(Self.text(try await socket.receive()) == "welcome")
        try await socket.send(.string("a"))
        #expect(Self.text(try await socket.receive()) == "a")
        try await socket.send(.string("b"))
        #expect(Self.text(try await socket.receive()) == "b")
        await #expect(throws: POSIXError.self) { try await socket.receive() }
        #expect(socket.closeCode == .normalClosure)
        #expect(socket.closeCodeValue == 1000)
        await #expect(throws: POSIXError.self) { try await socket.send(.string("late")) }
        #expect(turntable.playback.requestsAnswered == 1)
        #expect(turntable.playback.misses == 0)
    }

    @Test func fewerMessagesThanRecordedLeaveTheConversationUnfinished() async throws {
        let turntable = Self.turntable(Self.echo)
        let socket = turntable.webSocketTask(with: Self.url)
        socket.resume()
        // The first of the two recorded messages only, its reply never read.
        try await socket.send(.string("a"))
        socket.cancel(with: .normalClosure, reason: nil)
        #expect(turntable.playback.unfinishedConversations == [UnfinishedConversation(track: 0, sent: 1, recorded: 2)])
        #expect(!turntable.playback.allPlayed)
        #expect(turntable.playback.unplayedTracks.isEmpty)
    }

    // Without the limit's close the replay would wait for ever: bounded, not timed.
    @Test(.timeLimit(.minutes(1))) func aConversationStoppedByAStreamLimitReplaysTheLimitsClose() async throws {
        let stopped = WebSocketConversation(messages: [.received(.text("1")), .sent(.text("a")), .received(.text("2"))], end: .stopped("2 messages"))
        let socket = Self.turntable(stopped).webSocketTask(with: Self.url)
        socket.resume()
        #expect(Self.text(try await socket.receive()) == "1")
        try await socket.send(.string("a"))
        #expect(Self.text(try await socket.receive()) == "2")
        await #expect(throws: POSIXError(.ENOTCONN)) { try await socket.receive() }
        #expect(socket.closeCodeValue == 1001)
        #expect(socket.closeReason.map { String(decoding: $0, as: UTF8.self) } == "recording stopped at its StreamLimit: 2 messages")
        // Sent after the limit's close, as live: ENOTCONN, not a miss.
        await #expect(throws: POSIXError(.ENOTCONN)) { try await socket.send(.string("more")) }
    }

    @Test func aConversationLeftOpenStaysOpenAfterItsLastMessage() async throws {
        let open = WebSocketConversation(messages: [.received(.text("1"))], end: .leftOpen("HAR, which does not record the close"))
        let socket = Self.turntable(open).webSocketTask(with: Self.url)
        socket.resume()
        #expect(Self.text(try await socket.receive()) == "1")
        #expect(socket.closeCodeValue == 0)
        socket.cancel(with: .normalClosure, reason: nil)
    }

    @Test func aStampedMessageReplaysUnderIgnoringAndItsEchoTakesTheLiveValue() async throws {
        let stamped = WebSocketConversation(
            messages: [
                .sent(.text(#"{"op":"hello","clientId":"run-1","at":1700000000}"#)),
                .received(.text(#"{"op":"welcome","clientId":"run-1"}"#)),
            ], end: .closed(code: 1000, by: .received))
        let strategy = MatchingStrategy.attributes([.method, .url, .body(ignoring: ["clientId", "at"])]).echoing(.jsonValue(at: "clientId", from: "clientId"))
        let turntable = Turntable(
            vinyl: Vinyl(name: "chat", tracks: [Track(request: Track.Request(url: Self.url), outcome: .response(.webSocket(stamped)))]), matching: strategy)
        let socket = turntable.webSocketTask(with: Self.url)
        socket.resume()
        try await socket.send(.string(#"{"op":"hello","clientId":"run-2","at":1800000000}"#))
        #expect(Self.text(try await socket.receive()) == #"{"op":"welcome","clientId":"run-2"}"#)
        #expect(turntable.playback.misses == 0)
        #expect(turntable.playback.echoedCount == 1)
        // What the strategy does not ignore is still compared.
        let other = turntable.webSocketTask(with: Self.url)
        other.resume()
        await #expect(throws: TurntableError.self) { try await other.send(.string(#"{"op":"bye","clientId":"run-2","at":1}"#)) }
    }

    @Test func aReplyWaitsForTheMessageItAnswers() async throws {
        let turntable = Self.turntable(Self.echo)
        let socket = turntable.webSocketTask(with: Self.url)
        socket.resume()
        #expect(Self.text(try await socket.receive()) == "welcome")
        let events = Locked<[String]>([])
        let replied = AsyncStream<Void>.makeStream()
        // Asked for before "a" is sent: the recorded reply comes only once it has been.
        socket.receive { result in
            events.withLock { $0.append("received " + ((try? result.get()).flatMap(Self.text) ?? "error")) }
            replied.continuation.finish()
        }
        events.withLock { $0.append("sending a") }
        try await socket.send(.string("a"))
        for await _ in replied.stream {}
        #expect(events.withLock { $0 } == ["sending a", "received a"])
    }

    @Test func aPushBeforeTheFirstMessageArrivesWithoutOne() async throws {
        let pushes = WebSocketConversation(messages: [.received(.text("1")), .received(.text("2")), .received(.text("3"))], end: .stopped("count 3"))
        let socket = Self.turntable(pushes).webSocketTask(with: Self.url)
        socket.resume()
        var seen: [String?] = []
        for _ in 0..<3 { seen.append(Self.text(try await socket.receive())) }
        #expect(seen == ["1", "2", "3"])
    }

    @Test func recordedPaceHoldsEachMessageBackAtLeastItsRecordedGap() async throws {
        let paced = WebSocketConversation(messages: [.sent(.text("go")), .received(.text("late"), at: 0.3)], end: .stopped("count 1"))
        let turntable = Self.turntable(paced)
        turntable.timing = .recordedDuration()
        let socket = turntable.webSocketTask(with: Self.url)
        socket.resume()
        let start = ContinuousClock.now
        try await socket.send(.string("go"))
        #expect(Self.text(try await socket.receive()) == "late")
        #expect(ContinuousClock.now - start >= .milliseconds(290))
    }

    @Test func jsonMessagesCompareByValue() async throws {
        let rpc = WebSocketConversation(
            messages: [.sent(.text(#"{"id":1,"method":"join","params":{"room":"a"}}"#)), .received(.text(#"{"id":1,"result":"ok"}"#))], end: .stopped("count 1"))
        let socket = Self.turntable(rpc).webSocketTask(with: Self.url)
        socket.resume()
        try await socket.send(.string(#"{ "method": "join", "params": {"room": "a"}, "id": 1.0 }"#))
        #expect(Self.text(try await socket.receive()) == #"{"id":1,"result":"ok"}"#)
    }

    @Test func aWrongMessageFailsWithAMissReportNamingConversationPositionAndDifference() async throws {
        let rpc = WebSocketConversation(
            messages: [.sent(.text(#"{"id":1,"op":"join"}"#)), .received(.text("joined")), .sent(.text(#"{"id":2,"op":"say","text":"hi"}"#)), .received(.text("said"))],
            end: .stopped("count 2"))
        let turntable = Self.turntable(rpc)
        let socket = turntable.webSocketTask(with: Self.url)
        socket.resume()
        try await socket.send(.string(#"{"id":1,"op":"join"}"#))
        #expect(Self.text(try await socket.receive()) == "joined")
        let error = await #expect(throws: TurntableError.self) { try await socket.send(.string(#"{"id":2,"op":"say","text":"bye"}"#)) }
        let report = try #require(error?.missReport)
        let text = report.description
        #expect(text.contains("Message #2 sent on the WebSocket GET wss://chat.example.com/socket"), "\(text)")
        #expect(text.contains("track #0 of vinyl \"chat\""), "\(text)")
        #expect(text.contains("message.text: \"bye\" vs \"hi\""), "\(text)")
        // Named as the file, `inspect --messages` and `scan` number it: both directions, from 0.
        #expect(text.contains("edit tracks[0].response.webSocket.messages[2] in the vinyl"), "\(text)")
        #expect(report.nearestTrackIndex == 0)
        #expect(turntable.playback.misses == 1)
        #expect(turntable.playback.missReports.first?.description == text)
        // The connection failed with it: what waits on it learns why.
        await #expect(throws: TurntableError.self) { try await socket.receive() }
    }

    @Test func aMessageBeyondTheRecordingIsAMiss() async throws {
        let socket = Self.turntable(WebSocketConversation(messages: [.sent(.text("only"))], end: .closed(code: 1000, by: .sent)))
            .webSocketTask(with: Self.url)
        socket.resume()
        try await socket.send(.string("only"))
        let error = await #expect(throws: TurntableError.self) { try await socket.send(.string("more")) }
        #expect(error?.description.contains("nothing more: the recorded client sent 1 message") == true, "\(String(describing: error))")
        #expect(error?.description.contains("add the message to tracks[0].response.webSocket.messages in the vinyl") == true, "\(String(describing: error))")
    }

    @Test func binaryFramesCompareByBytesAndNeverEqualText() async throws {
        let frames = WebSocketConversation(messages: [.sent(.binary(Data([1, 2, 3]))), .received(.binary(Data([0, 255])))], end: .stopped("count 1"))
        let socket = Self.turntable(frames).webSocketTask(with: Self.url)
        socket.resume()
        try await socket.send(.data(Data([1, 2, 3])))
        guard case .data(let bytes) = try await socket.receive() else {
            Issue.record("a binary frame replayed as text")
            return
        }
        #expect(bytes == Data([0, 255]))

        let other = Self.turntable(frames).webSocketTask(with: Self.url)
        other.resume()
        let error = await #expect(throws: TurntableError.self) { try await other.send(.string("\u{1}\u{2}\u{3}")) }
        #expect(error?.description.contains("kind: text vs binary") == true)
    }

    @Test func applicationCloseCodesAndReasonsSurvive() async throws {
        let closing = WebSocketConversation(messages: [.received(.text("bye"))], end: .closed(code: 4001, reason: Data("room closed".utf8), by: .received))
        let socket = Self.turntable(closing).webSocketTask(with: Self.url)
        socket.resume()
        _ = try await socket.receive()
        await #expect(throws: POSIXError.self) { try await socket.receive() }
        #expect(socket.closeCodeValue == 4001)
        #expect(socket.closeReason == Data("room closed".utf8))
    }

    @Test func aConversationThatBrokeOffFailsWithItsError() async throws {
        let broken = WebSocketConversation(messages: [.received(.text("1"))], end: .failed(Track.Failure(.networkConnectionLost)))
        let socket = Self.turntable(broken).webSocketTask(with: Self.url)
        socket.resume()
        _ = try await socket.receive()
        let error = await #expect(throws: URLError.self) { try await socket.receive() }
        #expect(error?.code == .networkConnectionLost)
    }

    @Test func aHandshakeNoTrackMatchesFailsWithTheMissReport() async throws {
        let turntable = Self.turntable(Self.echo)
        let socket = turntable.webSocketTask(with: URL(string: "wss://chat.example.com/other")!)
        socket.resume()
        let error = await #expect(throws: TurntableError.self) { try await socket.receive() }
        #expect(error?.description.contains("No track in vinyl \"chat\" matches GET wss://chat.example.com/other") == true)
        #expect(turntable.playback.misses == 1)
        await #expect(throws: TurntableError.self) { try await socket.send(.string("a")) }
    }

    @Test func aHandshakeAnsweredByAnHTTPTrackIsABadServerResponse() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "http", tracks: [Track(request: Track.Request(url: Self.url), response: Track.Response(status: 200, body: Data("hi".utf8)))]))
        let socket = turntable.webSocketTask(with: Self.url)
        socket.resume()
        let error = await #expect(throws: URLError.self) { try await socket.receive() }
        #expect(error?.code == .badServerResponse)
        #expect(error?.localizedDescription.contains("status 200") == true)
    }

    @Test func aRefusedHandshakeNamesItsURLWithoutTheLiveCredential() async throws {
        // The error is printed (test issues, CI logs): the token is shown as the recording masks it.
        let url = URL(string: "wss://chat.example.com/socket?token=live-secret-123")!
        let turntable = Turntable(vinyl: Vinyl(name: "refused", tracks: [Track(request: Track.Request(url: url), response: Track.Response(status: 403))]))
        let socket = turntable.webSocketTask(with: url)
        socket.resume()
        let error = await #expect(throws: URLError.self) { try await socket.receive() }
        #expect(error?.localizedDescription.contains("status 403") == true)
        #expect(error?.localizedDescription.contains("live-secret-123") == false)
        #expect(error?.localizedDescription.contains("token=REDACTED") == true)
    }

    @Test func completionHandlersWorkAsTheAsyncForms() async throws {
        let socket = Self.turntable(Self.echo).webSocketTask(with: Self.url)
        // Made before resume(): they wait for the connection, in order.
        let (stream, continuation) = AsyncStream<String>.makeStream()
        socket.send(.string("a")) { error in continuation.yield("sent a: \(error == nil)") }
        socket.sendPing { error in continuation.yield("pong: \(error == nil)") }
        socket.resume()
        var lines: [String] = []
        for await line in stream {
            lines.append(line)
            if lines.count == 2 { break }
        }
        #expect(lines == ["sent a: true", "pong: true"])
        let received = Locked<[String]>([])
        let (done, finished) = AsyncStream<Void>.makeStream()
        for _ in 0..<2 {
            socket.receive { result in
                let count = received.withLock { list in
                    list.append((try? result.get()).flatMap(Self.text) ?? "error")
                    return list.count
                }
                if count == 2 { finished.finish() }
            }
        }
        for await _ in done {}
        #expect(received.withLock { $0 } == ["welcome", "a"])
    }

    @Test func cancelWithACodeClosesAndFailsWhatWaits() async throws {
        let socket = Self.turntable(Self.echo).webSocketTask(with: Self.url)
        socket.resume()
        _ = try await socket.receive()
        let (failed, finish) = AsyncStream<(any Error)?>.makeStream()
        socket.receive { result in
            if case .failure(let error) = result { finish.yield(error) } else { finish.yield(nil) }
            finish.finish()
        }
        socket.cancel(with: .goingAway, reason: Data("done".utf8))
        var waiting: (any Error)?
        for await error in failed { waiting = error }
        #expect(waiting is POSIXError)
        #expect(socket.closeCode == .goingAway)
        #expect(socket.closeReason == Data("done".utf8))
        socket.sendPing { error in #expect(error != nil) }
        socket.cancel(withCloseCodeValue: 4002, reason: nil)
        #expect(socket.closeCodeValue == URLSessionWebSocketTask.CloseCode.goingAway.rawValue, "a second close changes nothing")
    }

    @Test func injectedCodeReachesItThroughNetworkSession() async throws {
        let session: any NetworkSession = Self.turntable(Self.echo)
        let socket = session.webSocketTask(with: Self.url, protocols: ["chat", "v2"])
        socket.resume()
        #expect(Self.text(try await socket.receive()) == "welcome")
        let turntable = try #require(session as? Turntable)
        #expect(turntable.playback.requests.first?.headers["Sec-WebSocket-Protocol"] == "chat, v2")
    }

    @Test func urlSessionKeepsFoundationsOwnTaskOnDirectCallsAndConformsThroughTheProtocol() {
        let direct = URLSession.shared.webSocketTask(with: Self.url)
        let concrete: URLSessionWebSocketTask = direct
        let injected = (URLSession.shared as any NetworkSession).webSocketTask(with: URLRequest(url: Self.url))
        #expect(injected is URLSessionWebSocketTask)
        #expect(concrete.closeCodeValue == 0)
        concrete.cancel()
    }

    @Test func aSessionOfYourOwnSaysItOpensNoWebSockets() async throws {
        struct Fake: NetworkSession {
            func data(for request: URLRequest) async throws -> (Data, URLResponse) { throw URLError(.notConnectedToInternet) }
            func data(from url: URL) async throws -> (Data, URLResponse) { throw URLError(.notConnectedToInternet) }
            func dataTask(with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionDataTask {
                URLSession.shared.dataTask(with: request, completionHandler: completionHandler)
            }
        }
        let socket = Fake().webSocketTask(with: Self.url)
        socket.resume()
        let error = await #expect(throws: URLError.self) { try await socket.receive() }
        #expect(error?.code == .unsupportedURL)
        #expect(error?.localizedDescription.contains("Fake does not open WebSocket connections") == true)
    }
}
