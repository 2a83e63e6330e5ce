import Foundation

/// What the process-wide stubber does with a request no stub answers.
public enum UnhandledMode: Sendable, Equatable {
    /// Unmatched requests go to the real network, untouched.
    case optIn
    /// Unmatched requests fail with `StubError.noMatchingStub`, which lists every stub and
    /// why it did not match. Only requests an ignore rule names reach the network.
    case optOut
}
