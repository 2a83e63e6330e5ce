import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a Turntable records the tracks its vinyl is missing.
///
/// ```swift
/// let turntable = try Turntable(vinylNamed: "users", recording: Recording())
/// // first run: requests go to the real API and are written to Vinyls/users.json on eject;
/// // later runs (and every CI run): answered from the file, no network.
/// ```
public struct Recording: Sendable {
    /// The environment variable that overrides the mode without a code change.
    public static let modeVariable = "GRAMOPHONE_RECORD_MODE"

    /// The mode asked for in code; nil means the default, `.once`, or `.none` when the `CI`
    /// environment variable is set. `GRAMOPHONE_RECORD_MODE` overrides either.
    ///
    /// Not called `mode`: with an optional, `mode = .none` would silently mean "the default"
    /// (which records) instead of "never record".
    public var requestedMode: RecordMode?
    /// The session that reaches the real network.
    public var session: any NetworkSession
    /// What is taken out of requests and responses before they are matched or written.
    public var redaction: Redaction
    /// Which hosts are recorded and replayed; requests to others go to `session` untouched.
    public var hosts: HostFilter
    /// The environment the mode is read from; inject one in tests instead of changing the process's.
    public var environment: [String: String]
    /// Places known to hold no secret: the default redaction leaves them alone and the check
    /// before writing does not report them. Empty by default; set it with `allowing(_:)`.
    public var allowedSecrets: [SecretPlace] = []

    /// Recording in `mode`, whatever the default would be (`GRAMOPHONE_RECORD_MODE` still
    /// overrides it). The mode is not optional here, so `.none` always means "never record".
    public init(mode: RecordMode,
                session: any NetworkSession = DeferredSession(),
                redaction: Redaction = .default,
                hosts: HostFilter = .all,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(requestedMode: mode, session: session, redaction: redaction, hosts: hosts, environment: environment)
    }

    /// Recording in the default mode: `.once`, or `.none` when the `CI` variable is set.
    public init(session: any NetworkSession = DeferredSession(),
                redaction: Redaction = .default,
                hosts: HostFilter = .all,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(requestedMode: nil, session: session, redaction: redaction, hosts: hosts, environment: environment)
    }

    private init(requestedMode: RecordMode?, session: any NetworkSession, redaction: Redaction, hosts: HostFilter, environment: [String: String]) {
        self.requestedMode = requestedMode
        self.session = session
        self.redaction = redaction
        self.hosts = hosts
        self.environment = environment
    }

    /// This recording, also keeping what is at `places` although it looks like a secret: a
    /// value you know is not one, such as a public demo key or a hash that has a key's shape.
    ///
    /// ```swift
    /// Recording(mode: .once).allowing([.query("key"), .jsonKey("build.signature", in: .response)])
    /// ```
    public func allowing(_ places: [SecretPlace]) -> Recording {
        var copy = self
        copy.allowedSecrets += places
        return copy
    }

    /// The mode in force: `GRAMOPHONE_RECORD_MODE` if set, else `requestedMode`, else `.none` on CI and
    /// `.once` elsewhere. An unreadable `GRAMOPHONE_RECORD_MODE` gives `.none` (the Turntable
    /// initialiser reports it as an error).
    public var effectiveMode: RecordMode {
        (try? resolvedMode()) ?? .none
    }

    /// Whether the `CI` variable says this is a CI run (set, and not empty, `0`, `false` or `no`).
    public var isCI: Bool {
        guard let value = environment["CI"]?.trimmingWhitespace().lowercased() else { return false }
        return !["", "0", "false", "no"].contains(value)
    }

    /// The mode in force, or an error naming the variable when its value is not a mode.
    func resolvedMode() throws -> RecordMode {
        if let text = environment[Self.modeVariable], !text.trimmingWhitespace().isEmpty {
            guard let mode = RecordMode(environmentValue: text) else {
                throw RecordingError.invalidMode(text)
            }
            return mode
        }
        if let requestedMode { return requestedMode }
        return isCI ? .none : .once
    }
}

/// Errors of the recording machinery itself (misses and file problems have their own types).
public enum RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `GRAMOPHONE_RECORD_MODE` holds something that is not a mode.
    case invalidMode(String)
    /// The real session answered with something that is not an HTTP response.
    case notHTTP(URL)

    public var description: String {
        switch self {
        case .invalidMode(let text):
            return "\(Recording.modeVariable)=\"\(text)\" is not a record mode. Use none, once, new_episodes (or new-episodes) or all, or unset it"
        case .notHTTP(let url):
            return "the real session answered \(url.absoluteString) with a response that is not HTTP, which a vinyl cannot hold"
        }
    }
}

extension RecordingError: LocalizedError {
    public var errorDescription: String? { description }
}
