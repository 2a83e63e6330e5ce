import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which stub answers: per-method responses, order and priority, and how stubs sit in front
/// of a Turntable's vinyl.
@Suite struct StubOrderTests {
    private func text(_ turntable: Turntable, _ url: String, method: String = "GET") async throws -> String {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        let (data, _) = try await turntable.data(for: request)
        return String(decoding: data, as: UTF8.self)
    }

    @Test func eachMethodGetsItsOwnResponse() async throws {
        let tt = Turntable(vinyl: Vinyl(name: "empty"))
        tt.stubs.add(
            Stub().matching(.host("x.test"))
                .responding(to: "get", with: .text("read"))
                .responding(to: "POST", with: .text("created", status: 201))
                .responding(with: .text("other")))
        #expect(try await text(tt, "https://x.test/", method: "GET") == "read")
        #expect(try await text(tt, "https://x.test/", method: "POST") == "created")
        #expect(try await text(tt, "https://x.test/", method: "DELETE") == "other")
    }

    @Test func aStubWithoutTheMethodPassesItOn() async throws {
        let tt = Turntable(vinyl: Vinyl(name: "empty"))
        tt.stubs.add(Stub("fallback").responding(with: .text("fallback")))
        tt.stubs.add(Stub("posts only").responding(to: "POST", with: .text("posted")))
        #expect(try await text(tt, "https://x.test/", method: "POST") == "posted")
        #expect(try await text(tt, "https://x.test/", method: "GET") == "fallback")
    }

    @Test func mostRecentlyAddedIsTriedFirst() async throws {
        let tt = Turntable(vinyl: Vinyl(name: "empty"))
        tt.stubs.add(Stub().responding(with: .text("general")))
        #expect(try await text(tt, "https://x.test/a") == "general")
        let handle = tt.stubs.add(Stub().responding(with: .text("override")))
        #expect(try await text(tt, "https://x.test/a") == "override")
        #expect(tt.stubs.remove(handle))
        #expect(!tt.stubs.remove(handle))
        #expect(try await text(tt, "https://x.test/a") == "general")
    }

    @Test func higherPriorityWinsOverRecency() async throws {
        let tt = Turntable(vinyl: Vinyl(name: "empty"))
        tt.stubs.add(Stub(priority: 10).responding(with: .text("important")))
        tt.stubs.add(Stub().responding(with: .text("newer")))
        tt.stubs.add(Stub(priority: -1).responding(with: .text("last resort")))
        #expect(try await text(tt, "https://x.test/") == "important")
        let registry = tt.stubs
        #expect(registry.all.map(\.priority) == [10, 0, -1])
    }

    @Test func stubsAnswerBeforeTheVinylAndMissesFallThrough() async throws {
        let track = Track(
            request: Track.Request(url: try #require(URL(string: "https://x.test/users"))),
            response: Track.Response(status: 200, body: Data("from vinyl".utf8)))
        let tt = Turntable(vinyl: Vinyl(name: "users", tracks: [track]))
        tt.stubs.add(try Stub().matching(.path("/users/{id}")).responding(with: .text("from stub")))
        #expect(try await text(tt, "https://x.test/users") == "from vinyl")
        #expect(try await text(tt, "https://x.test/users/3") == "from stub")
        tt.stubs.add(try Stub().matching(.path("/users")).responding(with: .text("stubbed list")))
        #expect(try await text(tt, "https://x.test/users") == "stubbed list")
        tt.stubs.removeAll()
        #expect(try await text(tt, "https://x.test/users") == "from vinyl")
        // Stub answers are not plays of the vinyl.
        #expect(tt.playback.requestsAnswered == 2)
    }

    @Test func stubsArePrivateToTheirTurntable() async throws {
        let stubbed = Turntable(vinyl: Vinyl(name: "empty"))
        let plain = Turntable(vinyl: Vinyl(name: "empty"))
        stubbed.stubs.add(Stub().responding(with: .text("stub")))
        #expect(try await text(stubbed, "https://x.test/") == "stub")
        await #expect(throws: TurntableError.self) { try await text(plain, "https://x.test/") }
    }

    @Test func dataTasksGetStubAnswersToo() async throws {
        let tt = Turntable(vinyl: Vinyl(name: "empty"))
        tt.stubs.add(Stub().responding(with: .text("via task", status: 202)))
        let url = try #require(URL(string: "https://x.test/"))
        let (data, status): (Data?, Int?) = await withCheckedContinuation { continuation in
            tt.dataTask(with: URLRequest(url: url)) { data, response, _ in
                continuation.resume(returning: (data, (response as? HTTPURLResponse)?.statusCode))
            }.resume()
        }
        #expect(data.map { String(decoding: $0, as: UTF8.self) } == "via task")
        #expect(status == 202)
    }
}
