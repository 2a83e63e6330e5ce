/// A value whose modifiers (`Stub.matching(_:)`, `StubResponse.delivered(_:)`,
/// `WebSocketScript.pushing(_:)`, …) each return a changed copy, the original left as it was.
protocol CopyModifiable {}

extension CopyModifiable {
    /// A copy of the value with `change` made to it.
    func modified(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}
