import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a Turntable picks the track for a request.
@Suite struct MatchingTests {
    func body(_ turntable: Turntable, _ request: URLRequest) async throws -> String {
        String(decoding: try await turntable.data(for: request).0, as: UTF8.self)
    }

    func request(_ method: String = "GET", _ url: String, headers: [String: String] = [:], body: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    @Test func defaultMatchesMethodAndURL() async throws {
        let turntable = Turntable(
            vinyl: Vinyl(
                name: "users",
                tracks: [
                    Track("GET https://api.example.com/users", .text("list")),
                    Track("POST https://api.example.com/users", .text("created")),
                ]))
        #expect(try await body(turntable, request("POST", "https://api.example.com/users")) == "created")
        #expect(try await body(turntable, request("GET", "https://api.example.com/users")) == "list")
        await #expect(throws: TurntableError.self) { try await turntable.data(for: request("DELETE", "https://api.example.com/users")) }
    }

    @Test func urlMatchingIgnoresQueryOrderCaseOfHostDefaultPortAndFragment() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "q", tracks: [Track("GET https://API.example.com/search?b=2&a=1", .text("found"))]))
        #expect(try await body(turntable, request("GET", "https://api.example.com:443/search?a=1&b=2#top")) == "found")
        await #expect(throws: TurntableError.self) { try await turntable.data(for: request("GET", "https://api.example.com/search?a=1&b=3")) }
    }

    @Test(arguments: [
        (Matcher.scheme, "http://api.example.com/x", "https://other.example.com/y?z=1"),
        (Matcher.host, "https://api.example.com/other?q=9", "https://api2.example.com/x"),
        (Matcher.port, "https://elsewhere.example.com:8443/y", "https://api.example.com/x"),
        (Matcher.path, "https://other.example.com/x?q=9", "https://api.example.com/y"),
        (Matcher.query, "https://other.example.com/z?b=2&a=1", "https://api.example.com/x?a=1"),
    ])
    func eachURLPartMatchesOnItsOwn(_ matcher: Matcher, _ hit: String, _ miss: String) async throws {
        let recorded = [
            "scheme": "http://api.example.com/x?a=1&b=2",
            "host": "https://api.example.com/x?a=1&b=2",
            "port": "https://api.example.com:8443/x?a=1&b=2",
            "path": "https://api.example.com/x?a=1&b=2",
            "query": "https://api.example.com/x?a=1&b=2",
        ][matcher.description]!
        let turntable = Turntable(
            vinyl: Vinyl(
                name: "parts",
                tracks: [
                    Track(request: Track.Request(url: URL(string: recorded)!), outcome: .text("hit"))
                ]), matching: .attributes([matcher]))
        #expect(try await body(turntable, request("GET", hit)) == "hit", "\(matcher) should match \(hit)")
        await #expect(throws: TurntableError.self, "\(matcher) should not match \(miss)") { try await turntable.data(for: request("GET", miss)) }
    }

    @Test func methodMatcherAlone() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "m", tracks: [Track("PUT https://a.example.com/1", .text("put"))]), matching: .attributes([.method]))
        #expect(try await body(turntable, request("PUT", "https://b.example.com/2")) == "put")
        await #expect(throws: TurntableError.self) { try await turntable.data(for: request("GET", "https://a.example.com/1")) }
    }

    @Test func headersMatchByNameInAnyCase() async throws {
        let vinyl = try Vinyl(contentsOf: TestFiles.fixture("dvr/different-headers.json"))
        let turntable = Turntable(vinyl: vinyl, matching: .attributes([.method, .url, .headers("foo")]))
        #expect(try await body(turntable, request("GET", "http://example.com", headers: ["FOO": "Bar2"])) == "hello again")
        #expect(try await body(turntable, request("GET", "http://example.com", headers: ["foo": "Bar1"])) == "hello")
        await #expect(throws: TurntableError.self) { try await turntable.data(for: request("GET", "http://example.com", headers: ["Foo": "Bar3"])) }
    }

    @Test func jsonBodiesMatchRegardlessOfKeyOrderAndWhitespace() async throws {
        let vinyl = try Vinyl(contentsOf: TestFiles.fixture("vinyl/vinyl_upload.json"))
        let turntable = Turntable(vinyl: vinyl, matching: .attributes([.method, .url, .body]))
        let reordered = "{\n  \"password\" : \"stardust\",  \"username\":\"ziggy\" }"
        #expect(try await body(turntable, request("POST", "http://api.test.com", body: reordered)) == #"{"token":"thespidersfrommars"}"#)
        await #expect(throws: TurntableError.self) {
            try await turntable.data(for: request("POST", "http://api.test.com", body: #"{"username":"ziggy","password":"wrong"}"#))
        }
    }

    @Test func nonJSONBodiesMustBeEqualBytes() async throws {
        let turntable = Turntable(
            vinyl: Vinyl(
                name: "b",
                tracks: [
                    Track(Track.Request("POST https://e.com/x").body(Data("a=1&b=2".utf8), contentType: "application/x-www-form-urlencoded"), .text("form")),
                    Track(Track.Request("POST https://e.com/x").body(Data("plain".utf8)), .text("plain")),
                ]), matching: .attributes([.method, .url, .body]))
        #expect(try await body(turntable, request("POST", "https://e.com/x", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "b=2&a=1")) == "form")
        #expect(try await body(turntable, request("POST", "https://e.com/x", body: "plain")) == "plain")
        await #expect(throws: TurntableError.self) { try await turntable.data(for: request("POST", "https://e.com/x", body: "Plain")) }
    }

    @Test func customMatchersDecide() async throws {
        let version = Matcher.custom("api version") { live, recorded in
            live.headers["Accept"]?.contains("v2") == recorded.headers["Accept"]?.contains("v2")
        }
        let turntable = Turntable(
            vinyl: Vinyl(
                name: "c",
                tracks: [
                    Track(Track.Request("GET https://e.com/x").header("Accept", "application/vnd.e.v1+json"), .text("v1")),
                    Track(Track.Request("GET https://e.com/x").header("Accept", "application/vnd.e.v2+json"), .text("v2")),
                ]), matching: .attributes([.method, .url, version]))
        #expect(try await body(turntable, request("GET", "https://e.com/x", headers: ["Accept": "application/vnd.e.v2+json; q=1"])) == "v2")
        #expect(try await body(turntable, request("GET", "https://e.com/x", headers: ["Accept": "application/vnd.e.v1+json"])) == "v1")
    }

    /// Identical requests get their recorded occurrences in order; then the last repeats,
    /// or, playing each once, the request misses.
    @Test func repeatedRequestsReplayTheirOccurrencesInOrder() async throws {
        let tracks = [Track("GET https://e.com/counter", .text("1")), Track("GET https://e.com/counter", .text("2"))]
        let replaying = Turntable(vinyl: Vinyl(name: "r", tracks: tracks))
        #expect(try await body(replaying, request("GET", "https://e.com/counter")) == "1")
        #expect(try await body(replaying, request("GET", "https://e.com/counter")) == "2")
        #expect(try await body(replaying, request("GET", "https://e.com/counter")) == "2")

        let once = Turntable(vinyl: Vinyl(name: "r", tracks: tracks), matching: .attributes([.method, .url], playOnce: true))
        #expect(try await body(once, request("GET", "https://e.com/counter")) == "1")
        #expect(try await body(once, request("GET", "https://e.com/counter")) == "2")
        do {
            _ = try await once.data(for: request("GET", "https://e.com/counter"))
            Issue.record("a third request must miss when each track plays once")
        } catch let error as TurntableError {
            #expect(error.description.contains("already been played"), "\(error)")
        }
    }

    @Test func trackOrderGivesTheNthTrackToTheNthRequest() async throws {
        let turntable = Turntable(
            vinyl: Vinyl(
                name: "o",
                tracks: [
                    Track("GET https://e.com/a", .text("first")),
                    Track("GET https://e.com/b", .text("second")),
                ]), matching: .trackOrder())
        #expect(try await body(turntable, request("GET", "https://e.com/anything")) == "first")
        #expect(try await body(turntable, request("POST", "https://e.com/else")) == "second")
        do {
            _ = try await turntable.data(for: request("GET", "https://e.com/a"))
            Issue.record("past the last track must miss")
        } catch let error as TurntableError {
            #expect(error.description.contains("all 2 tracks have been played"), "\(error)")
        }
    }

    @Test func trackOrderCanCheckEachPair() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "o", tracks: [Track("GET https://e.com/a", .text("first"))]), matching: .trackOrder(checking: [.path]))
        do {
            _ = try await turntable.data(for: request("GET", "https://e.com/b"))
            Issue.record("a checked mismatch must miss")
        } catch let error as TurntableError {
            #expect(error.description.contains("path: /b vs /a"), "\(error)")
        }
    }

    @Test func missReportNamesTheVinylTheNearestTrackAndTheDifferingField() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Vinyl(
            name: "users",
            tracks: [
                Track("GET https://api.example.com/users?page=1", .json("[]")),
                Track("POST https://api.example.com/sessions", .json("{}")),
            ]
        ).write(to: folder.appendingPathComponent("users.json"))
        let turntable = try Turntable(vinylNamed: "users", from: .folder(folder))
        do {
            _ = try await turntable.data(for: request("GET", "https://api.example.com/users?page=2"))
            Issue.record("expected a miss")
        } catch let error as TurntableError {
            let report = try #require(error.missReport)
            #expect(report.nearestTrackIndex == 0)
            #expect(report.differences == ["query: page=2 vs page=1"])
            let text = error.description
            #expect(text.contains("vinyl \"users\""))
            #expect(text.contains(folder.appendingPathComponent("users.json").path))
            #expect(text.contains("GET https://api.example.com/users?page=2"))
            #expect(text.contains("query: page=2 vs page=1"))
            // Made without recording:, so the variable would do nothing: the advice says what works.
            #expect(text.contains("pass recording: Recording(mode: .newEpisodes) to Turntable(vinylNamed:)"), "says how to record it")
            #expect(!text.contains("GRAMOPHONE_RECORD_MODE"))
        }
        #expect(turntable.playback.misses == 1)
    }

    // URL-part matchers compare parts instead of building text (miss reports compare every
    // track); the answer must stay what comparing the texts gives, alike-printing queries included.
    @Test(arguments: [
        ("https://api.example.com/users?page=1", "https://api.example.com/users?page=1"),
        ("https://api.example.com/users?page=1&q=a", "https://API.example.com/users?q=a&page=1"),
        ("https://api.example.com/users?page=1", "https://api.example.com/users?page=2"),
        ("https://api.example.com/users", "https://api.example.com/users?"),
        ("https://api.example.com/users", "http://api.example.com/users"),
        ("https://api.example.com:443/users", "https://api.example.com/users"),
        ("https://api.example.com:8443/users", "https://api.example.com/users"),
        ("https://api.example.com/users/%C3%A9?x=%20", "https://api.example.com/users/%C3%A9?x=+"),
        ("https://api.example.com/a;b?flag", "https://api.example.com/a;b?flag="),
        ("https://other.example.com/users?page=1", "https://api.example.com/users?page=1"),
        ("https://api.example.com/users?a%3Db", "https://api.example.com/users?a=b"),
        ("?http://DF%BFD", "http://page=1/42http://"),
        ("=/", "//="),
    ])
    func partMatchersAgreeWithComparingText(_ urls: (String, String)) throws {
        let a = Track.Request(url: try #require(URL(string: urls.0))), b = Track.Request(method: "GET", url: try #require(URL(string: urls.1)))
        let aParts = RequestParts(a), bParts = RequestParts(b)
        for matcher in [Matcher.method, .url, .scheme, .host, .port, .path, .query] {
            #expect(
                matcher.matches(live: a, liveParts: aParts, recorded: b, recordedParts: bParts)
                    == (matcher.keyComponent(aParts) == matcher.keyComponent(bParts)), "\(matcher)")
        }
    }

    @Test func missReportFindsTheNearestOfManyTracks() async throws {
        let tracks = (0..<5_000).map { index in
            Track(request: Track.Request(url: URL(string: "https://api.example.com/items/\(index % 50)?v=\(index)")!), outcome: .text("item \(index)"))
        }
        let turntable = Turntable(vinyl: Vinyl(name: "many", tracks: tracks))
        do {
            _ = try await turntable.data(for: request("GET", "https://api.example.com/items/17?v=x"))
            Issue.record("expected a miss")
        } catch let error as TurntableError {
            let report = try #require(error.missReport)
            // Same method, host and path first: the first track on /items/17.
            #expect(report.nearestTrackIndex == 17)
            #expect(report.differences == ["query: v=x vs v=17"])
        }
    }

    @Test func indexedLookupFindsTheLastOfManyTracks() async throws {
        let tracks = (0..<20_000).map { index in
            Track(request: Track.Request(url: URL(string: "https://api.example.com/items/\(index)?v=1")!), outcome: .text("item \(index)"))
        }
        let turntable = Turntable(vinyl: Vinyl(name: "big", tracks: tracks))
        #expect(try await body(turntable, request("GET", "https://api.example.com/items/19999?v=1")) == "item 19999")
        #expect(try await body(turntable, request("GET", "https://api.example.com/items/0?v=1")) == "item 0")
    }
}
