import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a test checks about its stubs: how many requests each answered and which
/// (`StubHandle.requests`), sequences of responses, and stubs limited with `times(_:)`.
/// The process-wide stubber's side is in StubberTests and StubberConcurrencyTests.
@Suite struct StubVerificationTests {
    private func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    private func text(_ session: some NetworkSession, _ url: URL, method: String = "GET", body: Data? = nil) async throws -> (String, Int) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        return (String(decoding: data, as: UTF8.self), (response as? HTTPURLResponse)?.statusCode ?? 0)
    }

    @Test func aHandleTellsWhichRequestsItsStubAnsweredThroughTheInjectedTurntable() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let session: any NetworkSession = turntable
        let users = turntable.stubs.add(try Stub().matching(.path("/users/{id}")).responding(with: .json(#"{"id":1}"#)))
        let posts = turntable.stubs.add(try Stub().matching(.path("/posts")).responding(to: "POST", with: .status(201)))
        #expect(users.requests.isEmpty && users.requestCount == 0)

        _ = try await text(session, try url("https://api.example.com/users/7"))
        _ = try await text(session, try url("https://api.example.com/users/8?fields=name"))
        _ = try await text(session, try url("https://api.example.com/posts"), method: "POST", body: Data(#"{"title":"hi"}"#.utf8))

        #expect(users.requestCount == 2)
        #expect(users.requests.map(\.url.absoluteString) == ["https://api.example.com/users/7", "https://api.example.com/users/8?fields=name"])
        #expect(posts.requests.count == 1)
        #expect(posts.requests.first?.method == "POST")
        #expect(posts.requests.first.map { String(decoding: $0.body, as: UTF8.self) } == #"{"title":"hi"}"#)
    }

    @Test func aStubAnsweringManyRequestsCountsThemAllAndKeepsTheFirstTenThousand() async throws {
        // A stub in a load test or a long process-wide run must not keep every request it answered.
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let handle = turntable.stubs.add(Stub().matching(.host("api.example.com")).responding(with: .status(204)))
        for number in 0...10_000 {
            _ = try await turntable.data(for: URLRequest(url: try url("https://api.example.com/items/\(number)")))
        }
        #expect(handle.requestCount == 10_001)
        #expect(handle.requests.count == 10_000)
        #expect(handle.requests.last?.url.path == "/items/9999")
    }

    @Test func requestsAreLoggedAsSentAndOnlyWhenAStubAnswers() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let handle = turntable.stubs.add(Stub().matching(.host("api.example.com")).responding(with: .status(204)))
        var request = URLRequest(url: try url("https://api.example.com/me?access_token=abc123def456"))
        request.setValue("Bearer abc123def456", forHTTPHeaderField: "Authorization")
        _ = try await turntable.data(for: request)
        // Another host: no stub answers, the miss is the Turntable's as always.
        await #expect(throws: TurntableError.self) { try await turntable.data(from: try url("https://other.example.com/")) }
        // Asking whether a request would be answered (redirects do) is not answering it.
        #expect(turntable.canAnswer(Track.Request(url: try url("https://api.example.com/peek"))))

        #expect(handle.requestCount == 1)
        let logged = try #require(handle.requests.first)
        #expect(logged.headers["Authorization"] == "Bearer abc123def456", "what the code sent, unredacted")
        #expect(logged.url.query == "access_token=abc123def456")
        #expect(turntable.playback.misses == 1)
    }

    @Test func throughMakeURLSession() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let handle = turntable.stubs.add(
            Stub().matching(.host("api.example.com")).responding(with: [.status(503), .text("ok")]))
        let session = turntable.makeURLSession()
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: try url("https://api.example.com/feed"))
        request.httpMethod = "PUT"
        request.httpBody = Data("payload".utf8)
        let (first, firstResponse) = try await session.data(for: request)
        let (second, secondResponse) = try await session.data(for: request)
        #expect((firstResponse as? HTTPURLResponse)?.statusCode == 503 && first.isEmpty)
        #expect((secondResponse as? HTTPURLResponse)?.statusCode == 200 && String(decoding: second, as: UTF8.self) == "ok")
        #expect(handle.requestCount == 2)
        #expect(handle.requests.allSatisfy { $0.method == "PUT" && String(decoding: $0.body, as: UTF8.self) == "payload" })
    }

    @Test func aSequenceAnswersInOrderAndItsLastRepeats() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        turntable.stubs.add(Stub().responding(with: [.text("a"), .text("b", status: 201), .text("c", status: 202)]))
        var answers: [String] = []
        for _ in 0..<5 { answers.append(try await text(turntable, try url("https://x.test/")).0) }
        #expect(answers == ["a", "b", "c", "c", "c"])
    }

    @Test func firstCallFailsThenTheRetrySucceedsWithoutAClosure() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let feed = turntable.stubs.add(Stub().matching(.host("x.test")).responding(with: [.error(.timedOut), .json(#"{"items":[]}"#)]))
        await #expect(throws: URLError.self) { try await turntable.data(from: try url("https://x.test/feed")) }
        #expect(try await text(turntable, try url("https://x.test/feed")) == (#"{"items":[]}"#, 200))
        #expect(feed.requestCount == 2, "a failure a stub answers with is an answer too")
    }

    @Test func timesStopsTheStubMatchingSoTheNextStubAnswers() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let general = turntable.stubs.add(Stub("general").responding(with: .text("general")))
        let twice = turntable.stubs.add(Stub("twice").responding(with: .text("special")).times(2))
        var answers: [String] = []
        for _ in 0..<4 { answers.append(try await text(turntable, try url("https://x.test/")).0) }
        #expect(answers == ["special", "special", "general", "general"])
        #expect(twice.requestCount == 2 && general.requestCount == 2)
        // Still listed; a report of the stubs says why it was passed over.
        #expect(turntable.stubs.remove(general))
        guard case .unmatched(let report, _) = turntable.stubs.resolve(Track.Request(url: try url("https://x.test/"))) else {
            Issue.record("an exhausted stub must not match")
            return
        }
        #expect(report.description.contains(#""twice""#))
        #expect(report.description.contains("has answered all its 2 requests (.times(2))"))
    }

    @Test func aSequenceThatStopsAfterItsLastGoesOnToTheVinyl() async throws {
        let track = Track(request: Track.Request(url: try url("https://x.test/status")), response: Track.Response(status: 200, body: Data("from vinyl".utf8)))
        let turntable = Turntable(vinyl: Vinyl(name: "status", tracks: [track]))
        let stub = turntable.stubs.add(try Stub().matching(.path("/status")).responding(with: [.text("one"), .text("two")]).times(2))
        var answers: [String] = []
        for _ in 0..<3 { answers.append(try await text(turntable, try url("https://x.test/status")).0) }
        #expect(answers == ["one", "two", "from vinyl"])
        #expect(stub.requestCount == 2)
        #expect(turntable.playback.requestsAnswered == 1, "the third was the vinyl's")
    }

    @Test func timesZeroNeverAnswersAndAnEmptySequenceAnswersNothing() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        turntable.stubs.add(Stub().responding(with: .text("fallback")))
        let never = turntable.stubs.add(Stub().responding(with: .text("never")).times(0))
        let empty = turntable.stubs.add(Stub().responding(with: []))
        #expect(try await text(turntable, try url("https://x.test/")).0 == "fallback")
        #expect(never.requests.isEmpty && empty.requests.isEmpty)
    }

    @Test func perMethodSequencesShareTheStubsCount() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let stub = turntable.stubs.add(
            Stub().responding(to: "GET", with: [.text("get 0"), .text("get 1"), .text("get 2")])
                .responding(to: "POST", with: [.text("post 0"), .text("post 1")]))
        #expect(try await text(turntable, try url("https://x.test/")).0 == "get 0")
        #expect(try await text(turntable, try url("https://x.test/"), method: "POST").0 == "post 1")
        #expect(try await text(turntable, try url("https://x.test/")).0 == "get 2")
        #expect(stub.requests.map(\.method) == ["GET", "POST", "GET"])
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func anExhaustedStubLetsTheRecorderAnswer() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let turntable = try Turntable(vinylNamed: "limited", from: .folder(folder), recording: Recording(mode: .once, environment: RecordingFixtures.localEnvironment))
        let target = base.appendingPathComponent("status/418")
        let stub = turntable.stubs.add(try Stub().matching(.path("/status/418")).responding(with: .status(200)).times(1))
        #expect(try await text(turntable, target).1 == 200)
        #expect(try await text(turntable, target).1 == 418, "the live server answered the second")
        #expect(stub.requestCount == 1)
        #expect(turntable.playback.recordedCount == 1)
    }

    @Test func handlesRemoveTheirStubAndStillTellAfterwards() async throws {
        let first = Turntable(vinyl: Vinyl(name: "empty"))
        let second = Turntable(vinyl: Vinyl(name: "empty"))
        let a = first.stubs.add(Stub().responding(with: .text("a")))
        let b = second.stubs.add(Stub().responding(with: .text("b")))
        // Same position in two registries: not the same stub.
        #expect(a != b)
        #expect(Set([a, b, a]).count == 2)
        #expect(!second.stubs.remove(a), "a handle removes only its own registry's stub")
        _ = try await first.data(from: try url("https://x.test/"))
        #expect(first.stubs.remove(a))
        #expect(a.requestCount == 1, "still readable after the stub is removed")
        #expect(first.stubs.all.isEmpty && second.stubs.all.count == 1)
    }
}

// scripts/test runs suites whose name contains "Concurrency" under ThreadSanitizer.
@Suite("Stub Concurrency")
struct StubConcurrencyTests {
    static let taskCount = 100

    /// Sends `taskCount` requests at once, each through its own task, and returns the bodies.
    private static func concurrently(_ send: @escaping @Sendable (Int) async throws -> String) async throws -> [String] {
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<taskCount { group.addTask { try await send(index) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test("100 concurrent requests through a Turntable: every one logged, a limit never overrun, each sequence step given once")
    func throughTheTurntable() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let fallback = turntable.stubs.add(Stub("fallback").matching(.host("x.test")).responding(with: .text("fallback")))
        let limited = turntable.stubs.add(Stub("limited").matching(.host("x.test")).responding(with: .text("limited")).times(40))
        let steps = turntable.stubs.add(Stub("steps").matching(.host("steps.test")).responding(with: (0..<Self.taskCount).map { .text("step \($0)") }))

        let bodies = try await Self.concurrently { index in
            String(decoding: try await turntable.data(from: URL(string: "https://x.test/\(index)")!).0, as: UTF8.self)
        }
        #expect(bodies.filter { $0 == "limited" }.count == 40)
        #expect(bodies.filter { $0 == "fallback" }.count == Self.taskCount - 40)
        #expect(limited.requestCount == 40 && fallback.requestCount == Self.taskCount - 40)
        #expect(Set((limited.requests + fallback.requests).map(\.url.path)).count == Self.taskCount, "each request logged once, by the stub that answered it")

        let stepBodies = try await Self.concurrently { index in
            String(decoding: try await turntable.data(from: URL(string: "https://steps.test/\(index)")!).0, as: UTF8.self)
        }
        #expect(Set(stepBodies) == Set((0..<Self.taskCount).map { "step \($0)" }), "no two requests got the same step")
        #expect(steps.requests.count == Self.taskCount)
    }

    @Test("100 concurrent requests through makeURLSession()")
    func throughMakeURLSession() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let handle = turntable.stubs.add(Stub().matching(.host("x.test")).responding(with: [.text("first"), .text("rest")]))
        let session = turntable.makeURLSession()
        defer { session.finishTasksAndInvalidate() }
        let bodies = try await Self.concurrently { index in
            String(decoding: try await session.data(from: URL(string: "https://x.test/\(index)")!).0, as: UTF8.self)
        }
        #expect(bodies.filter { $0 == "first" }.count == 1)
        #expect(handle.requestCount == Self.taskCount)
        #expect(Set(handle.requests.map(\.url.path)).count == Self.taskCount)
    }
}

/// The process-wide stubber from 100 concurrent tasks, through a session made from it (not
/// `URLSession.shared`, so it needs no process of its own). No other suite of this process
/// uses the stubber, and its stubs match only a host of their own.
@Suite("Stubber Concurrency", .serialized)
struct StubberConcurrencyTests {
    @Test("100 concurrent requests through HTTPStubber.shared: every one logged, a limit never overrun")
    func throughTheStubber() async throws {
        let stubber = HTTPStubber.shared
        stubber.enable()
        let fallback = stubber.stubs.add(Stub().matching(.host("concurrency.stubbed.test")).responding(with: .text("fallback")))
        let limited = stubber.stubs.add(Stub(priority: 1).matching(.host("concurrency.stubbed.test")).responding(with: [.text("first"), .text("limited")]).times(30))
        defer {
            stubber.stubs.remove(fallback)
            stubber.stubs.remove(limited)
            stubber.disable()
        }
        let session = stubber.session(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<StubConcurrencyTests.taskCount {
                group.addTask { String(decoding: try await session.data(from: URL(string: "https://concurrency.stubbed.test/\(index)")!).0, as: UTF8.self) }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(bodies.filter { $0 == "first" }.count == 1)
        #expect(bodies.filter { $0 == "limited" }.count == 29)
        #expect(bodies.filter { $0 == "fallback" }.count == StubConcurrencyTests.taskCount - 30)
        #expect(limited.requestCount == 30 && fallback.requestCount == StubConcurrencyTests.taskCount - 30)
        #expect(Set((limited.requests + fallback.requests).map(\.url.path)).count == StubConcurrencyTests.taskCount)
    }
}
