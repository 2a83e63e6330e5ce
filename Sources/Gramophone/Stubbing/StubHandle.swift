/// Identifies an added stub, to remove it later.
public struct StubHandle: Sendable, Hashable {
    let id: Int
}
