import Foundation
import Testing

@testable import Gramophone

/// OHHTTPStubs' and Mocker's idioms, each with its like-for-like Gramophone form.
@Suite struct StubIdiomTests {
    @Test func aDelayAndAThroughputTogetherBothApply() {
        // OHHTTPStubs: `.requestTime(0.5, responseTime: OHHTTPStubsDownloadSpeedEDGE)`.
        let either = StubResponse.text("x").delivered(.delayed(0.5)).delivered(.throughput(.edge))
        let other = StubResponse.text("x").delivered(.throughput(.edge)).delivered(.delayed(0.5))
        for response in [either, other] {
            let plan = response.condition.deliveryPlan(byteCount: 32_000)
            #expect(plan.initialDelay == 0.5)
            #expect(plan.chunks.count == 20)  // 16 KB/s in 0.1 s chunks: 1 600 bytes each
        }
    }
}

@Suite struct StubIdiomReplayTests {
    private func status(_ turntable: Turntable, _ request: URLRequest) async -> Int? {
        guard let (_, response) = try? await turntable.data(for: request) else { return nil }
        return (response as? HTTPURLResponse)?.statusCode
    }

    @Test func aPathRegexIsAnchoredToThePath() async throws {
        // OHHTTPStubs: `pathMatches("^/users/[0-9]+$")`.
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        turntable.stubs.add(try Stub().matching(.pathRegex("^/users/(?<id>[0-9]+)$")).responding(with: .dynamic { .text($0.variables["id"] ?? "") }))
        let (data, _) = try await turntable.data(from: URL(string: "https://api.example.com/users/42?x=1")!)
        #expect(String(decoding: data, as: UTF8.self) == "42")
        #expect(await status(turntable, URLRequest(url: URL(string: "https://api.example.com/v1/users/42")!)) == nil)
    }

    @Test func aRootWithoutASlashHasAnEmptyPath() throws {
        // As `URL.path` (and so OHHTTPStubs' `pathMatches`) sees `https://api.example.com`.
        let request = Track.Request(url: URL(string: "https://api.example.com")!)
        guard case .failed(let why) = try StubMatcher.pathRegex("^/$").evaluate(request, parts: RequestParts(request)) else {
            Issue.record("expected no match")
            return
        }
        #expect(why == "path (empty) does not match /^/$/")
        guard case .matched = try StubMatcher.pathRegex("^/?$").evaluate(request, parts: RequestParts(request)) else {
            Issue.record("expected a match")
            return
        }
    }

    @Test func aHeaderNamedMatchesWhateverItsValue() async throws {
        // OHHTTPStubs: `hasHeaderNamed("Authorization")`.
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        turntable.stubs.add(Stub().matching(.header("Authorization")).responding(with: .status(204)))
        var request = URLRequest(url: URL(string: "https://api.example.com/me")!)
        #expect(await status(turntable, request) == nil)
        request.setValue("Bearer anything", forHTTPHeaderField: "authorization")
        #expect(await status(turntable, request) == 204)
    }

    @Test func aJSONObjectResponseFromADictionary() async throws {
        // OHHTTPStubs: `HTTPStubsResponse(jsonObject: ["id": 42, "name": "Ada"], statusCode: 200, headers: nil)`.
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        turntable.stubs.add(try Stub().responding(with: .json(object: ["id": 42, "name": "Ada", "tags": ["a"]], status: 201)))
        let (data, response) = try await turntable.data(from: URL(string: "https://api.example.com/users/42")!)
        #expect(String(decoding: data, as: UTF8.self) == #"{"id":42,"name":"Ada","tags":["a"]}"#)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(throws: StubError.self) { try StubResponse.json(object: ["date": Date()]) }
    }
}
