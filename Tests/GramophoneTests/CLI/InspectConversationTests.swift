import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

/// `gramophone inspect` on a vinyl holding a WebSocket conversation: the track says what the
/// conversation was in one line; `--messages` lists every message under it; `--json` always does.
@Suite struct InspectConversationTests {
    /// The format article's example conversation: a push, a request and its answer, a binary
    /// frame, closed by the server with an application's code.
    static let chat = Track(
        request: Track.Request(url: URL(string: "wss://chat.example.com/socket")!),
        outcome: .response(
            .webSocket(
                WebSocketConversation(
                    messages: [
                        .received(.text("welcome")),
                        .sent(.text(#"{"id":1,"op":"join"}"#), at: 0.0125),
                        .received(.text(#"{"id":1,"ok":true}"#), at: 0.02),
                        .received(.binary(Data([0x00, 0xFF, 0x80])), at: 0.031),
                        .sent(.text("line one\nline two " + String(repeating: "x", count: 80)), at: 0.04),
                    ],
                    end: .closed(code: 4001, reason: Data("room closed".utf8), by: .received), endOffset: 0.05))))

    static func vinylFile(in folder: URL) throws -> String {
        let file = folder.appendingPathComponent("chat.json")
        try Vinyl(name: "chat", tracks: [chat, Track("GET https://chat.example.com/rooms", .json(#"{"rooms":[]}"#))]).write(to: file)
        return file.path
    }

    @Test func theTrackSaysWhatTheConversationWasAndMessagesListsEachMessage() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.vinylFile(in: folder)

        let plain = try await CLITests.run("inspect", file)
        #expect(plain.status == 0 && plain.stderr.isEmpty, "\(plain.stderr)")
        let rows = plain.stdout.split(separator: "\n").map(String.init)
        try #require(rows.count == 3, "one line per track, no message rows without --messages: \(rows)")
        #expect(rows[1].hasPrefix("  #0  GET  wss://chat.example.com/socket   →  101   0 B  websocket: "), "\(rows[1])")
        #expect(rows[1].hasSuffix("websocket: 5 messages (2 sent, 3 received) over 50 ms, closed by the server with 4001 (room closed)"), "\(rows[1])")

        let listed = try await CLITests.run("inspect", "--messages", file)
        #expect(listed.status == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        // The track, its five messages and how it ended, then the next track.
        try #require(lines.count == 9, "\(lines)")
        #expect(lines[1] == rows[1])
        #expect(lines[2] == "        [0]  received  text     7 B     0 ms  welcome", "\(lines[2])")
        #expect(lines[3] == "        [1]  sent      text    20 B  12.5 ms  {\"id\":1,\"op\":\"join\"}", "\(lines[3])")
        #expect(lines[4] == "        [2]  received  text    18 B    20 ms  {\"id\":1,\"ok\":true}", "\(lines[4])")
        #expect(lines[5] == "        [3]  received  binary   3 B    31 ms  00 ff 80", "\(lines[5])")
        // A long text is cut short, its line break shown, so one message stays one line.
        #expect(lines[6].hasPrefix("        [4]  sent      text    98 B    40 ms  line one\\nline two xxx"), "\(lines[6])")
        #expect(lines[6].hasSuffix("…") && lines[6].count < 120, "\(lines[6])")
        #expect(lines[7] == "        end: closed by the server with 4001 (room closed) at 50 ms", "\(lines[7])")
        #expect(lines[8].hasPrefix("  #1  GET  https://chat.example.com/rooms"), "\(lines[8])")
    }

    @Test func theJSONHoldsTheConversationItsMessagesAndItsEnd() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await CLITests.run("inspect", "--json", try Self.vinylFile(in: folder))
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let tracks = try #require(object["tracks"] as? [[String: Any]])
        #expect(tracks.count == 2)
        #expect(tracks[1]["webSocket"] == nil, "a plain track has no conversation")
        let socket = try #require(tracks[0]["webSocket"] as? [String: Any])
        #expect(tracks[0]["status"] as? Int == 101)
        #expect(socket["sent"] as? Int == 2 && socket["received"] as? Int == 3)
        #expect(socket["endOffsetMs"] as? Double == 50)
        #expect(socket["summary"] as? String == "5 messages (2 sent, 3 received) over 50 ms, closed by the server with 4001 (room closed)")
        let end = try #require(socket["end"] as? [String: Any])
        #expect(end["closedBy"] as? String == "server" && end["code"] as? Int == 4001 && end["reason"] as? String == "room closed")
        let messages = try #require(socket["messages"] as? [[String: Any]])
        #expect(messages.count == 5)
        #expect(messages[1]["index"] as? Int == 1)
        #expect(messages[1]["direction"] as? String == "sent" && messages[1]["kind"] as? String == "text")
        #expect(messages[1]["bytes"] as? Int == 20 && messages[1]["offsetMs"] as? Double == 12.5)
        #expect(messages[1]["preview"] as? String == #"{"id":1,"op":"join"}"#)
        #expect(messages[3]["kind"] as? String == "binary" && messages[3]["bytes"] as? Int == 3 && messages[3]["preview"] as? String == "00 ff 80")
    }

    @Test func everyWayAConversationEndsIsSaid() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ends: [(WebSocketConversation.End, json: String, table: String)] = [
            (.closed(code: 1000, by: .sent), #"{"closedBy":"client","code":1000}"#, "closed by the client with 1000"),
            (.cancelled, #""cancelled""#, "cancelled by the caller"),
            (.stopped("count 100"), #"{"stoppedBy":"count 100"}"#, "stopped by count 100"),
            (.leftOpen("at eject"), #"{"leftOpen":"at eject"}"#, "left open (at eject)"),
            (.failed(Track.Failure(domain: "NSURLErrorDomain", code: -1005)), #"{"error":{"code":-1005,"domain":"NSURLErrorDomain"}}"#, "broke off with NSURLErrorDomain -1005"),
        ]
        let tracks = ends.enumerated().map { index, end in
            Track(request: Track.Request(url: URL(string: "ws://127.0.0.1/\(index)")!), outcome: .response(.webSocket(WebSocketConversation(messages: [], end: end.0))))
        }
        let file = folder.appendingPathComponent("ends.json")
        try Vinyl(name: "ends", tracks: tracks).write(to: file)
        let json = try await CLITests.run("inspect", "--json", file.path)
        let table = try await CLITests.run("inspect", "--messages", file.path)
        for end in ends {
            #expect(json.stdout.contains(#""end":"# + end.json), "\(json.stdout)")
            #expect(table.stdout.contains("        end: \(end.table) at 0 ms"), "\(table.stdout)")
        }
    }
}
