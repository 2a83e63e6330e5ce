import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The part of `URLSession` a network layer needs, so it can take a `Turntable` in tests
/// and `URLSession.shared` in production without a change.
///
/// ```swift
/// struct UsersClient {
///     var session: any NetworkSession = URLSession.shared
///     func user(_ id: Int) async throws -> User { … try await session.data(for: request) … }
/// }
/// ```
public protocol NetworkSession: Sendable {
    func data(for request: URLRequest) async throws -> (Data, URLResponse)
    func data(from url: URL) async throws -> (Data, URLResponse)
    func dataTask(with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionDataTask
}

extension URLSession: NetworkSession {
    // URLSession's own async methods take a `delegate:` argument with a default value, which
    // does not satisfy a protocol requirement; these forward to them.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await data(for: request, delegate: nil)
    }

    public func data(from url: URL) async throws -> (Data, URLResponse) {
        try await data(from: url, delegate: nil)
    }
}
