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
/// // first run: requests go to the real API and are written to Tests/<Target>/Vinyls/users.json on eject;
/// // later runs (and every CI run): answered from the file, no network.
/// ```
public struct Recording: Sendable {
    /// The environment variable that overrides the mode without a code change.
    static let modeVariable = "GRAMOPHONE_RECORD_MODE"

    /// The record mode; nil is the default: `.once`, or `.never` for a vinyl in a bundle. On CI
    /// (the `CI` variable is set) the mode is `.never`, whatever this says: nothing records
    /// there unless `GRAMOPHONE_RECORD_MODE` asks. `GRAMOPHONE_RECORD_MODE` overrides all of these.
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
    /// Whether a compressed response that the client handed over decoded keeps the
    /// `Content-Encoding` and `Content-Length` it came with. Default: false, so a vinyl's headers
    /// describe the body it stores: such a response is stored without `Content-Encoding` and with
    /// the stored body's `Content-Length`, the report lists it (`rewrote: response.headers
    /// "Content-Encoding" ×1`), and `gramophone lint` passes the vinyl. Set it to replay the
    /// headers exactly as the client saw them live; `gramophone lint` then reports each such
    /// track. A body still compressed (AsyncHTTPClient without decompression) keeps its headers
    /// either way.
    public var keepsContentEncoding = false
    /// Whether `eject()` keeps its report (the file written, the tracks added, what was
    /// redacted) off stderr; it still returns it. Default: false, unless `GRAMOPHONE_QUIET` is
    /// set in `environment` (to anything but empty, `0`, `false` or `no`).
    public var isQuiet: Bool {
        get { quiet ?? Environment.isSet(Environment.quietVariable, in: environment) }
        set { quiet = newValue }
    }
    private var quiet: Bool?
    /// Where the report goes when not quiet: stderr; tests read it here.
    var reportOutput: @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    /// How old, in seconds, a vinyl's tracks may get before it is recorded again; nil (the
    /// default) is never. An existing vinyl whose oldest dated track is older is recorded
    /// again (as `.all`) where recording is allowed; on CI or with `.never` it is replayed as
    /// it is and reported once as stale (`Playback.staleness`), never failing the test.
    public var reRecordAfter: TimeInterval?
    /// Whether the Turntable prints the stale note itself; the Swift Testing trait turns it
    /// off and records a warning instead.
    package var printsStaleness = true
    /// Names the run a Turntable belongs to: the test helpers give the cases of one
    /// parameterized test the same key, so they share a new vinyl (a `.once` vinyl one case
    /// started stays recordable for the others) and a re-recording (tracks another case
    /// recorded in the run are not replaced). Nil: each Turntable is a run of its own.
    package var runKey: String?
    /// The file the vinyl is written to, when it is not the file it is played from: the
    /// Turntable plays the vinyl from its store (a bundle, a folder) and writes the whole vinyl,
    /// the tracks it played from and those it recorded, to this file (Vinyl's `recordingPath`).
    /// Nil (the default) writes into the played file (for a bundle, the source file it copies).
    /// The mode reads the played file: `.once` records when it is missing, `.newEpisodes` adds
    /// what it lacks. A write happens when something was recorded, or when asked
    /// (`Turntable.eject(evenIfUnchanged: true)`), merging with what the file holds then, under
    /// the same lock as any write; its report names this file and the tracks copied into it.
    /// Set it with `writing(to:)`.
    public var destination: URL?
    /// Whether each recorded track is written at once, not at `eject()`: an app under UI test
    /// (`Turntable.installFromLaunchEnvironment()`) is killed, never released.
    var writesEachTrack = false
    /// Places known to hold no secret: the default redaction leaves them alone and the check
    /// before writing does not report them. Empty by default; set it with `allowing(_:)`.
    var allowedSecrets: [SecretPlace] = []

    /// How to record; each argument sets the property of the same name. The defaults record
    /// once (never on CI, whatever the mode), through an ephemeral `URLSession`, with the default redaction, every
    /// host, no expiry, and the mode overridable through the process's `GRAMOPHONE_RECORD_MODE`.
    ///
    /// ```swift
    /// Recording(mode: .newEpisodes, hosts: ["api.example.com"], reRecordAfter: 90 * 86_400)
    /// ```
    ///
    /// - Parameters:
    ///   - mode: the record mode; nil is `.once` (`.never` for a bundle's vinyl and on CI).
    ///   - session: what reaches the real network; nil is an ephemeral `URLSession`, made on first use.
    ///   - redaction: what is taken out of requests and responses before matching and writing.
    ///   - hosts: the hosts recorded and replayed (subdomains included); nil is every host.
    ///   - streamLimit: when to stop recording a stream that is still going.
    ///   - reRecordAfter: seconds after which a vinyl is recorded again; nil is never.
    ///   - environment: where `GRAMOPHONE_RECORD_MODE`, `CI` and `GRAMOPHONE_QUIET` are read.
    public init(
        mode: RecordMode? = nil,
        session: (any NetworkSession)? = nil,
        redaction: Redaction = .default,
        hosts: [String]? = nil,
        streamLimit: StreamLimit = StreamLimit(),
        reRecordAfter: TimeInterval? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.mode = mode
        self.session = session
        self.redaction = redaction
        self.hosts = hosts
        self.streamLimit = streamLimit
        self.reRecordAfter = reRecordAfter
        self.environment = environment
    }

    /// This recording, writing the whole vinyl to `file` instead of the file it is played from
    /// (see `destination`): play a vinyl from a test bundle and record into a file you name.
    ///
    /// ```swift
    /// let file = URL(fileURLWithPath: "/tmp/recorded/users.json")
    /// let turntable = try Turntable(vinylNamed: "users", from: .bundle(.module),
    ///                               recording: Recording(mode: .newEpisodes).writing(to: file))
    /// ```
    public func writing(to file: URL) -> Recording {
        var copy = self
        copy.destination = file
        return copy
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

    /// This recording with the secret check off: nothing is reported as a likely secret and
    /// the default redaction leaves every value where it is, as if every place were allowed.
    /// Filters you add yourself (`.default + .headers(removing: …)`) still apply.
    ///
    /// For a deliberate raw recording of **fake** credentials only — a local test server, a
    /// fixture account — where keeping the exact request is the point:
    ///
    /// ```swift
    /// Recording(mode: .once, redaction: .none).allowingAllSecrets()
    /// ```
    ///
    /// - Warning: a vinyl recorded this way holds whatever was sent and received. Never use it
    ///   against a real API with real credentials: the vinyl is committed and shared. Run
    ///   `gramophone scan` on such vinyls to see what they hold.
    public func allowingAllSecrets() -> Recording {
        allowing([.everywhere])
    }

    /// Whether the `CI` (or `TEST_RUNNER_CI`) variable says this is a CI run (set, and not
    /// empty, `0`, `false` or `no`).
    var isCI: Bool { Environment.isSet("CI", in: environment) }

    /// Whether requests to `url` are recorded and replayed.
    func records(_ url: URL) -> Bool {
        guard let hosts else { return true }
        // Compared here, not when set: the property can be set after `init` (`configureVinyl`).
        let host = (url.host ?? "").lowercased()
        return hosts.contains { name in
            let name = name.lowercased()
            return host == name || host.hasSuffix("." + name)
        }
    }

    /// The mode in force: `GRAMOPHONE_RECORD_MODE` if set; else `.never` on CI, whatever
    /// `mode` says (a mode written in code is committed with the test and would otherwise
    /// record on every CI run that lacks the vinyl); else `mode`; else `.never` for a bundle
    /// and `.once` elsewhere.
    /// - Throws: `RecordingError.invalidMode` naming the variable when its value is not a mode.
    func resolvedMode(defaultForBundle isBundle: Bool = false) throws -> RecordMode {
        if let text = Environment.value(Self.modeVariable, in: environment) {
            guard let mode = RecordMode(environmentValue: text) else {
                throw RecordingError.invalidMode(text)
            }
            return mode
        }
        if isCI { return .never }
        if let mode { return mode }
        return isBundle ? .never : .once
    }

    /// The error for a missing vinyl that the mode in force will not record, saying why the
    /// mode is `.never` and how to record it.
    /// `source` is where a bundle's vinyl is recorded to (its source folder), when known.
    func neverRecordsError(file: URL, isBundle: Bool, source: URL? = nil) -> VinylError {
        let why: String
        let fix: String
        if Environment.value(Self.modeVariable, in: environment) != nil {
            why = " (\(Self.modeVariable) says so)"
            fix = "Record it with \(Self.modeVariable)=once, or unset the variable"
        } else if isCI {
            let ignored = mode.map { $0 == .never ? "" : ": the mode \($0) given in code records on your machine, not on CI" } ?? ""
            why = " (the CI variable is set\(ignored))"
            fix = "Record it locally and commit it, or set \(Self.modeVariable)=once for this CI run to record it there"
        } else if mode == nil, isBundle {
            why = " (the default for a bundle)"
            fix = "Record it: run once with \(Self.modeVariable)=once (it is written to \(source?.path ?? "the source folder the bundle copies"), not into the bundle), or pass Recording(mode: .once)"
        } else if mode == .never {
            why = " (as the code says)"
            fix = "Record it: run once with \(Self.modeVariable)=once, or leave the mode out (the default, once, records a missing vinyl)"
        } else {
            why = ""
            fix = "Record it: run once with \(Self.modeVariable)=once, or pass Recording(mode: .once)"
        }
        return VinylError(.notFound, file: file.path, problem: "no such file, and the record mode is never\(why)", fix: fix)
    }
}
