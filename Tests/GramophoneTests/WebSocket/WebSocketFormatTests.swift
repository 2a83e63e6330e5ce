import Foundation
import Testing

@testable import Gramophone

/// Conversations in the vinyl format: every message, its side, kind, payload and time, and how
/// it ended survive a write and a read; files without conversations read as before.
@Suite struct WebSocketFormatTests {
    static let url = URL(string: "wss://chat.example.com/socket")!

    static func vinyl(_ conversation: WebSocketConversation) -> Vinyl {
        Vinyl(name: "chat", tracks: [Track(request: Track.Request(url: url, headers: ["Sec-WebSocket-Protocol": "chat"]), outcome: .response(.webSocket(conversation, subprotocol: "chat")))])
    }

    static let conversation = WebSocketConversation(
        messages: [
            .received(.text("welcome"), at: 0),
            .sent(.text("{\"id\":1,\"op\":\"join\"}"), at: 0.0125),
            .received(.text("{\"id\":1,\"ok\":true}"), at: 0.02),
            // Bytes that happen to be UTF-8 stay a binary frame.
            .sent(.binary(Data("abc".utf8)), at: 0.03),
            .received(.binary(Data([0x00, 0xFF, 0x80])), at: 0.031),
            .received(.text(""), at: 0.04),
        ], end: .closed(code: 4001, reason: Data("room closed".utf8), by: .received), endOffset: 0.05)

    @Test func conversationRoundTripsThroughTheJSONVinyl() throws {
        let vinyl = Self.vinyl(Self.conversation)
        let data = try vinyl.encoded(as: .gramophone)
        let read = try Vinyl(data: data, name: "chat", format: .gramophone)
        #expect(read == vinyl)
        #expect(read.tracks[0].response?.conversation?.end == .closed(code: 4001, reason: Data("room closed".utf8), by: .received))
        #expect(read.tracks[0].response?.status == 101)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"closedBy\" : \"server\"") || text.contains("\"closedBy\": \"server\""))
        #expect(text.contains("\"binary\""))
        #expect(text.contains("welcome"))
    }

    @Test(arguments: [
        WebSocketConversation.End.closed(code: 1000, by: .sent), .cancelled, .stopped("count 100"), .leftOpen("HAR, which does not record the close"),
        .failed(Track.Failure(domain: NSURLErrorDomain, code: -1005, description: "The network connection was lost.")),
    ])
    func everyEndingRoundTrips(end: WebSocketConversation.End) throws {
        let vinyl = Self.vinyl(WebSocketConversation(messages: [.sent(.text("hi"))], end: end, endOffset: 1.5))
        let read = try Vinyl(data: try vinyl.encoded(as: .gramophone), name: "chat", format: .gramophone)
        #expect(read == vinyl)
    }

    @Test func handWrittenConversationReadsWithDefaults() throws {
        let json = """
            {"tracks": [{"request": {"url": "ws://localhost/echo"},
                         "response": {"status": 101,
                                      "webSocket": {"messages": [{"direction": "sent", "text": "a"},
                                                                 {"direction": "received", "offsetMs": 5, "text": "a"}]}}}]}
            """
        let vinyl = try Vinyl(data: Data(json.utf8), name: "echo", format: .gramophone)
        let conversation = try #require(vinyl.tracks[0].response?.conversation)
        #expect(conversation.messages == [.sent(.text("a")), .received(.text("a"), at: 0.005)])
        #expect(conversation.end == .closed(code: 1000, by: .received))
        #expect(conversation.endOffset == 0.005)
    }

    @Test func olderVinylsReadWithoutConversations() throws {
        let json = #"{"gramophone": 1, "tracks": [{"request": {"url": "https://example.com"}, "response": {"status": 200, "body": "ok"}}]}"#
        let vinyl = try Vinyl(data: Data(json.utf8), name: "old", format: .gramophone)
        #expect(vinyl.tracks[0].response?.conversation == nil)
        let rewritten = String(decoding: try vinyl.encoded(), as: UTF8.self)
        #expect(!rewritten.contains("webSocket"))
    }

    @Test(arguments: [
        (#"{"messages": [{"text": "a"}]}"#, "tracks[0].response.webSocket.messages[0].direction", "missing \"direction\""),
        (#"{"messages": [{"direction": "up", "text": "a"}]}"#, "tracks[0].response.webSocket.messages[0].direction", "\"up\" is not a direction"),
        (#"{"messages": [{"direction": "sent"}]}"#, "tracks[0].response.webSocket.messages[0]", "missing \"text\" or \"binary\""),
        (#"{"messages": [{"direction": "sent", "binary": "%%"}]}"#, "tracks[0].response.webSocket.messages[0].binary", "not valid base64"),
        (
            #"{"messages": [{"direction": "sent", "offsetMs": 9, "text": "a"}, {"direction": "sent", "offsetMs": 3, "text": "b"}]}"#,
            "tracks[0].response.webSocket.messages[1].offsetMs", "is not after the message before"
        ),
        (#"{"messages": [], "end": {"closedBy": "server", "code": 999}}"#, "tracks[0].response.webSocket.end.code", "999 is not a WebSocket close code"),
        (#"{"messages": [], "end": {"closedBy": "nobody"}}"#, "tracks[0].response.webSocket.end.closedBy", "\"nobody\" is not a side"),
        (#"{"messages": [], "end": 7}"#, "tracks[0].response.webSocket.end", "is not a conversation's end"),
        (#"{"end": "cancelled"}"#, "tracks[0].response.webSocket", "missing \"messages\""),
    ])
    func malformedConversationsAreRefusedWithTheirPlace(webSocket: String, place: String, problem: String) {
        let json = #"{"tracks": [{"request": {"url": "ws://localhost/echo"}, "response": {"status": 101, "webSocket": "# + webSocket + "}}]}"
        expectMalformed(place: place, problem: problem) { _ = try Vinyl(data: Data(json.utf8), name: "bad", format: .gramophone, file: "bad.json") }
    }

    // HAR holds conversations as Chrome's `_webSocketMessages` (HARWebSocketTests).
    @Test(arguments: [VinylFormat.dvr, .plist])
    func formatsThatCannotHoldAConversationRefuseIt(format: VinylFormat) {
        #expect {
            _ = try Self.vinyl(Self.conversation).encoded(as: format)
        } throws: { error in
            guard let error = error as? VinylError else { return false }
            return error.kind == .unwritable && error.problem.contains("WebSocket conversation") && error.place == format.place(ofTrack: 0)
        }
    }

    @Test func summaryCountsMessagesAndSaysHowItClosed() {
        #expect(Self.conversation.summary == "6 messages (2 sent, 4 received) over 50 ms, closed by the server with 4001 (room closed)")
    }
}
