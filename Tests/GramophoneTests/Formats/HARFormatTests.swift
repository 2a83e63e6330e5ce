import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HAR files from browsers and proxies read liberally; HAR we write carries what devtools require.
@Suite struct HARFormatTests {
    static func export() throws -> Vinyl {
        try Vinyl(contentsOf: FormatFiles.resource("HAR/browser-export.har"))
    }

    @Test func decodedBodiesLoseTheirStaleContentEncoding() throws {
        let feed = try #require(try Self.export().tracks.first?.response)
        #expect(feed.body == Data(#"{"items":[1,2,3],"n":3}"#.utf8))
        // The body is plain: a client told "gzip" would fail to decompress it.
        #expect(feed.headers["Content-Encoding"] == nil)
        #expect(feed.headers["Content-Length"] == nil)
        #expect(feed.headers.values(for: "Set-Cookie") == ["a=1; Path=/", "b=2; HttpOnly"])
        let brotli = try #require(try Self.export().tracks[1].response)
        #expect(brotli.headers["Content-Encoding"] == nil)
        // No Content-Type header, but content.mimeType says what the body is.
        #expect(brotli.headers["Content-Type"] == "application/json")
    }

    @Test func http2PseudoHeadersAreNotHeaders() throws {
        let request = try #require(try Self.export().tracks.first?.request)
        #expect(request.headers.fields.map(\.name) == ["Accept-Encoding"])
    }

    @Test func bodyStillGzippedKeepsItsEncoding() throws {
        var headers: Headers = ["Content-Encoding": "gzip"]
        HARFormat.dropStaleContentEncoding(&headers, body: Data([0x1F, 0x8B, 0x08, 0x00]))
        #expect(headers["Content-Encoding"] == "gzip")
    }

    @Test func base64ContentIsDecoded() throws {
        let pixel = try #require(try Self.export().tracks[2].response)
        #expect(pixel.body == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    @Test func postDataParamsAndTextBecomeBodies() throws {
        let vinyl = try Self.export()
        #expect(vinyl.tracks[3].request.body == Data("user=ada+lovelace&pass=a%26b%3Dc".utf8))
        #expect(vinyl.tracks[3].request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(vinyl.tracks[4].request.body == Data("hello".utf8))
        #expect(vinyl.tracks[4].request.headers.values(for: "Content-Type") == ["text/plain"])
    }

    @Test func missingOptionalFieldsAreDefaults() throws {
        let vinyl = try Self.export()
        #expect(vinyl.tracks[2].recordedAt == nil)
        #expect(vinyl.tracks[0].duration == 0.0425)
        #expect(vinyl.tracks[0].recordedAt == ISO8601.parse("2026-11-20T10:00:00.123Z"))
        #expect(vinyl.tracks[3].response?.status == 204)
    }

    @Test func statusZeroIsATransportError() throws {
        let failure = try #require(try Self.export().tracks[5].failure)
        #expect(failure.code == URLError.Code.notConnectedToInternet.rawValue)
    }

    @Test func severalEntriesForOneURLPlayInTurn() async throws {
        let vinyl = try Self.export()
        let turntable = Turntable(vinyl: vinyl, matching: .attributes([.method, .url], playOnce: true))
        let url = try #require(URL(string: "https://api.example.com/feed"))
        let (first, _) = try await turntable.data(from: url)
        let (second, _) = try await turntable.data(from: url)
        #expect(first == Data(#"{"items":[1,2,3],"n":3}"#.utf8))
        #expect(second == Data(#"{"items":[],"n":0}"#.utf8))
    }

    @Test func writtenHARHasTheFieldsDevtoolsRequire() throws {
        let vinyl = Vinyl(
            name: "w",
            tracks: [
                Track("POST https://api.example.com/search?q=a%20b&page=2", .json(#"{"ok":true}"#, status: 201, headers: ["Set-Cookie": "s=1; Path=/; Secure"]))
                    .withRequestBody(Data("q=1".utf8), headers: ["Cookie": "x=1; y=2", "Content-Type": "application/x-www-form-urlencoded"]),
                Track("https://api.example.com/bytes", .data(Data([0xFF, 0x00, 0xFE]))),
                Track("https://api.example.com/down", .error(.timedOut)),
            ])
        let object = try #require(try JSONSerialization.jsonObject(with: try vinyl.encoded(as: .har)) as? [String: Any])
        let log = try #require(object["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        #expect((log["creator"] as? [String: Any])?["name"] as? String == "Gramophone")
        let entries = try #require(log["entries"] as? [[String: Any]])
        for entry in entries {
            for key in ["startedDateTime", "time", "request", "response", "cache", "timings"] { #expect(entry[key] != nil, "entry.\(key)") }
            let request = try #require(entry["request"] as? [String: Any])
            for key in ["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"] { #expect(request[key] != nil, "request.\(key)") }
            let response = try #require(entry["response"] as? [String: Any])
            for key in ["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize"] { #expect(response[key] != nil, "response.\(key)") }
            let content = try #require(response["content"] as? [String: Any])
            #expect(content["size"] != nil && content["mimeType"] != nil)
        }
        let request = try #require(entries[0]["request"] as? [String: Any])
        let query = try #require(request["queryString"] as? [[String: String]])
        #expect(query == [["name": "q", "value": "a b"], ["name": "page", "value": "2"]])
        #expect((request["cookies"] as? [[String: Any]])?.count == 2)
        #expect((request["postData"] as? [String: Any])?["text"] as? String == "q=1")
        let response = try #require(entries[0]["response"] as? [String: Any])
        #expect(response["statusText"] as? String == "Created")
        let cookie = try #require((response["cookies"] as? [[String: Any]])?.first)
        #expect(cookie["name"] as? String == "s" && cookie["path"] as? String == "/" && cookie["secure"] as? Bool == true)
        let binary = try #require((entries[1]["response"] as? [String: Any])?["content"] as? [String: Any])
        #expect(binary["encoding"] as? String == "base64")
        #expect((entries[2]["response"] as? [String: Any])?["status"] as? Int == 0)
        // And the error comes back as the same error.
        #expect(try Vinyl(data: try vinyl.encoded(as: .har), name: "w").tracks[2].failure == vinyl.tracks[2].failure)
    }

    @Test func malformedEntryNamesItsPlace() throws {
        let text = #"{"log": {"entries": [{"request": {"url": "https://a.example/"}, "response": {"status": 200}}, {"request": {"url": "https://a.example/"}, "response": {"status": "OK"}}]}}"#
        #expect {
            try Vinyl(data: Data(text.utf8), name: "bad", file: "bad.har")
        } throws: { error in
            let error = error as? VinylError
            return error?.kind == .malformed && error?.place == "log.entries[1].response.status" && error?.file == "bad.har"
        }
    }
}

extension Track {
    /// The same track with a request body and extra request headers.
    func withRequestBody(_ body: Data, headers: Headers) -> Track {
        var copy = self
        copy.request.body = body
        for field in headers.fields { copy.request.headers.add(name: field.name, value: field.value) }
        return copy
    }
}
