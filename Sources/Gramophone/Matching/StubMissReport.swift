import Foundation

/// The stubs a request was tried against and why each did not answer it.
public struct StubMissReport: Sendable, CustomStringConvertible {
    /// One stub that was tried.
    struct Attempt: Sendable, Equatable {
        /// The stub's name.
        var stub: String
        var priority: Int
        /// Why it did not answer: the first matcher that failed, or a missing method.
        var reason: String
    }

    var request: Track.Request
    /// Stubs in the order they were tried.
    var attempts: [Attempt]

    /// One line per stub tried, `- name (priority n): why`; a Turntable's miss report lists them too.
    static func lines(for attempts: [Attempt]) -> [String] {
        attempts.map { "- \($0.stub)" + ($0.priority != 0 ? " (priority \($0.priority))" : "") + ": \($0.reason)" }
    }

    public var description: String {
        var text = "No stub matches \(request.method) \(request.url.absoluteString), and unmatched requests fail (unhandled mode .optOut)."
        if attempts.isEmpty {
            text += "\nNo stubs are registered."
        } else {
            text += "\nStubs tried, in order:"
            for line in Self.lines(for: attempts) { text += "\n  " + line }
        }
        text += "\nFix: add a stub that matches, add an ignore rule to send it to the network, or set unhandledMode = .optIn."
        return text
    }
}
