import Foundation
import Testing

@testable import Gramophone

/// The default redaction against what language models stream: `token` is their unit of text
/// (`data: {"token":"Hel"}`, OpenAI's `logprobs[].token`, Gemini's `logprobsResult`), so in
/// responses it is a secret only when its value has a credential's shape. The corpus is in
/// Resources/LLMStreams (shapes from the providers' API references); RELIABILITY.md keeps the count.
@Suite("LLM stream corpus")
struct LLMStreamCorpusTests {
    static var folder: URL { FormatFiles.resource("LLMStreams") }

    static func files() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { ["sse", "json"].contains($0.pathExtension) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// A recorded track of `body`: streamed one event a chunk for `.sse`, whole for `.json`.
    static func track(_ body: Data, streamed: Bool) -> Track {
        var response = Track.Response(headers: ["Content-Type": streamed ? "text/event-stream" : "application/json"], body: body)
        if streamed {
            let events = StreamCutter.eventRanges(in: body, eventStream: true)
            response.stream = TrackStream(chunks: events.enumerated().map { .init(offset: Double($0.offset) * 0.01, length: $0.element.count) }, end: .finished)
        }
        return Track(request: Track.Request(method: "POST", url: URL(string: "https://api.example.com/v1/chat")!), outcome: .response(response))
    }

    /// Values under names the default treats as secrets by name alone (before `token` looked at
    /// the value): what it would have redacted.
    static func namedValues(_ value: JSONValue) -> Int {
        switch value {
        case .object(let members):
            return members.reduce(0) { count, member in
                switch member.value {
                case .string, .number: return count + (SensitiveNames.isSecretKey(member.key) ? 1 : 0)
                default: return count + namedValues(member.value)
                }
            }
        case .array(let items): return items.reduce(0) { $0 + namedValues($1) }
        default: return 0
        }
    }

    static func payloads(_ body: Data, streamed: Bool) -> [Data] {
        guard streamed else { return [body] }
        return String(decoding: body, as: UTF8.self).split(separator: "\n").compactMap { line in
            line.hasPrefix("data:") ? Data(line.dropFirst(5).drop { $0 == " " }.utf8) : nil
        }
    }

    @Test func theDefaultLeavesEveryEventOfEveryProviderAlone() throws {
        let files = try Self.files()
        #expect(files.count >= 12)
        var events = 0, byNameAlone = 0, changed: [String] = []
        for file in files {
            let body = try Data(contentsOf: file)
            let streamed = file.pathExtension == "sse"
            let payloads = Self.payloads(body, streamed: streamed)
            events += payloads.count
            byNameAlone += payloads.compactMap { try? JSONParser.parse($0) }.map(Self.namedValues).reduce(0, +)
            let track = Self.track(body, streamed: streamed)
            let redacted = Redaction.default.redact(track)
            if redacted != track { changed.append(file.lastPathComponent) }
            let vinyl = Vinyl(name: "llm", tracks: [track])
            #expect(vinyl.likelySecrets().isEmpty, "\(file.lastPathComponent): \(vinyl.likelySecrets())")
        }
        // RELIABILITY.md: "LLM streams".
        print("LLM stream corpus: \(files.count) files, \(events) events; \(byNameAlone) values under secret names by name alone; \(changed.count) files changed by the default redaction")
        #expect(byNameAlone > 0, "the corpus must hold `token` fields, or it measures nothing")
        #expect(changed.isEmpty, "\(changed)")
    }

    /// A credential under `token` in a response (a registry's or an app's token endpoint) is
    /// still taken out, streamed or whole, and still found by the scan.
    @Test func credentialShapedTokensInResponsesAreStillRedacted() throws {
        let opaque = [
            String(repeating: "9f86d081884c7d659a2feaa0c55ad015", count: 2),  // 64 hex
            "2YotnFZFEjr1zCsicMWpAA",  // RFC 6749's example access token
            "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0",  // 40 hex
        ]
        for value in SecretCorpusTests.tokens.map(\.token) + opaque {
            let text = String(decoding: JSONWriter.compact(.object([("token", .string(value)), ("expires_at", .string("2026-11-26T12:00:00Z"))])), as: UTF8.self)
            for streamed in [false, true] {
                let body = Data((streamed ? "data: \(text)\n\n" : text).utf8)
                let redacted = Redaction.default.redact(Self.track(body, streamed: streamed))
                let written = String(decoding: redacted.response?.body ?? Data(), as: UTF8.self)
                #expect(!written.contains(value), "\(value) kept (streamed: \(streamed))")
                #expect(written.contains(#""token":"REDACTED""#), "\(written)")
                if !streamed {
                    #expect(Vinyl(name: "t", tracks: [Self.track(body, streamed: false)]).likelySecrets().contains { $0.place == #"response.body JSON "token""# })
                }
            }
        }
    }

    /// In requests the name decides, as before: a `token` sent is a credential sent.
    @Test func tokenInRequestsIsStillASecretByName() {
        let request = Track.Request(
            method: "POST", url: URL(string: "https://api.example.com/login")!, headers: ["Content-Type": "application/json"],
            body: Data(#"{"token":"abc123","user":"ada"}"#.utf8))
        let redacted = Redaction.default.redact(request)
        #expect(String(decoding: redacted.body, as: UTF8.self) == #"{"token":"REDACTED","user":"ada"}"#)
    }

    @Test(arguments: [
        ("Hel", false), (" there", false), ("<|eot_id|>", false), ("12345", false), ("supercalifragilistic", false),
        ("a1b2c3d4e5f6a7b8c9d0e1f2a3b4", true), ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefgh", true), ("Abcdefghij0123456789Kl", true),
    ])
    func credentialShapes(_ value: String, _ expected: Bool) {
        #expect(SensitiveNames.looksLikeCredential(value) == expected)
    }
}
