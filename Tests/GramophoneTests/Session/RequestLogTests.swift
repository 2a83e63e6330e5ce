import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `turntable.playback.requests`: what the code under test sent, in order, whichever API it
/// used and whatever answered it, so a test asserts what was sent without a lock box of its own.
@Suite struct RequestLogTests {
    let vinyl = Vinyl(
        name: "log",
        tracks: [
            Track("GET https://api.example.com/users/42", .json(#"{"id":42}"#)),
            Track("POST https://api.example.com/users", .status(201)),
            Track("GET https://api.example.com/events", .text("data: one\n\ndata: two\n\n", contentType: "text/event-stream")),
        ])

    static func request(_ method: String, _ path: String, body: String? = nil, header: (String, String)? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: "https://api.example.com" + path)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        if let (name, value) = header { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    @Test func asyncRequestsAreLoggedInOrderAsSent() async throws {
        // The log is the point, not matching: the POST track answers whatever body was sent.
        let turntable = Turntable(vinyl: vinyl, matching: [.method, .url])
        _ = try await turntable.data(for: Self.request("GET", "/users/42"))
        _ = try await turntable.data(for: Self.request("POST", "/users", body: #"{"name":"Ada"}"#, header: ("Authorization", "Bearer s3cret")))
        let requests = turntable.playback.requests
        #expect(requests.map(\.method) == ["GET", "POST"])
        #expect(requests.map(\.url.path) == ["/users/42", "/users"])
        #expect(requests[1].body == Data(#"{"name":"Ada"}"#.utf8))
        // As sent, not as a vinyl would store it: a test asserts what its code put on the wire.
        #expect(requests[1].headers["authorization"] == "Bearer s3cret")
    }

    @Test func stubbedAndMissedRequestsAreLoggedToo() async throws {
        // The log is the point, not matching: the POST track answers whatever body was sent.
        let turntable = Turntable(vinyl: vinyl, matching: [.method, .url])
        turntable.stubs.add(Stub().matching(try .path("/stubbed")).responding(with: .text("stub")))
        _ = try await turntable.data(for: Self.request("GET", "/stubbed"))
        await #expect(throws: TurntableError.self) { _ = try await turntable.data(for: Self.request("DELETE", "/users/42")) }
        _ = try await turntable.data(for: Self.request("GET", "/users/42"))
        #expect(turntable.playback.requests.map { "\($0.method) \($0.url.path)" } == ["GET /stubbed", "DELETE /users/42", "GET /users/42"])
        #expect(turntable.playback.requestsAnswered == 1)
        #expect(turntable.playback.misses == 1)
    }

    @Test func completionHandlerTasksAreLogged() async throws {
        // The log is the point, not matching: the POST track answers whatever body was sent.
        let turntable = Turntable(vinyl: vinyl, matching: [.method, .url])
        let status = await withCheckedContinuation { continuation in
            turntable.dataTask(with: Self.request("POST", "/users")) { _, response, _ in
                continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode)
            }.resume()
        }
        #expect(status == 201)
        #expect(turntable.playback.requests.map(\.method) == ["POST"])
    }

    @Test func aURLSessionFromTheTurntableLogsItsRequests() async throws {
        // The log is the point, not matching: the POST track answers whatever body was sent.
        let turntable = Turntable(vinyl: vinyl, matching: [.method, .url])
        let session = turntable.makeURLSession()
        defer { session.invalidateAndCancel() }
        _ = try await session.data(for: Self.request("GET", "/users/42", header: ("X-Trace", "abc")))
        _ = try await session.data(for: Self.request("POST", "/users", body: "name=Ada"))
        let requests = turntable.playback.requests
        #expect(requests.map(\.method) == ["GET", "POST"])
        #expect(requests[0].headers["x-trace"] == "abc")
        #expect(requests[1].body == Data("name=Ada".utf8))
    }

    @Test func streamedRequestsAreLogged() async throws {
        // The log is the point, not matching: the POST track answers whatever body was sent.
        let turntable = Turntable(vinyl: vinyl, matching: [.method, .url])
        let (bytes, _) = try await turntable.bytes(for: Self.request("GET", "/events"))
        var events: [String] = []
        for try await event in bytes.events { events.append(event.data) }
        #expect(events == ["one", "two"])
        #expect(turntable.playback.requests.map(\.url.path) == ["/events"])
    }

    @Test func loadingAnotherVinylKeepsTheLog() async throws {
        // The log is the point, not matching: the POST track answers whatever body was sent.
        let turntable = Turntable(vinyl: vinyl, matching: [.method, .url])
        _ = try await turntable.data(for: Self.request("GET", "/users/42"))
        _ = try? await turntable.data(for: Self.request("GET", "/nowhere"))
        turntable.load(vinyl: vinyl)
        turntable.matching = [.method, .url, .body]
        // What was sent, answered and missed before the reload is still there to assert on.
        #expect(turntable.playback.requests.map(\.url.path) == ["/users/42", "/nowhere"])
        #expect(turntable.playback.requestsAnswered == 1)
        #expect(turntable.playback.misses == 1)
        #expect(turntable.playback.missReports.map(\.request.url.path) == ["/nowhere"])
        #expect(turntable.playback.playCounts.allSatisfy { $0 == 0 })
    }
}
