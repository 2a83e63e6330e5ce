import Foundation
import Gramophone
import GramophoneTesting
import Testing
import UsersClient

/// The example client tested the way the README shows: one `.vinyl` on the suite, each
/// test replaying the vinyl named after it from the test bundle.
@Suite(.vinyl(store: .bundle(.module)))
struct UsersClientTraitTests {
    func client() throws -> UsersClient {
        UsersClient(baseURL: try ExampleAPI.baseURL(), session: try Turntable.requireCurrent())
    }

    @Test func fetchesUser() async throws {
        let user = try await client().user(42)
        #expect(user == User(id: 42, name: "Ada Lovelace", email: "ada.lovelace@example.com"))
        #expect(Turntable.current?.vinyl.name == "fetchesUser")
    }

    @Test(.vinyl(allTracksMustPlay: true))
    func listsUsersPageByPage() async throws {
        let client = try client()
        #expect(try await client.users(page: 1).map(\.name) == ["Grace Hopper", "Alan Turing"])
        #expect(try await client.users(page: 2).map(\.name) == ["Edsger Dijkstra"])
    }

    @Test func createsUser() async throws {
        let user = try await client().createUser(name: "Barbara Liskov", email: "barbara.liskov@example.com")
        #expect(user.id == 43)
    }

    @Test(.vinyl("users"))
    func readsTheVinylNamedInTheTrait() async throws {
        let client = try client()
        #expect(try await client.user(1).name == "Grace Hopper")
        #expect(try await client.user(2).name == "Alan Turing")
    }

    @Test(.vinyl("polling", matching: .trackOrder()))
    func testsOwnMatchingStrategyIsUsed() async throws {
        // Two tracks for one URL: in track order the second request gets the second answer.
        let client = try client()
        #expect(try await client.user(5).name == "Before Update")
        #expect(try await client.user(5).name == "After Update")
    }

    @Test(.vinyl("users"))
    func childTasksSeeTheTestsTurntable() async throws {
        let outer = try #require(Turntable.current)
        let inner = await Task { Turntable.current }.value
        #expect(inner === outer)
    }

    @Test(.vinyl("users"), arguments: [1, 2])
    func eachCaseOfAParameterizedTestGetsItsOwnTurntable(id: Int) async throws {
        let turntable = try #require(Turntable.current)
        #expect(turntable.playback.requestsAnswered == 0)
        _ = try await client().user(id)
        #expect(turntable.playback.requestsAnswered == 1)
    }

    @Suite struct Nested {
        @Test func usesNestedSuiteName() async throws {
            let turntable = try #require(Turntable.current)
            #expect(turntable.vinyl.name == "usesNestedSuiteName")
            let client = UsersClient(baseURL: try ExampleAPI.baseURL(), session: turntable)
            #expect(try await client.user(7).name == "Nested Suite")
        }
    }
}

@Suite struct TurntableCurrentTests {
    @Test func isNilOutsideAVinylTest() {
        #expect(Turntable.current == nil)
    }
}
