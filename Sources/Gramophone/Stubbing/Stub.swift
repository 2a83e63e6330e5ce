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
///
/// A stub can answer a sequence, and can be limited to a number of requests, so "the first
/// call fails, the retry succeeds" needs no closure:
///
/// ```swift
/// let flaky = turntable.stubs.add(
///     Stub().matching(.path("/feed")).responding(with: [.status(503), .json(#"{"items":[]}"#)]))
/// let once = turntable.stubs.add(Stub().matching(.path("/token")).responding(with: .status(201)).times(1))
/// ```
public struct Stub: Sendable, CustomStringConvertible, CopyModifiable {
    /// Shown in no-match errors; made from the matchers when not given.
    var name: String?
    /// All must hold for the stub to answer.
    var matchers: [StubMatcher] = []
    /// Responses by upper-case HTTP method: the n-th request the stub answers gets the n-th,
    /// the last repeating.
    var responses: [String: [StubResponse]] = [:]
    /// The responses for methods without their own, in the same way.
    var defaultResponses: [StubResponse] = []
    /// How many requests the stub answers before it stops matching; nil is no limit.
    var limit: Int?
    /// Stubs with a higher priority are tried first; among equal priorities the most
    /// recently added is tried first.
    var priority: Int

    /// A stub with no matchers (it matches every request) and no response yet.
    public init(_ name: String? = nil, priority: Int = 0) {
        self.name = name
        self.priority = priority
    }

    /// The same stub with one more matcher.
    public func matching(_ matcher: StubMatcher) -> Stub { modified { $0.matchers.append(matcher) } }

    /// The same stub answering `method` requests with `response`.
    public func responding(to method: String, with response: StubResponse) -> Stub {
        responding(to: method, with: [response])
    }

    /// The same stub answering every method that has no response of its own with `response`.
    public func responding(with response: StubResponse) -> Stub {
        responding(with: [response])
    }

    /// The same stub answering `method` requests with a sequence, as
    /// `responding(with: [StubResponse])` does for every method.
    public func responding(to method: String, with responses: [StubResponse]) -> Stub { modified { $0.responses[method.uppercased()] = responses } }

    /// The same stub answering a sequence: the first request it answers gets `responses[0]`,
    /// the second `responses[1]`, and every request after the last gets the last again. Add
    /// `.times(responses.count)` to have it stop matching after the last instead. The position
    /// counts every request the stub answered, whatever its method; an empty sequence answers
    /// nothing (the next stub is tried).
    ///
    /// ```swift
    /// Stub().matching(.path("/feed")).responding(with: [.error(.timedOut), .json(#"{"items":[]}"#)])
    /// ```
    public func responding(with responses: [StubResponse]) -> Stub { modified { $0.defaultResponses = responses } }

    /// The same stub, answering at most `count` requests: after that it stops matching, and the
    /// request goes on as if the stub were not there (to the next stub, then a Turntable's vinyl
    /// and recorder, or the stubber's unhandled mode). Counted atomically: of many concurrent
    /// requests, exactly `count` get this stub's answer.
    public func times(_ count: Int) -> Stub { modified { $0.limit = max(0, count) } }

    public var description: String {
        if let name { return "\"\(name)\"" }
        return matchers.isEmpty ? "stub matching everything" : "stub [" + matchers.map(\.description).joined(separator: ", ") + "]"
    }

    /// The responses for `method`; empty when the stub does not answer it.
    func responses(for method: String) -> [StubResponse] {
        responses[method] ?? defaultResponses
    }

    /// The response to the stub's answer number `position` (from 0) to a `method` request.
    func response(for method: String, at position: Int) -> StubResponse? {
        let sequence = responses(for: method)
        guard let last = sequence.last else { return nil }
        return position < sequence.count ? sequence[position] : last
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
