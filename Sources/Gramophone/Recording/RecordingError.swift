import Foundation

/// Errors of the recording machinery itself (misses and file problems have their own types).
public enum RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `GRAMOPHONE_RECORD_MODE` holds something that is not a mode.
    case invalidMode(String)
    /// The real session answered with something that is not an HTTP response.
    case notHTTP(URL)
    /// A request recorded earlier in this run (by this Turntable, or another case of the same
    /// parameterized test) differs from this one only in values the redaction takes out
    /// (`places`, as the recording report names them), and they were answered differently
    /// (`statuses`: the earlier's, then this one's). Written as one request, a replay could not
    /// tell whose answer is whose: this answer was not recorded. `url` is as recorded (redacted).
    case differsOnlyInRedactedValues(method: String, url: URL, places: [String], statuses: [Int])

    public var description: String {
        switch self {
        case .invalidMode(let text):
            return "\(Recording.modeVariable)=\"\(text)\" is not a record mode. Use never (or none), once, new_episodes (or new-episodes) or all, or unset it"
        case .notHTTP(let url):
            return "the real session answered \(url.absoluteString) with a response that is not HTTP, which a vinyl cannot hold"
        case .differsOnlyInRedactedValues(let method, let url, let places, let statuses):
            let allowances = places.map(RedactedCollisions.allowance).joined(separator: ", ")
            // Headers are not matched by default: a header kept must be matched on as well.
            let headers = places.filter { $0.hasPrefix("request.headers") }.map { $0.split(separator: "\"").dropFirst().first.map(String.init) ?? "" }
            return "\(method) \(url.absoluteString) was recorded earlier in this run with other values in \(places.joined(separator: ", ")), "
                + "which the redaction writes as \(Redaction.placeholder), and answered \(statuses.map(String.init).joined(separator: " then ")): "
                + "written as one request, a replay could not tell whose answer is whose, so this answer was not recorded. "
                + "Keep the value where it is a test credential, Recording(…).allowing([\(allowances)])"
                + (headers.isEmpty ? "" : " with matching: [.method, .url, .body, .headers(\(headers.map { "\"\($0)\"" }.joined(separator: ", ")))] (headers are not matched by default)")
                + "; or record each case into its own vinyl"
        }
    }
}

extension RecordingError: LocalizedError {
    /// The whole explanation, as `description` gives it: what `localizedDescription` shows.
    public var errorDescription: String? { description }
}
