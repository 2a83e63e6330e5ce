import Foundation

/// A request written in code and what to answer it with: matchers that must all hold, and a
/// response per HTTP method or one for every method.
///
/// ```swift
/// let stub = try Stub("user by id")
///     .matching(.host("api.example.com"))
///     .matching(.path("/users/{id}"))
///     .responding(to: "GET", with: .dynamic { request in
///         try .json(encoding: User(id: Int(request.variables["id"] ?? "") ?? 0))
///     })
///     .responding(to: "DELETE", with: .status(204))
/// turntable.stubs.add(stub)
/// ```
///
/// A stub whose matchers hold but which has no response for the request's method does not
/// answer it; the next stub is tried.
public struct Stub: Sendable, CustomStringConvertible {
    /// Shown in no-match errors; made from the matchers when not given.
    var name: String?
    /// All must hold for the stub to answer.
    var matchers: [StubMatcher]
    /// Responses by upper-case HTTP method.
    var responses: [String: StubResponse]
    /// The response for methods without their own.
    var defaultResponse: StubResponse?
    /// Stubs with a higher priority are tried first; among equal priorities the most
    /// recently added is tried first.
    var priority: Int

    /// A stub with no matchers (it matches every request) and no response yet.
    public init(_ name: String? = nil, priority: Int = 0) {
        self.name = name
        matchers = []
        responses = [:]
        self.priority = priority
    }

    /// A stub answering every method with `response` when all `matchers` hold.
    init(_ name: String? = nil, priority: Int = 0, matchers: [StubMatcher], response: StubResponse) {
        self.init(name, priority: priority)
        self.matchers = matchers
        defaultResponse = response
    }

    /// The same stub with one more matcher.
    public func matching(_ matcher: StubMatcher) -> Stub {
        var copy = self
        copy.matchers.append(matcher)
        return copy
    }

    /// The same stub answering `method` requests with `response`.
    public func responding(to method: String, with response: StubResponse) -> Stub {
        var copy = self
        copy.responses[method.uppercased()] = response
        return copy
    }

    /// The same stub answering every method that has no response of its own with `response`.
    public func responding(with response: StubResponse) -> Stub {
        var copy = self
        copy.defaultResponse = response
        return copy
    }

    /// The same stub with another priority.
    public func priority(_ priority: Int) -> Stub {
        var copy = self
        copy.priority = priority
        return copy
    }

    public var description: String {
        if let name { return "\"\(name)\"" }
        return matchers.isEmpty ? "stub matching everything" : "stub [" + matchers.map(\.description).joined(separator: ", ") + "]"
    }

    /// The response for `method`.
    func response(for method: String) -> StubResponse? {
        responses[method] ?? defaultResponse
    }

    /// Whether every matcher holds, with the variables they captured, or why not.
    func evaluate(_ request: Track.Request, parts: RequestParts, bodyUnknown: Bool = false) -> StubMatcher.Verdict {
        var variables: [String: String] = [:]
        for matcher in matchers where !(bodyUnknown && matcher.readsBody) {
            switch matcher.evaluate(request, parts: parts) {
            case .failed(let reason): return .failed(reason)
            case .matched(let captured): variables.merge(captured) { _, new in new }
            }
        }
        return .matched(variables)
    }
}
