import Foundation
import GramophoneSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A user of the example API.
public struct User: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var email: String

    public init(id: Int, name: String, email: String) {
        self.id = id
        self.name = name
        self.email = email
    }
}

/// Why a `UsersClient` call failed.
public enum UsersClientError: Error, Sendable, Equatable {
    /// The server answered with a status other than 2xx.
    case status(Int)
    /// The response was not HTTP.
    case notHTTP
}

/// An example network layer: what an app's API client looks like when it takes its session
/// as `any NetworkSession`, so tests hand it a `Turntable` and the app `URLSession.shared`.
public struct UsersClient: Sendable {
    public var baseURL: URL
    public var session: any NetworkSession

    public init(baseURL: URL, session: any NetworkSession = URLSession.shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// `GET /users/{id}`.
    public func user(_ id: Int) async throws -> User {
        try await send(URLRequest(url: baseURL.appendingPathComponent("users/\(id)")))
    }

    /// `GET /users?page={page}`.
    public func users(page: Int) async throws -> [User] {
        var components = URLComponents(url: baseURL.appendingPathComponent("users"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "page", value: String(page))]
        guard let url = components?.url else { throw URLError(.badURL) }
        return try await send(URLRequest(url: url))
    }

    /// `POST /users` with the new user's name and email as JSON.
    public func createUser(name: String, email: String) async throws -> User {
        var request = URLRequest(url: baseURL.appendingPathComponent("users"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys  // stable bytes, so a body matcher can match them
        request.httpBody = try encoder.encode(["email": email, "name": name])
        return try await send(request)
    }

    /// The user, or nil when the request fails for any reason: the kind of code that swallows
    /// errors (and a Turntable's misses with them), as a cache fallback or an error view does.
    public func userIfAvailable(_ id: Int) async -> User? {
        try? await user(id)
    }

    private func send<Value: Decodable>(_ request: URLRequest) async throws -> Value {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw UsersClientError.notHTTP }
        guard (200..<300).contains(http.statusCode) else { throw UsersClientError.status(http.statusCode) }
        return try JSONDecoder().decode(Value.self, from: data)
    }
}
