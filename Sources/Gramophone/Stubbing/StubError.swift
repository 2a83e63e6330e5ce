import Foundation

/// Why a stub could not be built or a request could not be answered by the stubs.
public enum StubError: Error, Sendable, CustomStringConvertible {
    /// A regular expression, URI template or path pattern could not be read.
    case invalidPattern(String, kind: String, problem: String)
    /// A file given as a response body could not be read.
    case unreadableFile(String, problem: String)
    /// A request no stub answers, while unmatched requests must fail (opt-out mode).
    case noMatchingStub(StubMissReport)

    public var description: String {
        switch self {
        case .invalidPattern(let pattern, let kind, let problem):
            return "The \(kind) \"\(pattern)\" is invalid: \(problem). Fix the \(kind); see the article \"Stubbing\" in Gramophone's documentation for the syntax"
        case .unreadableFile(let path, let problem):
            return "\(path): the stub's body file could not be read: \(problem). Check the path (test resources are under Bundle.module.resourceURL)"
        case .noMatchingStub(let report):
            return report.description
        }
    }
}

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

extension StubError: LocalizedError {
    /// The whole explanation, as `description` gives it: what `localizedDescription` shows.
    public var errorDescription: String? { description }
}
