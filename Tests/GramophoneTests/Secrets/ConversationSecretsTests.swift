import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

/// A WebSocket conversation's payloads are looked at as bodies are: `likelySecrets()` and
/// `gramophone scan` name the message, and the recorder refuses to write a payload that still
/// holds a secret after redaction, unless that place is allowed.
@Suite struct ConversationSecretsTests {
    static let token = SecretCorpusTests.tokens[0].token

    /// A chat whose client authenticates in its first message and whose server hands out a session.
    static func chat(sent: String, received: [WebSocketMessage.Content]) -> Track {
        Track(
            request: Track.Request(url: URL(string: "wss://chat.example.com/socket")!),
            outcome: .response(.webSocket(WebSocketConversation(messages: [.sent(.text(sent))] + received.map { .received($0) }))))
    }

    @Test func aTokenInASentOrAReceivedPayloadIsFoundAndItsMessageNamed() throws {
        let track = Self.chat(
            sent: #"{"type":"auth","token":"\#(Self.token)"}"#,
            received: [.text("welcome"), .text(#"{"session":{"access_token":"a1b2c3d4e5f6a7b8c9d0e1f2a3b4"}}"#), .text("your key is \(Self.token)")])
        let findings = Vinyl(name: "chat", tracks: [Track("GET https://chat.example.com/rooms", .json("{}")), track]).likelySecrets()
        #expect(
            findings.map(\.place) == [
                #"response.webSocket.messages[0] (sent) JSON "token""#,
                #"response.webSocket.messages[2] (received) JSON "session.access_token""#,
                "response.webSocket.messages[3] (received)",
            ], "\(findings)")
        try #require(findings.count == 3)
        #expect(findings.allSatisfy { $0.trackIndex == 1 })
        #expect(findings[0].reason == "a secret-named JSON key" && findings[2].reason == "looks like a GitHub token")
        #expect(findings.allSatisfy { !$0.preview.contains(Self.token) })
        #expect(findings[0].location.side == .request && findings[1].location.side == .response, "sent is the client's side, as redaction sees it")
    }

    @Test func aBinaryPayloadThatIsTextIsScannedAndOneThatIsNotIsLeftAlone() {
        let track = Self.chat(sent: "hello", received: [.binary(Data("key=\(Self.token)".utf8)), .binary(Data([0xFF, 0x00, 0xFE]))])
        let findings = Vinyl(name: "chat", tracks: [track]).likelySecrets()
        #expect(findings.map(\.place) == ["response.webSocket.messages[1] (received)"], "\(findings)")
    }

    @Test func theRecorderRefusesAPayloadSecretTheRedactionLeftAndWritesNothing() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let turntable = try Turntable(vinylNamed: "chat", from: .folder(folder), recording: Recording(mode: .once, environment: [:]))
        let recorder = try #require(turntable.recorder)
        // The JSON key is redacted on the way in; the token in plain text is not a name the
        // default knows, so it is left for the check, as in a body.
        turntable.keepRecordedConversation(Self.chat(sent: #"{"password":"hunter2-correct"}"#, received: [.text("ok"), .text("here: \(Self.token)")]), with: recorder)
        let error = try #require(throws: VinylError.self) { try turntable.eject() }
        #expect(error.kind == .containsSecrets)
        #expect(error.place == "tracks[0].response.webSocket.messages[2] (received)", "\(error)")
        #expect(error.description.contains("looks like a GitHub token"), "\(error)")
        #expect(error.description.contains(".webSocketMessages(in: .response)"), "the allowing line names the place: \(error)")
        #expect(!error.description.contains(Self.token))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing is written")
    }

    @Test func allowingTheMessagesOrTheKeyWritesThemAndScanStillSeesThem() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let track = Self.chat(sent: #"{"type":"auth","token":"\#(Self.token)"}"#, received: [.text("demo key: \(Self.token)")])
        let vinyl = Vinyl(name: "chat", tracks: [track])
        #expect(vinyl.likelySecrets(inTracks: 0..<1, allowing: [.jsonKey("token")]).map(\.place) == ["response.webSocket.messages[1] (received)"])
        #expect(vinyl.likelySecrets(inTracks: 0..<1, allowing: [.webSocketMessages(in: .response)]).map(\.place) == [#"response.webSocket.messages[0] (sent) JSON "token""#])
        #expect(vinyl.likelySecrets(inTracks: 0..<1, allowing: [.webSocketMessages()]).isEmpty)
        // A body is not a message: allowing bodies leaves the payloads reported.
        #expect(vinyl.likelySecrets(inTracks: 0..<1, allowing: [.body(), .jsonKey("other")]).count == 2)

        let recording = Recording(mode: .once, environment: [:]).allowing([.webSocketMessages()])
        do {
            let turntable = try Turntable(vinylNamed: "chat", from: .folder(folder), recording: recording)
            turntable.keepRecordedConversation(track, with: try #require(turntable.recorder))
            try turntable.eject()
        }
        let written = try Vinyl(contentsOf: folder.appendingPathComponent("chat.json"))
        let payloads = written.tracks.first?.response?.conversation?.messages.map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(payloads == [#"{"type":"auth","token":"\#(Self.token)"}"#, "demo key: \(Self.token)"], "allowed payloads are written as sent")
        #expect(written.likelySecrets().count == 2, "scan, which allows nothing, still reports them")
    }

    @Test func theRecordingReportNamesRedactedPayloadsAsScanDoes() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let turntable = try Turntable(vinylNamed: "chat", from: .folder(folder), recording: Recording(mode: .once, environment: [:]))
        let track = Self.chat(sent: #"{"type":"auth","api_key":"k-123456789"}"#, received: [.text(#"{"session":{"password":"hunter2-correct"}}"#), .text("ok")])
        turntable.keepRecordedConversation(track, with: try #require(turntable.recorder))
        let report = try #require(try turntable.eject())
        // The place without the message's number, counted: the spelling of `gramophone scan`.
        #expect(report.redacted.map(\.description) == [#"response.webSocket.messages (sent) JSON "api_key" ×1"#, #"response.webSocket.messages (received) JSON "session.password" ×1"#])
    }

    @Test func theFilterARefusalSuggestsForAPayloadKeyTakesItOut() throws {
        let vinyl = Vinyl(name: "chat", tracks: [Self.chat(sent: #"{"op":"join","token":"\#(Self.token)"}"#, received: [.text("ok")])])
        let error = try #require(throws: VinylError.self) { try vinyl.redactedForWriting(by: .none) }
        #expect(error.place == #"tracks[0].response.webSocket.messages[0] (sent) JSON "token""#)
        #expect(error.description.contains(#"the redaction filter .jsonKeys(replacing: ["token": Redaction.placeholder])"#), "\(error)")
        let fixed = try vinyl.redactedForWriting(by: .none + .jsonKeys(replacing: ["token": Redaction.placeholder]))
        #expect(fixed.tracks[0].response?.conversation?.messages[0].payload == Data(#"{"op":"join","token":"REDACTED"}"#.utf8))
    }
}
