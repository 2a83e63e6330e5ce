import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// An app under UI test runs in its own process: a UI test cannot hand it a Turntable, only
// launch environment variables. One call at start-up reads them and answers the app's requests
// from the vinyl they name, through the process-wide stubber.
extension Turntable {
    /// The launch environment variable naming the vinyl file (an absolute path) an app under
    /// UI test plays; without it, `installFromLaunchEnvironment()` does nothing.
    static let vinylPathVariable = "GRAMOPHONE_VINYL_PATH"
    /// The launch environment variable with the matching strategy: matcher names separated by
    /// commas (`method,path,query,body`), `trackOrder` or `dvr`; when not set, the vinyl's own
    /// (`dvr` for a DVR cassette, method, URL and body otherwise).
    static let matchingVariable = "GRAMOPHONE_MATCHING"

    /// Plays the vinyl a UI test names in the app's launch environment, before the app's first
    /// request; call it first thing at app start-up (it does nothing in a normal launch).
    ///
    /// ```swift
    /// // App: in init() of the App, or application(_:didFinishLaunchingWithOptions:)
    /// try? Turntable.installFromLaunchEnvironment()
    ///
    /// // UI test
    /// app.launchEnvironment["GRAMOPHONE_VINYL_PATH"] = vinylsFolder.appendingPathComponent("onboarding.json").path
    /// app.launchEnvironment["GRAMOPHONE_RECORD_MODE"] = "once"      // optional: record what is missing
    /// app.launch()
    /// ```
    ///
    /// Variables: `GRAMOPHONE_VINYL_PATH` (required), `GRAMOPHONE_RECORD_MODE` (`never` by
    /// default: a UI test replays), `GRAMOPHONE_MATCHING`. The Turntable answers every request
    /// of `URLSession.shared` and of sessions made from `HTTPStubber.shared.configuration(_:)`;
    /// what it records is written to the vinyl file after each new track, so the test runner
    /// can read it (on a simulator, a path on the Mac; not on a device).
    ///
    /// - Returns: the Turntable, or nil when `GRAMOPHONE_VINYL_PATH` is not set.
    /// - Throws: `VinylError` for a vinyl that cannot be read, `RecordingError.invalidMode`,
    ///   or `VinylError(.malformed)` naming `GRAMOPHONE_MATCHING` when it is not understood.
    ///
    /// Not on watchOS, where `URLProtocol` does not intercept requests (see `HTTPStubber`).
    @available(watchOS, unavailable, message: "URLProtocol does not intercept requests on watchOS, so an app's own sessions cannot be answered from a vinyl there")
    @discardableResult
    public static func installFromLaunchEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Turntable? {
        guard let path = Environment.value(vinylPathVariable, in: environment) else { return nil }
        let file = URL(fileURLWithPath: path)
        let matching = try MatchingStrategy(launchValue: Environment.value(matchingVariable, in: environment))
        var recording = Recording(mode: .never, environment: environment)
        // Written after each new track, not at exit: an app under UI test is usually killed, never released.
        recording.writesEachTrack = true
        let stubber = HTTPStubber.shared
        // The stubber's stubs first, then the vinyl: the app's sessions get a Turntable's answers.
        let turntable = try Turntable(
            vinylNamed: file.lastPathComponent, from: .folder(file.deletingLastPathComponent()),
            matching: matching, recording: recording, sourcePath: nil, stubs: stubber.stubs)
        stubber.play(turntable)
        stubber.enable()
        return turntable
    }
}

extension MatchingStrategy {
    /// A strategy as `GRAMOPHONE_MATCHING` spells it; nil when not set (the vinyl's own).
    init?(launchValue: String?) throws {
        guard let text = launchValue?.trimmingWhitespace(), !text.isEmpty else { return nil }
        if text.lowercased() == "trackorder" { self = .trackOrder(); return }
        if text.lowercased() == "dvr" { self = .dvr; return }
        let named: [String: Matcher] = [
            "method": .method, "url": .url, "scheme": .scheme, "host": .host, "port": .port, "path": .path, "query": .query, "body": .body, "graphql": .graphQL,
        ]
        self = .attributes(
            try text.split(separator: ",").map { part in
                let name = String(part).trimmingWhitespace().lowercased()
                guard let matcher = named[name] else {
                    throw VinylError(
                        .malformed, file: nil, place: Turntable.matchingVariable, problem: "\"\(name)\" is not a matcher",
                        fix: "Use matcher names separated by commas (method, url, scheme, host, port, path, query, body, graphql) trackOrder or dvr")
                }
                return matcher
            })
    }
}
