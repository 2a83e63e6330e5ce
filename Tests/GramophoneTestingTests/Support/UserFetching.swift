import Foundation
import Gramophone
import Testing

/// What the reporting tests need of an API client: a user fetched through the test's session.
/// (The full example client, tested the way an app would, is Examples/Sources/UsersClient.)
struct User: Decodable, Equatable {
    var id: Int
    var name: String
}

struct UserFetcher {
    var session: any NetworkSession

    func user(_ id: Int) async throws -> User {
        let (data, _) = try await session.data(from: try ExampleAPI.baseURL().appendingPathComponent("users/\(id)"))
        return try JSONDecoder().decode(User.self, from: data)
    }

    func users(page: Int) async throws -> [User] {
        let (data, _) = try await session.data(from: try #require(URL(string: "users?page=\(page)", relativeTo: try ExampleAPI.baseURL())))
        return try JSONDecoder().decode([User].self, from: data)
    }

    /// Swallows every error, as a cache fallback or an error view would (misses included).
    func userIfAvailable(_ id: Int) async -> User? {
        try? await user(id)
    }
}
