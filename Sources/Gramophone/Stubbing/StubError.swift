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

extension StubError: LocalizedError {
    /// The whole explanation, as `description` gives it: what `localizedDescription` shows.
    public var errorDescription: String? { description }
}
