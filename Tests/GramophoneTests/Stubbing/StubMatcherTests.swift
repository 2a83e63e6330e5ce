import Foundation
import Testing

@testable import Gramophone

/// Each stub matcher, the variables it captures, and that a stub's matchers must all hold.
@Suite struct StubMatcherTests {
    private func request(_ url: String, method: String = "GET", headers: Headers = [:], body: String = "") throws -> Track.Request {
        Track.Request(method: method, url: try #require(URL(string: url)), headers: headers, body: Data(body.utf8))
    }

    /// The captured variables, or nil when the matcher does not hold.
    private func captured(_ matcher: StubMatcher, _ request: Track.Request) -> [String: String]? {
        if case .matched(let values) = matcher.evaluate(request, parts: RequestParts(request)) { return values }
        return nil
    }

    private func reason(_ matcher: StubMatcher, _ request: Track.Request) -> String? {
        if case .failed(let reason) = matcher.evaluate(request, parts: RequestParts(request)) { return reason }
        return nil
    }

    @Test func urlRegexSearchesTheURLAndCapturesNamedGroups() throws {
        let matcher = try StubMatcher.urlRegex("/users/(?<id>[0-9]+)$")
        #expect(captured(matcher, try request("https://api.example.com/users/42")) == ["id": "42"])
        #expect(captured(matcher, try request("https://api.example.com/users/abc")) == nil)
        #expect(reason(matcher, try request("https://api.example.com/users/abc"))?.contains("does not match") == true)
    }

    @Test func invalidRegexThrowsANamedError() {
        #expect(throws: StubError.self) { try StubMatcher.urlRegex("([unclosed") }
        do {
            _ = try StubMatcher.urlRegex("([unclosed")
        } catch {
            #expect(error.description.contains("regular expression \"([unclosed\""))
        }
    }

    @Test func uriTemplateSimpleExpressionsCaptureValues() throws {
        let matcher = try StubMatcher.uriTemplate("https://github.com/{owner}/{repo}")
        #expect(captured(matcher, try request("https://github.com/kylef/URITemplate.swift")) == ["owner": "kylef", "repo": "URITemplate.swift"])
        #expect(captured(matcher, try request("https://github.com/kylef")) == nil)
        #expect(captured(matcher, try request("https://gitlab.com/kylef/x")) == nil)
    }

    @Test func uriTemplateQueryExpressionTakesParametersInAnyOrder() throws {
        let matcher = try StubMatcher.uriTemplate("/search{?q,page}")
        #expect(captured(matcher, try request("https://x.test/search?q=swift%20lang&page=2")) == ["q": "swift lang", "page": "2"])
        #expect(captured(matcher, try request("https://x.test/search?page=3&q=a")) == ["q": "a", "page": "3"])
        #expect(captured(matcher, try request("https://x.test/search")) == [:])
        // A parameter the template does not name: the URL does not fit it.
        #expect(captured(matcher, try request("https://x.test/search?q=a&debug=1")) == nil)
    }

    @Test func uriTemplateLevelThreeOperators() throws {
        let segments = try StubMatcher.uriTemplate("/files{/path}")
        #expect(captured(segments, try request("https://x.test/files/a/b/c.txt")) == ["path": "a/b/c.txt"])
        let two = try StubMatcher.uriTemplate("{/section,item}")
        #expect(captured(two, try request("https://x.test/news/42")) == ["section": "news", "item": "42"])
        let label = try StubMatcher.uriTemplate("/report{.format}")
        #expect(captured(label, try request("https://x.test/report.csv")) == ["format": "csv"])
        let reserved = try StubMatcher.uriTemplate("https://cdn.test/{+asset}")
        #expect(captured(reserved, try request("https://cdn.test/img/logo.png")) == ["asset": "img/logo.png"])
        let matrix = try StubMatcher.uriTemplate("/map{;x,y}")
        #expect(captured(matrix, try request("https://x.test/map;x=1;y=2")) == ["x": "1", "y": "2"])
        let continued = try StubMatcher.uriTemplate("/list?fixed=1{&page}")
        #expect(captured(continued, try request("https://x.test/list?fixed=1&page=4"))?["page"] == "4")
    }

    @Test func malformedURITemplateThrows() {
        #expect(throws: StubError.self) { try StubMatcher.uriTemplate("/users/{id") }
        #expect(throws: StubError.self) { try StubMatcher.uriTemplate("/users/{}") }
    }

    @Test func pathPatternWildcardsAndVariables() throws {
        let user = try StubMatcher.path("/user/{userId}/{operation}")
        #expect(captured(user, try request("https://x.test/user/12345/delete?now=1")) == ["userId": "12345", "operation": "delete"])
        #expect(captured(user, try request("https://x.test/user/12345")) == nil)
        let star = try StubMatcher.path("/some/path/*")
        #expect(captured(star, try request("https://x.test/some/path/resource")) == [:])
        #expect(captured(star, try request("https://x.test/some/path/to/resource")) == nil)
        let middle = try StubMatcher.path("/*/path")
        #expect(captured(middle, try request("https://x.test/some/path")) != nil)
        let everything = try StubMatcher.path("*")
        #expect(captured(everything, try request("https://x.test/a/b/c")) != nil)
        #expect(throws: StubError.self) { try StubMatcher.path("/user/{id") }
        #expect(throws: StubError.self) { try StubMatcher.path("/user/id{x}") }
    }

    @Test func hostIgnoresCaseAndMethodIsExact() throws {
        #expect(captured(.host("API.example.com"), try request("https://api.example.com/x")) != nil)
        #expect(captured(.host("api.example.com"), try request("https://example.com/x")) == nil)
        #expect(captured(.method("post"), try request("https://x.test/", method: "POST")) != nil)
        #expect(reason(.method("POST"), try request("https://x.test/"))?.contains("method") == true)
    }

    @Test func headersCompareNamesInAnyCase() throws {
        let matcher = StubMatcher.header("Authorization", "Bearer t")
        #expect(captured(matcher, try request("https://x.test/", headers: ["authorization": "Bearer t", "Other": "1"])) != nil)
        #expect(captured(matcher, try request("https://x.test/", headers: ["Authorization": "Bearer u"])) == nil)
        #expect(captured(matcher, try request("https://x.test/")) == nil)
    }

    @Test func bodyBytesMustBeEqual() throws {
        #expect(captured(.body("a=1&b=2"), try request("https://x.test/", body: "a=1&b=2")) != nil)
        #expect(captured(.body("a=1&b=2"), try request("https://x.test/", body: "b=2&a=1")) == nil)
        #expect(captured(.body(Data([0, 1])), try request("https://x.test/", body: "")) == nil)
    }

    struct Login: Encodable { var user: String; var remember: Bool; var attempts: Int }

    @Test func jsonBodyIsComparedSemantically() throws {
        let matcher = try StubMatcher.json(encoding: Login(user: "mark", remember: true, attempts: 1))
        #expect(captured(matcher, try request("https://x.test/", body: #"{ "attempts": 1.0, "remember": true, "user": "mark" }"#)) != nil)
        #expect(captured(matcher, try request("https://x.test/", body: #"{"user":"anna","remember":true,"attempts":1}"#)) == nil)
        #expect(reason(matcher, try request("https://x.test/", body: "not json"))?.contains("not JSON") == true)
    }

    @Test func urlEqualityWithOptions() throws {
        let login = try #require(URL(string: "http://myws.com/login?b=2&a=1"))
        #expect(captured(.url(login), try request("HTTP://MYWS.com:80/login?a=1&b=2")) != nil)
        #expect(captured(.url(login), try request("http://myws.com/login?a=1")) == nil)
        #expect(captured(.url(login, ignoringQuery: true), try request("http://myws.com/login?username=x")) != nil)
        #expect(captured(.url(login, ignoringQuery: true), try request("http://myws.com/logout")) == nil)
    }

    @Test func customMatcherAndVinylMatcherReuse() throws {
        let agent = StubMatcher.custom("custom agent") { $0.headers["User-Agent"] == "customAgent" }
        #expect(captured(agent, try request("https://x.test/", headers: ["User-Agent": "customAgent"])) != nil)
        #expect(reason(agent, try request("https://x.test/")) == "custom agent: the custom matcher said no")
        let query = StubMatcher.matching(.query, like: try request("https://other.test/?a=1&b=2"))
        #expect(captured(query, try request("https://x.test/p?b=2&a=1")) != nil)
        #expect(captured(query, try request("https://x.test/p?a=1")) == nil)
    }

    @Test func allMatchersMustHoldAndVariablesMerge() throws {
        let stub = Stub()
            .matching(.host("api.test"))
            .matching(.method("PUT"))
            .matching(try .path("/users/{id}"))
            .matching(try .urlRegex("/(?<kind>[a-z]+)/"))
        let good = try request("https://api.test/users/7", method: "PUT")
        guard case .matched(let values) = stub.evaluate(good, parts: RequestParts(good)) else {
            Issue.record("expected a match"); return
        }
        #expect(values == ["id": "7", "kind": "users"])
        for bad in [try request("https://api.test/users/7"), try request("https://other.test/users/7", method: "PUT"), try request("https://api.test/users/7/x", method: "PUT")] {
            guard case .failed = stub.evaluate(bad, parts: RequestParts(bad)) else {
                Issue.record("\(bad.method) \(bad.url) should not match"); continue
            }
        }
    }
}
