import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if AsyncHTTPClient
import AsyncHTTPClient
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
    static let modeVariable = "GRAMOPHONE_RECORD_MODE"

    /// The record mode; nil is the default: `.once`, or `.never` on CI (the `CI` variable is
    /// set) and for a vinyl in a bundle. `GRAMOPHONE_RECORD_MODE` overrides either.
    public var mode: RecordMode?
    /// The session that reaches the real network; nil is an ephemeral `URLSession`, made
    /// when the first request is recorded.
    public var session: (any NetworkSession)?
    #if AsyncHTTPClient
    /// The client that reaches the real network for requests that come in through
    /// `HTTPClientSession` (trait `AsyncHTTPClient`), so what is recorded is what AsyncHTTPClient
    /// sees; nil is a client made for the recording, configured as `HTTPClient.shared`, and
    /// shut down on `eject()`.
    public var httpClient: HTTPClient?
    #endif
    /// What is taken out of requests and responses before they are matched or written.
    public var redaction: Redaction
    /// The hosts recorded and replayed, subdomains included (`example.com` covers
    /// `api.example.com`), compared ignoring case; nil is every host. Requests to other
    /// hosts go to `session` untouched: not matched, not recorded, not redacted.
    public var hosts: [String]?
    /// The environment the mode is read from; inject one in tests instead of changing the process's.
    public var environment: [String: String]
    /// When to stop recording a streamed response that is still going (`bytes(for:)`); see `StreamLimit`.
    public var streamLimit: StreamLimit
    /// Places known to hold no secret: the default redaction leaves them alone and the check
    /// before writing does not report them. Empty by default; set it with `allowing(_:)`.
    var allowedSecrets: [SecretPlace] = []

    /// How to record; each argument sets the property of the same name. The defaults record
    /// once (never on CI), through an ephemeral `URLSession`, with the default redaction, every
    /// host, and the mode overridable through the process's `GRAMOPHONE_RECORD_MODE`.
    public init(
        mode: RecordMode? = nil,
        session: (any NetworkSession)? = nil,
        redaction: Redaction = .default,
        hosts: [String]? = nil,
        streamLimit: StreamLimit = StreamLimit(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.mode = mode
        self.session = session
        self.redaction = redaction
        self.hosts = hosts?.map { $0.lowercased() }
        self.streamLimit = streamLimit
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

    /// Whether the `CI` (or `TEST_RUNNER_CI`) variable says this is a CI run (set, and not
    /// empty, `0`, `false` or `no`).
    var isCI: Bool {
        guard let value = Environment.value("CI", in: environment)?.trimmingWhitespace().lowercased() else { return false }
        return !["", "0", "false", "no"].contains(value)
    }

    /// Whether requests to `url` are recorded and replayed.
    func records(_ url: URL) -> Bool {
        guard let hosts else { return true }
        let host = (url.host ?? "").lowercased()
        return hosts.contains { host == $0 || host.hasSuffix("." + $0) }
    }

    /// The mode in force: `GRAMOPHONE_RECORD_MODE` if set, else `mode`, else `.never` on CI
    /// and for a bundle, `.once` elsewhere.
    /// - Throws: `RecordingError.invalidMode` naming the variable when its value is not a mode.
    func resolvedMode(defaultForBundle isBundle: Bool = false) throws -> RecordMode {
        if let text = Environment.value(Self.modeVariable, in: environment) {
            guard let mode = RecordMode(environmentValue: text) else {
                throw RecordingError.invalidMode(text)
            }
            return mode
        }
        if let mode { return mode }
        return isCI || isBundle ? .never : .once
    }
}
