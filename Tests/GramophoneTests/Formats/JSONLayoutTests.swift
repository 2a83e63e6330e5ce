import Foundation
import Testing

@testable import Gramophone

/// JSON bodies as servers lay them out, stored as JSON in a vinyl and read back byte for byte.
@Suite struct JSONLayoutTests {
    static func stored(_ body: String) throws -> (JSONValue?, JSONValue?, Data) {
        let track = Track(
            request: Track.Request(url: URL(string: "https://api.example.com/a")!),
            response: Track.Response(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8)))
        let data = try Vinyl(name: "layout", tracks: [track]).encoded()
        let response = try JSONParser.parse(data)["tracks"]?.arrayValue?.first?["response"]
        let back = try #require(try Vinyl(data: data, name: "layout").tracks.first?.response?.body)
        return (response?["body"], response?["bodyLayout"], back)
    }

    @Test(arguments: [
        (#"{"a": 1, "b": [1, 2], "c": {}}"#, "space after colon, space after comma"),  // Python's json.dumps
        ("{\n  \"slides\": [\n    1,\n    2\n  ],\n  \"x\": []\n}\n", "indent 2, space after colon, final newline"),  // httpbin, Flask
        ("{\n  \"url\" : \"http:\\/\\/a.example\\/b\"\n}", "indent 2, space before colon, space after colon, escaped slashes"),  // JSONSerialization
        (#"{"name": "Caf\u00e9 \ud83d\ude00"}"#, "space after colon, ascii escapes"),  // ensure_ascii
        ("{\n\t\"a\": true\n}", "indent 1 tab, space after colon"),
        ("[{\"id\":1}]\n", "final newline"),
    ])
    func aLaidOutBodyIsStoredAsJSONAndReadBackExactly(body: String, layout: String) throws {
        let (value, storedLayout, back) = try Self.stored(body)
        switch value {
        case .object?, .array?: break
        default: Issue.record("stored as \(value?.kindName ?? "nothing")")
        }
        #expect(storedLayout == .string(layout))
        #expect(back == Data(body.utf8))
    }

    @Test func aLayoutNoneOfTheKnownOnesGivesBackIsStoredAsText() throws {
        let body = "{ \"a\" :1,\n\"b\": 2}"
        let (value, layout, back) = try Self.stored(body)
        #expect(value == .string(body))
        #expect(layout == nil)
        #expect(back == Data(body.utf8))
    }

    @Test func anUnknownLayoutIsAnErrorWithItsPlace() throws {
        let text = #"{"tracks": [{"request": {"url": "https://a.example/"}, "response": {"status": 200, "body": {"a": 1}, "bodyLayout": "indent sideways"}}]}"#
        let error = try #require(throws: VinylError.self) { try Vinyl(data: Data(text.utf8), name: "bad", file: "bad.json") }
        #expect(error.place == "tracks[0].response.bodyLayout")
    }

    @Test func aRedactionKeepsTheLayoutTheBodyCameIn() {
        let body = Data("{\n  \"token\": \"abc123\",\n  \"user\": \"ada\"\n}\n".utf8)
        let redacted = Redaction.jsonKeys(replacing: ["token": "REDACTED"]).redact(
            Track(
                request: Track.Request(url: URL(string: "https://api.example.com/a")!),
                response: Track.Response(status: 200, headers: ["Content-Type": "application/json"], body: body)))
        let text = String(decoding: redacted.response?.body ?? Data(), as: UTF8.self)
        #expect(text == "{\n  \"token\": \"REDACTED\",\n  \"user\": \"ada\"\n}\n", "\(text)")
        #expect(!text.contains("abc123"))
    }
}
