import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The table of "Migrating from OHHTTPStubs and Mocker", row by row: each test is named after
/// its row and runs the row's Gramophone side. The rows about the process-wide stubber run
/// with `StubberTests` (`GRAMOPHONE_STUBBER_SUITE=1`), below.
@Suite struct MigratingFromOHHTTPStubsGuideTests {
    private let api = "https://api.example.com"

    /// A Turntable with no tracks and this stub: what a stub answers, or nil on a miss.
    private func answer(_ stub: Stub, _ request: URLRequest) async -> (body: String, status: Int)? {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        turntable.stubs.add(stub)
        guard let (data, response) = try? await turntable.data(for: request) else { return nil }
        return (String(decoding: data, as: UTF8.self), (response as? HTTPURLResponse)?.statusCode ?? 0)
    }

    private func request(_ path: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: api + path)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    @Test func stubConditionResponse() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let handle = turntable.stubs.add(Stub().responding(with: .text("stubbed")))
        #expect(String(decoding: try await turntable.data(for: request("/a")).0, as: UTF8.self) == "stubbed")
        #expect(handle.requestCount == 1)
    }

    @Test func isHost() async throws {
        let stub = Stub().matching(.host("api.example.com")).responding(with: .status(204))
        #expect(await answer(stub, request("/x"))?.status == 204)
        #expect(await answer(stub, URLRequest(url: URL(string: "https://other.example.com/x")!)) == nil)
    }

    @Test func isPath() async throws {
        let stub = try Stub().matching(.path("/users/42")).responding(with: .status(204))
        #expect(await answer(stub, request("/users/42"))?.status == 204)
        #expect(await answer(stub, request("/users/43")) == nil)
    }

    @Test func isMethodGET() async throws {
        let stub = Stub().matching(.method("GET")).responding(with: .status(204))
        #expect(await answer(stub, request("/x"))?.status == 204)
        #expect(await answer(stub, request("/x", method: "POST")) == nil)
        #expect(await answer(Stub().responding(to: "GET", with: .status(204)), request("/x", method: "POST")) == nil)
    }

    @Test func hasHeaderNamed() async throws {
        let stub = Stub().matching(.header("Authorization")).responding(with: .status(204))
        #expect(await answer(stub, request("/me", headers: ["Authorization": "Bearer x"]))?.status == 204)
        #expect(await answer(stub, request("/me")) == nil)
    }

    @Test func hasHeaderNamedValue() async throws {
        let stub = Stub().matching(.header("Accept", "application/json")).responding(with: .status(204))
        #expect(await answer(stub, request("/x", headers: ["Accept": "application/json"]))?.status == 204)
        #expect(await answer(stub, request("/x", headers: ["Accept": "text/html"])) == nil)
    }

    @Test func hasJsonBody() async throws {
        let stub = try Stub().matching(.json(#"{"name":"Ada"}"#)).responding(with: .status(201))
        #expect(await answer(stub, request("/users", method: "POST", body: #"{ "name" : "Ada" }"#))?.status == 201)
        #expect(await answer(stub, request("/users", method: "POST", body: #"{"name":"Bob"}"#)) == nil)
    }

    @Test func pathMatches() async throws {
        let stub = try Stub().matching(.pathRegex("^/users/[0-9]+$")).responding(with: .status(204))
        #expect(await answer(stub, request("/users/42?fields=name"))?.status == 204)
        #expect(await answer(stub, request("/v2/users/42")) == nil)
        #expect(await answer(stub, request("/users/42/posts")) == nil)
    }

    @Test func aRegularExpressionOverTheWholeURL() async throws {
        let stub = try Stub().matching(.urlRegex("^https://api\\.example\\.com/users/[0-9]+$")).responding(with: .status(204))
        #expect(await answer(stub, request("/users/42"))?.status == 204)
        #expect(await answer(stub, request("/users/42?x=1")) == nil)
    }

    @Test func mockerIgnoreQuery() async throws {
        let url = URL(string: api + "/search")!
        let stub = Stub().matching(.url(url, ignoringQuery: true)).responding(with: .status(204))
        #expect(await answer(stub, request("/search?q=anything"))?.status == 204)
    }

    @Test func jsonObject() async throws {
        let stub = Stub().responding(with: try .json(object: ["id": 42], status: 200))
        let answered = await answer(stub, request("/users/42"))
        #expect(answered?.body == #"{"id":42}"# && answered?.status == 200)
        let array = Stub().responding(with: try .json(object: [["id": 1], ["id": 2]]))
        #expect(await answer(array, request("/users"))?.body == #"[{"id":1},{"id":2}]"#)
        #expect(await answer(Stub().responding(with: .json(#"{"id":42}"#)), request("/u"))?.body == #"{"id":42}"#)
        struct User: Encodable { var id: Int }
        #expect(await answer(Stub().responding(with: try .json(encoding: User(id: 42))), request("/u"))?.body == #"{"id":42}"#)
    }

    @Test func errorResponse() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        turntable.stubs.add(Stub().responding(with: .error(.notConnectedToInternet)))
        let error = await #expect(throws: URLError.self) { try await turntable.data(for: request("/x")) }
        #expect(error?.code == .notConnectedToInternet)
    }

    @Test func requestTimeResponseTime() {
        let response = StubResponse.text(String(repeating: "x", count: 40_000)).delivered(.delayed(0.5)).delivered(.throughput(.threeG))
        #expect(response.condition == .delayedThroughput(delay: 0.5, speed: .threeG))
        let plan = response.condition.deliveryPlan(byteCount: 40_000)
        #expect(plan.initialDelay == 0.5)
        #expect(plan.chunks.count == 1)  // 400 KB/s: 40 000 bytes in one 0.1 s chunk
        #expect(abs(plan.chunks[0].delay - 0.1) < 1e-9)
    }

    @Test func mockerDelay() {
        let plan = StubResponse.text("x").delivered(.delayed(0.3)).condition.deliveryPlan(byteCount: 1)
        #expect(plan.initialDelay == 0.3)
    }

    @Test func callbacksAndExpectations() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let handle = turntable.stubs.add(Stub().responding(with: .dynamic { request in .text(request.request.url.path) }))
        #expect(String(decoding: try await turntable.data(for: request("/echo")).0, as: UTF8.self) == "/echo")
        #expect(handle.requests.count == 1)
        #expect(handle.requests.first?.url.path == "/echo")
    }

    @Test func aStubBlockCountingCalls() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        turntable.stubs.add(Stub().responding(with: [.status(503), .status(200)]))
        var statuses: [Int] = []
        for _ in 0..<3 {
            statuses.append((try await turntable.data(for: request("/x")).1 as? HTTPURLResponse)?.statusCode ?? 0)
        }
        #expect(statuses == [503, 200, 200])
        let once = Turntable(vinyl: Vinyl(name: "empty"))
        once.stubs.add(Stub().responding(with: .status(204)).times(1))
        _ = try await once.data(for: request("/x"))
        // Used up, the stub passes the request on to the (empty) vinyl: a miss.
        await #expect(throws: TurntableError.self) { try await once.data(for: request("/x")) }
    }
}

/// The rows about the process-wide stubber: part of `StubberTests`, which runs alone.
extension StubberTests {
    /// The stubber's miss in what a session threw: the `StubError` itself, or an `NSError`
    /// around it, as a URLSession may hand on a URLProtocol's error.
    static func noMatchingStub(in error: (any Error)?) -> StubMissReport? {
        if case .noMatchingStub(let report) = error as? StubError { return report }
        if let underlying = (error as NSError?)?.userInfo[NSUnderlyingErrorKey] as? any Error { return noMatchingStub(in: underlying) }
        return nil
    }

    private func resetStubber() {
        HTTPStubber.shared.reset()
        HTTPStubber.shared.disable()
    }

    @Test func guideRemoveAllStubs() async throws {
        defer { resetStubber() }
        let stubber = HTTPStubber.shared
        stubber.unhandledMode = .optOut
        stubber.stubs.add(Stub().matching(.host("api.example.com")).responding(with: .status(204)))
        let session = stubber.session()
        #expect((try await session.data(from: URL(string: "https://api.example.com/x")!).1 as? HTTPURLResponse)?.statusCode == 204)
        stubber.reset()
        stubber.unhandledMode = .optOut
        // The miss itself, listing the stubs (none now), not any error a real network might give.
        let error = await #expect(throws: (any Error).self) { try await session.data(from: URL(string: "https://api.example.com/x")!) }
        #expect(StubberTests.noMatchingStub(in: error) != nil, "\(String(describing: error))")
    }

    @Test func guideOnStubMissing() async throws {
        defer { resetStubber() }
        let stubber = HTTPStubber.shared
        stubber.unhandledMode = .optOut
        let session = stubber.session()
        let error = await #expect(throws: (any Error).self) { try await session.data(from: URL(string: "https://unstubbed.example.com/x")!) }
        #expect(StubberTests.noMatchingStub(in: error)?.request.url.host == "unstubbed.example.com", "\(String(describing: error))")
        stubber.unhandledMode = .optIn
        #expect(stubber.unhandledMode == .optIn)
    }

    @Test func guideDefaultAndEphemeralSessions() async throws {
        defer { resetStubber() }
        let stubber = HTTPStubber.shared
        stubber.stubs.add(Stub().matching(.host("api.example.com")).responding(with: .text("stubbed")))
        // The line the guide gives instead of `URLSession(configuration: .ephemeral)`.
        let session = URLSession(configuration: HTTPStubber.shared.configuration(.ephemeral))
        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/x")!)
        #expect(String(decoding: data, as: UTF8.self) == "stubbed")
        let other = HTTPStubber.shared.session()
        #expect(String(decoding: try await other.data(from: URL(string: "https://api.example.com/y")!).0, as: UTF8.self) == "stubbed")
    }
}
