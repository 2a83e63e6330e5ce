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
    /// The registry the stub was added to, compared by identity.
    let owner: Owner
    /// Its lock guards the requests.
    var registry: StubRegistry { owner.registry }

    init(id: Int, registry: StubRegistry) {
        self.id = id
        self.owner = Owner(registry: registry)
    }

    /// A registry compared by identity, so a handle's equality and hash are the synthesized
    /// ones: the same stub (`id`) of the same registry.
    struct Owner: Sendable, Hashable {
        let registry: StubRegistry
        static func == (lhs: Owner, rhs: Owner) -> Bool { lhs.registry === rhs.registry }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(registry)) }
    }

    /// The requests the stub answered, in the order it answered them (the first 10 000, as
    /// `playback.requests` keeps them; ``requestCount`` counts them all).
    public var requests: [Track.Request] { registry.state.withLock { $0.answered[id]?.requests ?? [] } }

    /// How many requests the stub answered, without copying them.
    public var requestCount: Int { registry.state.withLock { $0.answered[id]?.count ?? 0 } }
}
