import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `.body` by content type, what varies left out, and misses explained in those terms.
@Suite struct BodyMatchingTests {
    static let url = URL(string: "https://api.example.com/upload")!

    /// A multipart body as client code builds one, with the boundary it chose.
    static func multipart(boundary: String, _ parts: [(name: String, filename: String?, type: String?, content: Data)]) -> (Data, Headers) {
        var body = Data()
        for part in parts {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"".utf8)
            if let filename = part.filename { body += Data("; filename=\"\(filename)\"".utf8) }
            body += Data("\r\n".utf8)
            if let type = part.type { body += Data("Content-Type: \(type)\r\n".utf8) }
            body += Data("\r\n".utf8) + part.content + Data("\r\n".utf8)
        }
        body += Data("--\(boundary)--\r\n".utf8)
        return (body, ["Content-Type": "multipart/form-data; boundary=\(boundary)"])
    }

    static func avatar(_ size: Int, boundary: String, nonce: String = "n1", caption: String = "me") -> Track.Request {
        let (body, headers) = multipart(
            boundary: boundary,
            [
                ("caption", nil, nil, Data(caption.utf8)),
                ("nonce", nil, nil, Data(nonce.utf8)),
                ("avatar", "me.png", "image/png", Data((0..<size).map { UInt8($0 % 251) })),
            ])
        return Track.Request(method: "POST", url: url, headers: headers, body: body)
    }

    func miss(_ turntable: Turntable, _ request: Track.Request, sourceLocation: SourceLocation = #_sourceLocation) async throws -> MissReport {
        do {
            _ = try await turntable.data(for: request.urlRequest)
        } catch let error as TurntableError {
            return try #require(error.missReport, sourceLocation: sourceLocation)
        }
        Issue.record("expected a miss", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    func answer(_ turntable: Turntable, _ request: Track.Request) async throws -> String {
        String(decoding: try await turntable.data(for: request.urlRequest).0, as: UTF8.self)
    }

    // MARK: By content type

    @Test func multipartUploadsMatchWhateverTheBoundary() async throws {
        let turntable = Turntable(
            vinyl: Vinyl(
                name: "upload",
                tracks: [
                    Track(Self.avatar(1_024, boundary: "Boundary-\(UUID().uuidString)"), .text("small")),
                    Track(Self.avatar(1_025, boundary: "Boundary-\(UUID().uuidString)"), .text("large")),
                ]), matching: [.method, .url, .body])
        #expect(try await answer(turntable, Self.avatar(1_025, boundary: "----WebKitFormBoundary7MA4YWxkTrZu0gW")) == "large")
        #expect(try await answer(turntable, Self.avatar(1_024, boundary: "x")) == "small")

        let report = try await miss(turntable, Self.avatar(1_026, boundary: "y"))
        #expect(report.differences == [#"multipart part "avatar": 1,026 vs 1,024 bytes"#], "\(report)")
    }

    @Test func multipartPartsCompareByNameFilenameTypeAndContent() async throws {
        let (recorded, headers) = Self.multipart(boundary: "a", [("doc", "a.json", "application/json", Data(#"{"x":1,"y":[1,2]}"#.utf8)), ("title", nil, nil, Data("Hi".utf8))])
        let turntable = Turntable(
            vinyl: Vinyl(
                name: "parts",
                tracks: [
                    Track(Track.Request(method: "POST", url: Self.url, headers: headers, body: recorded), .text("ok"))
                ]), matching: [.body])
        // Parts in another order, a JSON part with its keys reordered: the same upload.
        let (same, sameHeaders) = Self.multipart(boundary: "b", [("title", nil, nil, Data("Hi".utf8)), ("doc", "a.json", "application/json; charset=utf-8", Data(#"{ "y": [1, 2], "x": 1.0 }"#.utf8))])
        #expect(try await answer(turntable, Track.Request(method: "POST", url: Self.url, headers: sameHeaders, body: same)) == "ok")

        let (renamed, renamedHeaders) = Self.multipart(boundary: "c", [("doc", "b.json", "text/plain", Data(#"{"x":1,"y":[1,2]}"#.utf8)), ("title", nil, nil, Data("Ho".utf8))])
        let report = try await miss(turntable, Track.Request(method: "POST", url: Self.url, headers: renamedHeaders, body: renamed))
        #expect(
            report.differences == [
                #"multipart part "doc" filename: b.json vs a.json"#,
                #"multipart part "doc" content type: text/plain vs application/json"#,
                #"multipart part "title": Ho vs Hi"#,
            ], "\(report)")
    }

    @Test func formsCompareAsFieldsInAnyOrderAndEncoding() async throws {
        let form: Headers = ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"]
        let turntable = Turntable(
            vinyl: Vinyl(
                name: "form",
                tracks: [
                    Track(Track.Request(method: "POST", url: Self.url, headers: form, body: Data("artist=Nina+Simone&year=1965&tag=jazz&tag=soul".utf8)), .text("found"))
                ]), matching: [.method, .url, .body])
        #expect(try await answer(turntable, Track.Request(method: "POST", url: Self.url, headers: form, body: Data("tag=jazz&year=1965&artist=Nina%20Simone&tag=soul".utf8))) == "found")
        // A multiset: a field twice is not the field once.
        let report = try await miss(turntable, Track.Request(method: "POST", url: Self.url, headers: form, body: Data("artist=Nina+Simone&year=1966&tag=jazz".utf8)))
        #expect(report.differences == [#"body form field "tag": jazz vs [jazz, soul]"#, #"body form field "year": 1966 vs 1965"#], "\(report)")
    }

    @Test func otherBodiesCompareByteForByte() async throws {
        let text: Headers = ["Content-Type": "text/plain"]
        let turntable = Turntable(
            vinyl: Vinyl(
                name: "text",
                tracks: [
                    Track(Track.Request(method: "PUT", url: Self.url, headers: text, body: Data("b=2&a=1".utf8)), .text("form-looking text")),
                    Track(Track.Request(method: "PUT", url: Self.url, headers: text, body: Data(#"{"a": 1}"#.utf8)), .text("json-looking text")),
                ]), matching: [.body])
        #expect(try await answer(turntable, Track.Request(method: "PUT", url: Self.url, headers: text, body: Data("b=2&a=1".utf8))) == "form-looking text")
        let report = try await miss(turntable, Track.Request(method: "PUT", url: Self.url, headers: text, body: Data("a=1&b=2".utf8)))
        #expect(report.differences == ["body: a=1&b=2 vs b=2&a=1"], "\(report)")
    }

    // MARK: Ignoring what varies

    @Test func ignoredJSONPathsAndArrayOrder() async throws {
        let recorded = #"{"meta":{"requestId":"r-1","client":"ios"},"items":[{"id":1,"timestamp":100},{"id":2,"timestamp":101},{"id":3,"timestamp":102}]}"#
        let track = Track(Track.Request(method: "POST", url: Self.url, headers: ["Content-Type": "application/json"], body: Data(recorded.utf8)), .text("ok"))
        let turntable = Turntable(vinyl: Vinyl(name: "json", tracks: [track]), matching: [.method, .url, .body(ignoring: ["meta.requestId", "items[].timestamp"])])
        func post(_ json: String) -> Track.Request { Track.Request(method: "POST", url: Self.url, headers: ["Content-Type": "application/json"], body: Data(json.utf8)) }

        #expect(try await answer(turntable, post(#"{"items":[{"timestamp":900,"id":1},{"id":2,"timestamp":901},{"id":3.0,"timestamp":902}],"meta":{"client":"ios","requestId":"r-2"}}"#)) == "ok")
        let report = try await miss(turntable, post(#"{"meta":{"requestId":"r-3","client":"ios"},"items":[{"id":1,"timestamp":1},{"id":2,"timestamp":1},{"id":4,"timestamp":1}]}"#))
        #expect(report.differences.first == "body.items[2].id: 4 vs 3", "\(report)")
        #expect(report.differences.contains("body.meta.requestId: ignored"))
        #expect(report.differences.contains("body.items[0].timestamp: ignored"))

        let anyOrder = Turntable(vinyl: Vinyl(name: "json", tracks: [track]), matching: [.body(ignoring: ["meta.requestId", "items[].timestamp"], ignoringArrayOrder: true)])
        #expect(try await answer(anyOrder, post(#"{"meta":{"client":"ios"},"items":[{"id":3},{"id":1},{"id":2}]}"#)) == "ok")
        await #expect(throws: TurntableError.self) { try await anyOrder.data(for: post(#"{"meta":{"client":"ios"},"items":[{"id":3},{"id":1}]}"#).urlRequest) }
    }

    @Test func ignoredFormFieldsAndMultipartParts() async throws {
        let form: Headers = ["Content-Type": "application/x-www-form-urlencoded"]
        let turntable = Turntable(
            vinyl: Vinyl(
                name: "v",
                tracks: [
                    Track(Self.avatar(64, boundary: "one", nonce: "first"), .text("upload")),
                    Track(Track.Request(method: "POST", url: Self.url, headers: form, body: Data("q=swift&nonce=abc".utf8)), .text("form")),
                ]), matching: [.body(ignoring: ["nonce"])])
        #expect(try await answer(turntable, Track.Request(method: "POST", url: Self.url, headers: form, body: Data("nonce=xyz&q=swift".utf8))) == "form")
        #expect(try await answer(turntable, Self.avatar(64, boundary: "two", nonce: "second")) == "upload")
        let report = try await miss(turntable, Self.avatar(64, boundary: "three", nonce: "third", caption: "you"))
        #expect(report.differences == [#"multipart part "caption": you vs me"#, #"multipart part "nonce": ignored"#], "\(report)")
    }

    @Test func ignoredQueryParametersAndHeaders() async throws {
        let turntable = Turntable(
            vinyl: Vinyl(
                name: "q",
                tracks: [
                    Track(
                        Track.Request(
                            url: URL(string: "https://api.example.com/feed?page=1&ts=100&sig=aa")!,
                            headers: ["Accept": "application/json", "Date": "Mon, 23 Nov 2026 10:00:00 GMT", "X-Request-Id": "1"]), .text("feed"))
                ]), matching: [.method, .path, .query(ignoring: ["ts", "sig"]), .allHeaders(excluding: ["Date", "User-Agent", "X-Request-Id"])])
        let live = Track.Request(
            url: URL(string: "https://api.example.com/feed?sig=bb&page=1&ts=200")!,
            headers: ["accept": "application/json", "Date": "Tue, 24 Nov 2026 10:00:00 GMT", "User-Agent": "Tests/1", "X-Request-Id": "2"])
        #expect(try await answer(turntable, live) == "feed")

        var other = live
        other.url = URL(string: "https://api.example.com/feed?sig=bb&page=2&ts=300")!
        other.headers["Accept"] = "text/html"
        let report = try await miss(turntable, other)
        #expect(
            report.differences == [
                "query: page=2 vs page=1", "query sig: ignored", "query ts: ignored",
                "header Accept: text/html vs application/json", "header Date: ignored", "header User-Agent: ignored", "header X-Request-Id: ignored",
            ], "\(report)")
    }

    @Test func allHeadersIgnoresAMultipartBoundaryButNotOtherHeaders() async throws {
        var recorded = Self.avatar(10, boundary: "first")
        recorded.headers["X-Client"] = "ios"
        let turntable = Turntable(vinyl: Vinyl(name: "h", tracks: [Track(recorded, .text("ok"))]), matching: [.allHeaders(), .body])
        var live = Self.avatar(10, boundary: "second")
        live.headers["X-Client"] = "ios"
        #expect(try await answer(turntable, live) == "ok")
        live.headers["X-Extra"] = "1"
        #expect(try await miss(turntable, live).differences == ["header X-Extra: 1 vs (none)"])
    }

    // Bad input never crashes: a multipart body cut short, or with no closing delimiter, or a
    // boundary that never appears, compares byte for byte; and the same bytes always match,
    // whatever boundary each side declares (issue 38: DVR's upload cassettes).
    @Test(arguments: [
        "", "--", "--b", "--b\r\n", "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx",
        "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b", "no boundary here", "--b--",
        "--b\r\nContent-Disposition: form-data; name=\"a\r\n\r\n\r\n--b--",
    ])
    func malformedMultipartComparesByteForByte(_ text: String) {
        let headers: Headers = ["Content-Type": "multipart/form-data; boundary=b"]
        let request = Track.Request(method: "POST", url: Self.url, headers: headers, body: Data(text.utf8))
        var other = request
        other.headers["Content-Type"] = "multipart/form-data; boundary=c"
        #expect(Matcher.body.matches(live: request, liveParts: RequestParts(request), recorded: other, recordedParts: RequestParts(other)))
        let difference = Matcher.body.difference(live: request, liveParts: RequestParts(request), recorded: other, recordedParts: RequestParts(other))
        #expect(difference == nil, "\(difference ?? "")")
    }

    @Test func anEmptyIgnoredPathIgnoresNothing() async throws {
        let turntable = Turntable(
            vinyl: Vinyl(
                name: "e",
                tracks: [
                    Track(Track.Request(method: "POST", url: Self.url, headers: ["Content-Type": "application/json"], body: Data(#"{"a":1}"#.utf8)), .text("ok"))
                ]), matching: [.body(ignoring: ["", "."])])
        await #expect(throws: TurntableError.self) {
            try await turntable.data(for: Track.Request(method: "POST", url: Self.url, headers: ["Content-Type": "application/json"], body: Data(#"{"a":2}"#.utf8)).urlRequest)
        }
    }

    // MARK: The index

    @Test func theIndexAnswersBodyRulesByKey() throws {
        let tracks = (0..<10_000).map { index in
            Track(Track.Request(method: "POST", url: Self.url, headers: ["Content-Type": "application/json"], body: Data(#"{"page":\#(index),"ts":\#(index)}"#.utf8)), .text("\(index)"))
        }
        for strategy: [Matcher] in [[.method, .url, .body], [.body(ignoring: ["ts"])], [.method, .graphQL], [.allHeaders(), .query(ignoring: ["a"]), .body]] {
            var index = TrackIndex(tracks: tracks, matchers: strategy)
            #expect(index.unkeyed.isEmpty, "every rule but a custom one is answered by key")
            let live = Track.Request(method: "POST", url: Self.url, headers: ["content-type": "application/json"], body: Data(#"{ "ts": 9999, "page": 9999.0 }"#.utf8))
            #expect(index.firstMatch(for: live, parts: RequestParts(live), skippingPlayed: false) == 9_999)
        }
    }

    // Index keys and pairwise comparison must agree, or track order and the index would disagree:
    // equal keys, or (for body rules) the same non-empty bytes, which the index finds by bytes.
    @Test(arguments: [
        (#"{"a":[1,2]}"#, "application/json", #"{"a":[2,1]}"#, "application/json"),
        ("a=1&b=2", "application/x-www-form-urlencoded", "b=2&a=1", ""),
        ("a=1", "text/plain", "a=1", "application/x-www-form-urlencoded"),
        ("", "", "", "application/json"),
        ("\u{FF}", "", "\u{FF}", "application/octet-stream"),
    ])
    func matchingAgreesWithTheKey(_ pair: (String, String, String, String)) {
        let a = Track.Request(method: "POST", url: Self.url, headers: pair.1.isEmpty ? [:] : ["Content-Type": pair.1], body: Data(pair.0.utf8))
        let b = Track.Request(method: "POST", url: Self.url, headers: pair.3.isEmpty ? [:] : ["Content-Type": pair.3], body: Data(pair.2.utf8))
        for matcher in [Matcher.body, .body(ignoring: ["a"], ignoringArrayOrder: true), .graphQL, .allHeaders()] {
            #expect(
                matcher.matches(live: a, liveParts: RequestParts(a), recorded: b, recordedParts: RequestParts(b))
                    == (matcher.keyComponent(a, RequestParts(a)) == matcher.keyComponent(b, RequestParts(b))
                        || (matcher.readsBody && !a.body.isEmpty && a.body == b.body)),
                "\(matcher.description)")
            var index = TrackIndex(tracks: [Track(b, .text("b"))], matchers: [matcher])
            #expect(
                (index.firstMatch(for: a, parts: RequestParts(a), skippingPlayed: false) != nil)
                    == matcher.matches(live: a, liveParts: RequestParts(a), recorded: b, recordedParts: RequestParts(b)), "\(matcher.description)")
        }
    }

    @Test func aMissComparesWithTheTrackWhoseBodyDiffersLeast() async throws {
        // One URL, JSON bodies: the first track differs everywhere, the third in one field.
        func search(_ body: String) -> Track.Request {
            Track.Request(method: "POST", url: Self.url, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        let turntable = Turntable(
            vinyl: Vinyl(
                name: "search",
                tracks: [
                    Track(request: search(#"{"query":"cats","page":9,"size":50}"#), outcome: .json("{}")),
                    Track(request: search(#"{"query":"dogs","page":2,"size":50}"#), outcome: .json("{}")),
                    Track(request: search(#"{"query":"swift","page":1,"size":10}"#), outcome: .json("{}")),
                ]), matching: [.method, .url, .body])
        let report = try await miss(turntable, search(#"{"size":10,"query":"swift","page":2}"#))
        #expect(report.nearestTrackIndex == 2, "\(report)")
        #expect(report.differences == ["body.page: 2 vs 1"], "\(report)")
    }

    /// JSON strings that differ only next to an escaped character (a quote with a combining
    /// mark after it, CR LF against LF, a control character) are different bodies; the same
    /// strings with keys in another order are the same body.
    @Test func jsonStringsAreTakenApartAroundEscapedCharacters() {
        let texts = ["\"\u{301}x", "\"x", "a\r\nb", "a\nb", "a\rb", "a\u{1}b", "a\\u0001b", "\\\"", "é\"é"]
        let comparison = JSONComparison()
        let keys = texts.map { comparison.canonicalText(.object([(key: "k", value: .string($0)), (key: "a", value: .number("1"))])) }
        #expect(Set(keys).count == texts.count, "\(keys)")
        for (text, key) in zip(texts, keys) {
            #expect(comparison.canonicalText(.object([(key: "a", value: .number("1")), (key: "k", value: .string(text))])) == key)
        }
    }
}
