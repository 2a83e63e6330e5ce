/// Identifies an added stub: remove it with it, and ask it which requests the stub answered.
///
/// ```swift
/// let handle = turntable.stubs.add(Stub().matching(.path("/users/{id}")).responding(with: .json(#"{"id":7}"#)))
/// _ = try await turntable.data(from: URL(string: "https://api.example.com/users/7")!)
/// #expect(handle.requests.count == 1)
/// #expect(handle.requests.first?.url.path == "/users/7")
/// ```
///
/// Requests are counted when a stub answers them (not when a stubber is only asked whether it
/// would), as they were sent, before any redaction. A handle still tells after its stub is
/// removed; `HTTPStubber.reset()` forgets what the stubber's stubs answered. Two handles are
/// equal when they name the same stub of the same registry.
public struct StubHandle: Sendable, Hashable {
    let id: Int
    /// The registry the stub was added to; its lock guards the requests.
    let registry: StubRegistry

    /// The requests the stub answered, in the order it answered them (the first 10 000, as
    /// `playback.requests` keeps them; ``requestCount`` counts them all).
    public var requests: [Track.Request] { registry.requests(answeredBy: id) }

    /// How many requests the stub answered, without copying them.
    public var requestCount: Int { registry.count(answeredBy: id) }

    public static func == (lhs: StubHandle, rhs: StubHandle) -> Bool {
        lhs.id == rhs.id && lhs.registry === rhs.registry
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(ObjectIdentifier(registry))
    }
}
