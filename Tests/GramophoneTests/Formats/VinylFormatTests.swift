import Foundation
import Testing

@testable import Gramophone

/// The JSON vinyl format: readable bodies, byte-exact round trips, stable output.
@Suite struct VinylFormatTests {
    static let contentTypes: [String?] = [
        nil, "text/plain", "text/plain; charset=utf-8", "text/html", "application/json",
        "application/json; charset=utf-8", "application/vnd.api+json", "application/xml",
        "application/x-www-form-urlencoded", "application/octet-stream", "image/png", "multipart/form-data; boundary=x",
    ]

    /// Bodies chosen to break naive encoders: invalid UTF-8, invalid JSON, JSON that is not
    /// compact, a JSON string fragment, empty, NUL bytes, escapes, a UTF-8 BOM.
    static let awkwardBodies: [Data] = [
        Data(), Data([0xFF, 0xFE, 0x00, 0x80]), Data("{\"b\":1,\"a\":[true,null,1.50,-0e3]}".utf8),
        Data("{ \"spaced\" : 1 }".utf8), Data("{\"unterminated\":".utf8), Data("\"just a string\"".utf8),
        Data("42".utf8), Data("line\r\nbreak\ttab\u{0}nul".utf8), Data([0xEF, 0xBB, 0xBF] + Array("bom".utf8)),
        Data("é ü \u{1F600} \\\"quoted\\\" /slash".utf8), Data("{\"a\":\"\\u00e9\"}".utf8),
    ]

    @Test func randomBodiesRoundTripByteIdenticallyUnderEveryContentType() throws {
        var generator = SplitMix64(seed: 0x5EED)
        var bodies = Self.awkwardBodies
        for _ in 0..<150 {
            let count = Int.random(in: 0...64, using: &generator)
            bodies.append(Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }))
            let ascii = (0..<count).map { _ in UInt8.random(in: 0x20...0x7E, using: &generator) }
            bodies.append(Data(ascii))
        }
        for contentType in Self.contentTypes {
            var headers = Headers()
            if let contentType { headers["Content-Type"] = contentType }
            let tracks = bodies.map { body in
                Track(
                    request: Track.Request(method: "POST", url: URL(string: "https://example.com/upload?x=1")!, headers: headers, body: body),
                    response: Track.Response(status: 200, headers: headers, body: body))
            }
            let vinyl = Vinyl(name: "round-trip", tracks: tracks)
            let reread = try Vinyl(data: try vinyl.encoded(), name: "ignored")
            for (original, copy) in zip(tracks, reread.tracks) {
                #expect(copy.request.body == original.request.body, "request body under \(contentType ?? "no content type"): \(Array(original.request.body))")
                #expect(copy.response?.body == original.response?.body, "response body under \(contentType ?? "no content type")")
            }
            #expect(reread == vinyl)
        }
    }

    @Test func bodiesAreStoredTheReadableWay() throws {
        let vinyl = Vinyl(
            name: "readable",
            tracks: [
                Track("POST https://api.example.com/users", .json(#"{"id":1,"name":"Ada"}"#)),
                Track("https://api.example.com/readme", .text("hello")),
                Track("https://api.example.com/logo", .data(Data([0x89, 0x50, 0x4E, 0x47]), contentType: "image/png")),
            ])
        let text = String(decoding: try vinyl.encoded(), as: UTF8.self)
        #expect(text.contains("\"id\": 1"), "JSON bodies are stored as JSON values:\n\(text)")
        #expect(text.contains("\"body\": \"hello\""))
        #expect(text.contains("\"body\": \"iVBORw==\""))
        #expect(!text.contains("bodyEncoding"), "nothing needs an explicit encoding here")
    }

    @Test func explicitEncodingOnlyWhereTheGuessWouldLoseBytes() throws {
        let invalidUTF8 = Track("https://example.com/t", .data(Data([0xC3, 0x28]), contentType: "text/plain"))
        let prettyJSON = Track("https://example.com/j", .data(Data("{ \"a\": 1 }".utf8), contentType: "application/json"))
        let text = String(decoding: try Vinyl(name: "x", tracks: [invalidUTF8, prettyJSON]).encoded(), as: UTF8.self)
        #expect(text.contains("\"bodyEncoding\": \"base64\""))
        #expect(text.contains("\"body\": \"{ \\\"a\\\": 1 }\""), "non-compact JSON is kept as its exact text:\n\(text)")
    }

    @Test func outputIsStableAndSorted() throws {
        let vinyl = Vinyl(
            name: "stable",
            tracks: [
                Track(Track.Request("GET https://example.com/a").header("Zeta", "1").header("Alpha", "2"), .json(#"{"z":1,"a":2}"#))
            ])
        let first = try vinyl.encoded()
        let second = try Vinyl(data: first, name: "stable").encoded()
        #expect(first == second, "writing what was read changes nothing")
        let text = String(decoding: first, as: UTF8.self)
        let alpha = try #require(text.range(of: "\"Alpha\"")), zeta = try #require(text.range(of: "\"Zeta\""))
        #expect(alpha.lowerBound < zeta.lowerBound, "header keys are sorted")
        let bodyZ = try #require(text.range(of: "\"z\": 1")), bodyA = try #require(text.range(of: "\"a\": 2"))
        #expect(bodyZ.lowerBound < bodyA.lowerBound, "body keys keep the order the server sent")
        #expect(text.hasSuffix("}\n"))
    }

    @Test func errorsDatesAndDurationsRoundTrip() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let vinyl = Vinyl(
            name: "errors",
            tracks: [
                Track(request: Track.Request(url: URL(string: "https://example.com/offline")!), outcome: .error(.notConnectedToInternet), recordedAt: date, duration: 0.125),
                Track(
                    request: Track.Request(url: URL(string: "https://example.com/custom")!), outcome: .failure(Track.Failure(domain: "MyDomain", code: 7, description: "custom")), recordedAt: nil,
                    duration: nil),
            ])
        let reread = try Vinyl(data: try vinyl.encoded(), name: "errors")
        #expect(reread.tracks[0].failure == vinyl.tracks[0].failure)
        #expect(reread.tracks[0].recordedAt == date)
        #expect(reread.tracks[0].duration == 0.125)
        #expect(reread.tracks[1].failure?.domain == "MyDomain")
    }

    @Test func repeatedHeadersSurviveAsLists() throws {
        var headers = Headers()
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "Set-Cookie", value: "b=2")
        let vinyl = Vinyl(name: "cookies", tracks: [Track(Track.Request("https://example.com"), .status(204, headers: headers))])
        let reread = try Vinyl(data: try vinyl.encoded(), name: "cookies")
        #expect(reread.tracks[0].response?.headers.values(for: "set-cookie") == ["a=1", "b=2"])
    }
}
