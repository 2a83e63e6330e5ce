import Foundation

/// Errors of the recording machinery itself (misses and file problems have their own types).
public enum RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `GRAMOPHONE_RECORD_MODE` holds something that is not a mode.
    case invalidMode(String)
    /// The real session answered with something that is not an HTTP response.
    case notHTTP(URL)

    public var description: String {
        switch self {
        case .invalidMode(let text):
            return "\(Recording.modeVariable)=\"\(text)\" is not a record mode. Use never (or none), once, new_episodes (or new-episodes) or all, or unset it"
        case .notHTTP(let url):
            return "the real session answered \(url.absoluteString) with a response that is not HTTP, which a vinyl cannot hold"
        }
    }
}

extension RecordingError: LocalizedError {
    /// The whole explanation, as `description` gives it: what `localizedDescription` shows.
    public var errorDescription: String? { description }
}
