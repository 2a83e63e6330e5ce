import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stubs for every `URLSession` in the process, including ones the code under test creates
/// itself or that a third-party library uses, through a registered `URLProtocol`.
///
/// ```swift
/// HTTPStubber.shared.enable()
/// HTTPStubber.shared.stubs.add(Stub().matching(.host("api.example.com")).responding(with: .json(#"{"ok":true}"#)))
/// let (data, _) = try await URLSession.shared.data(from: URL(string: "https://api.example.com/status")!)
/// HTTPStubber.shared.reset()
/// HTTPStubber.shared.disable()
/// ```
///
/// Which sessions are intercepted (on Apple platforms and Linux alike):
/// - `URLSession.shared`, when `enable()` ran before the process first used it. On Linux the
///   shared session copies the registered protocol classes when it is created, so enable the
///   stubber before anything touches `URLSession.shared` (`interceptsSharedSession` tells).
/// - Sessions made from `configuration(_:)` or `session(...)`, at any time.
/// - Not sessions made by other code from `.default` or `.ephemeral`: `registerClass` reaches
///   the shared session only. Pass such code a session from `session(...)`, or a configuration
///   from `configuration(_:)`.
///
/// While disabled, or for requests it does not claim (ignore rules, and unmatched requests in
/// `.optIn` mode), the protocol steps aside and the request reaches the real network untouched.
/// The stubber is global state: tests that use it must not run in parallel with each other.
///
/// Not on watchOS: a registered or configured `URLProtocol` does not intercept requests there,
/// so a stubber would let every request reach the network. Use a Turntable and its stubs.
@available(watchOS, unavailable, message: "URLProtocol does not intercept requests on watchOS: hand the code under test a Turntable (a NetworkSession) instead")
public final class HTTPStubber: Sendable {
    /// The one stubber of the process (a `URLProtocol` class cannot carry per-instance state).
    public static let shared = HTTPStubber()

    /// The stubs, tried before the network; the same type as `Turntable.stubs`.
    public let stubs = StubRegistry()
    private let enabled = Locked(false)
    private let registered = Locked(false)

    // The stubber answers as a Turntable with no vinyl underneath and the stubber's stubs: one
    // way through for every request, redirects, streams and timing included. A request no stub
    // answers misses with `StubError` (`.optOut`), or goes to the network untouched (`.optIn`:
    // one claimed before its body was known), as a recording sends the hosts it leaves alone.
    private let optOut: Turntable
    private let optIn: Turntable
    /// The launch environment's Turntable, which answers what the stubs do not from its vinyl.
    private let installed = Locked<Turntable?>(nil)

    private init() {
        optOut = Turntable(vinyl: Vinyl(name: "HTTPStubber"), matching: nil, file: nil, recorder: nil, stubs: stubs, isStubber: true)
        var network = Recording(mode: .never, session: DeferredSession(excluding: StubURLProtocol.self), hosts: [], environment: [:])
        network.isQuiet = true
        let passThrough = Recorder(recording: network, mode: .never, file: URL(fileURLWithPath: "/dev/null"), vinylName: "HTTPStubber", isNew: false, loaded: [])
        optIn = Turntable(vinyl: Vinyl(name: "HTTPStubber"), matching: nil, file: nil, recorder: passThrough, stubs: stubs, isStubber: true)
    }

    /// The Turntable that answers the requests the protocol claims.
    var turntable: Turntable {
        if let installed = installed.withLock({ $0 }) { return installed }
        return unhandledMode == .optOut ? optOut : optIn
    }

    /// Answers what the stubs do not from `turntable` (whose stubs are these), and claims every
    /// request for it: the launch environment's vinyl.
    func play(_ turntable: Turntable) {
        installed.withLock { $0 = turntable }
    }

    /// The `URLProtocol` class to put first in a configuration's `protocolClasses`.
    static var protocolClass: AnyClass { StubURLProtocol.self }

    // MARK: Switching on and off

    /// Starts answering requests from the stubs. The protocol class is registered with the URL
    /// loading system the first time; later calls only switch interception back on.
    public func enable() {
        registered.withLock { registered in
            // Registering once and never unregistering keeps URLSession.shared's copy of the
            // class list valid across enable/disable cycles; `enabled` does the switching.
            if !registered { _ = URLProtocol.registerClass(StubURLProtocol.self) }
            registered = true
        }
        enabled.withLock { $0 = true }
    }

    /// Stops answering: every request goes to the real network again. The stubs stay.
    public func disable() {
        enabled.withLock { $0 = false }
    }

    /// Whether `URLSession.shared` routes its requests through the stubber. False on Linux when
    /// the shared session was first used before `enable()`.
    public var interceptsSharedSession: Bool {
        guard registered.withLock({ $0 }) else { return false }
        #if canImport(FoundationNetworking)
        return URLSession.shared.configuration.protocolClasses?.contains { $0 == StubURLProtocol.self } ?? false
        #else
        return true
        #endif
    }

    // MARK: Stubs and rules

    /// Requests for which all of `matchers` hold go to the real network, even in `.optOut` mode.
    public func ignore(_ matchers: StubMatcher...) { stubs.state.withLock { $0.ignoreRules.append(matchers) } }

    /// What happens to requests no stub answers; `.optIn` (to the network) by default.
    public var unhandledMode: UnhandledMode {
        get { stubs.state.withLock { $0.unhandledMode } }
        set { stubs.state.withLock { $0.unhandledMode = newValue } }
    }

    /// When set, overrides every stub's own network condition: `.down` takes the whole
    /// (stubbed) network offline, `.throughput(.edge)` slows every stub down.
    public var networkCondition: NetworkCondition? {
        get { stubs.state.withLock { $0.condition } }
        set { stubs.state.withLock { $0.condition = newValue } }
    }

    /// Back to a clean slate: no stubs (their handles' `requests` become empty), no ignore
    /// rules, no placeholders, no network condition, `.optIn`. Whether the stubber is enabled does not change. Call it after each test.
    public func reset() {
        // Everything as new but the ids, so no handle of a stub added later equals an old one.
        stubs.state.withLock { $0 = StubRegistry.State(nextID: $0.nextID) }
    }

    // MARK: Sessions

    /// A copy of `base` with the stubber's protocol first in `protocolClasses`.
    public func configuration(_ base: URLSessionConfiguration = .default) -> URLSessionConfiguration {
        // `copy()` keeps the caller's configuration unchanged.
        let configuration = (base.copy() as? URLSessionConfiguration) ?? base
        let others = (configuration.protocolClasses ?? []).filter { $0 != StubURLProtocol.self }
        configuration.protocolClasses = [StubURLProtocol.self] + others
        return configuration
    }

    /// A session whose requests go through the stubber (while it is enabled).
    public func session(configuration base: URLSessionConfiguration = .default, delegate: (any URLSessionDelegate)? = nil, delegateQueue: OperationQueue? = nil) -> URLSession {
        URLSession(configuration: configuration(base), delegate: delegate, delegateQueue: delegateQueue)
    }

    // MARK: For the protocol

    /// Whether the protocol should take `request`: a stub answers it, or it must fail as
    /// unmatched.
    ///
    /// On Apple platforms the URL loading system has already moved `httpBody` into
    /// `httpBodyStream` when it asks, and draining the stream here would leave nothing for the
    /// network if the request were then passed on. So a request whose body is a stream is
    /// claimed when a stub could answer it whatever its body; the protocol then reads the
    /// body, and if no stub answers after all, sends the request to the network itself.
    func claims(_ urlRequest: URLRequest) -> Bool {
        guard enabled.withLock({ $0 }), let url = urlRequest.url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        let bodyUnknown = urlRequest.httpBody == nil && urlRequest.httpBodyStream != nil
        let live = Track.Request(method: urlRequest.httpMethod ?? "GET", url: url, headers: Headers(urlRequest.allHTTPHeaderFields ?? [:]), body: urlRequest.httpBody ?? Data())
        switch stubs.resolve(live, bodyUnknown: bodyUnknown) {
        case .stubbed: return true
        case .ignored: return false
        case .unmatched(_, let mode): return mode == .optOut || installed.withLock { $0 != nil }
        }
    }
}
