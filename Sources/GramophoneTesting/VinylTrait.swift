#if canImport(Testing)
import Foundation
import Gramophone
import Testing

/// The `.vinyl` trait: gives a test its own Turntable, reachable as `Turntable.current`.
///
/// On a test, the vinyl is opened before it runs; after it, recordings are saved (unless the
/// test failed: see `saveOnFailure`), then misses, unplayed tracks (when all must play) and
/// save failures are recorded as issues at the test's source location. On a
/// suite, it sets defaults for every test inside, and gives each one its own vinyl; the
/// test's own `.vinyl(…)` values win over the suite's.
///
/// Nothing is global: parallel tests each get their Turntable through a task-local.
public struct VinylTrait: SuiteTrait, TestTrait {
    /// Applies to every test in a suite.
    public var isRecursive: Bool { true }
    /// The values this trait sets.
    public var configuration: VinylConfiguration
    /// Tells this trait apart from others when a test inherits several.
    let identity = UUID()

    init(configuration: VinylConfiguration) {
        self.configuration = configuration
    }
}

extension Trait where Self == VinylTrait {
    /// A vinyl named after the suite and the test (`UsersTests/fetchesUser`).
    public static var vinyl: Self { VinylTrait(configuration: VinylConfiguration()) }

    /// A vinyl for the test, or defaults for the tests of a suite: each argument sets the
    /// `VinylConfiguration` property of the same name, which says what it does and what nil
    /// means (nil values are inherited from the suite, else the default), e.g.
    /// `.vinyl("users/list", store: .bundle(.module), mode: .newEpisodes)`.
    public static func vinyl(
        _ name: String? = nil, store: VinylStore? = nil, matching: MatchingStrategy? = nil, mode: RecordMode? = nil,
        redaction: Redaction? = nil, recording: Recording? = nil, allTracksMustPlay: Bool? = nil, saveOnFailure: Bool? = nil
    ) -> Self {
        VinylTrait(
            configuration: VinylConfiguration(
                name: name, store: store, matching: matching, mode: mode,
                redaction: redaction, recording: recording, allTracksMustPlay: allTracksMustPlay, saveOnFailure: saveOnFailure))
    }

    /// No vinyl for this test, in a suite whose tests have one: `Turntable.current` is nil,
    /// and no file is opened or needed. Swift Testing's `VinylTestCase.shouldUseVinyl`.
    ///
    /// ```swift
    /// @Suite(.vinyl) struct UsersTests {
    ///     @Test(.withoutVinyl) func decodesAStubbedUser() async throws { … }   // its own stubbed Turntable
    /// }
    /// ```
    public static var withoutVinyl: Self { VinylTrait(configuration: VinylConfiguration(shouldUseVinyl: false)) }

    /// A vinyl configured by a `VinylConfiguration`, e.g. one shared by several suites.
    public static func vinyl(_ configuration: VinylConfiguration) -> Self {
        VinylTrait(configuration: configuration)
    }
}

extension VinylTrait: TestScoping {
    /// Each test case gets a scope (suites and the test function around its cases get none:
    /// every case has its own vinyl), provided by the outermost `.vinyl` the test carries,
    /// which merges the others.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> VinylTrait? {
        guard !test.isSuite, testCase != nil else { return nil }
        let first = test.traits.lazy.compactMap { $0 as? VinylTrait }.first
        return first?.identity == identity ? self : nil
    }

    /// Runs the test case with its vinyl on `Turntable.current` (see `withVinyl`), counting the
    /// failing issues it records, so a failed test's recording is not saved.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // Inherited suite traits come before the test's own, so later ones win.
        var configuration = test.traits.compactMap { ($0 as? VinylTrait)?.configuration }
            .reduce(VinylConfiguration()) { merged, next in next.merged(over: merged) }
        // The cases of a parameterized test share their vinyl as one run.
        configuration.recording = configuration.resolvedRecording
        configuration.recording?.runKey = "\(test.id)"
        if configuration.shouldUseVinyl == false {
            try await Turntable.$current.withValue(nil) { try await function() }
            return
        }
        let name = configuration.name ?? VinylNaming.name(components: test.id.nameComponents)
        // Swift Testing's issue handling sees every issue the test records (an #expect that did
        // not hold, a #require that threw) and passes each on unchanged.
        let failures = Locked(0)
        let counter: IssueHandlingTrait = .compactMapIssues { issue in
            if issue.isFailure { failures.withLock { $0 += 1 } }
            return issue
        }
        try await runWithVinyl(
            name, configuration: configuration, sourceLocation: test.sourceLocation, failed: { failures.withLock { $0 > 0 } },
            operation: { try await counter.provideScope(for: test, testCase: testCase, performing: function) })
    }
}

/// Runs `operation` with the vinyl `name` on `Turntable.current`, then saves what it recorded
/// and records its misses, unplayed tracks (when all must play) and save failures as issues
/// at `sourceLocation`. When `operation` throws or a request missed, nothing it recorded is
/// saved unless `configuration.saveOnFailure` is true (the `.vinyl` trait also counts the
/// test's failed expectations).
///
/// What the `.vinyl` trait does, for a part of a test or a custom trait.
public func withVinyl<R>(
    _ name: String,
    configuration: VinylConfiguration = VinylConfiguration(),
    sourceLocation: SourceLocation = #_sourceLocation,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
) async throws -> R {
    try await runWithVinyl(name, configuration: configuration, sourceLocation: sourceLocation, failed: { false }, operation: operation)
}

/// `withVinyl`, told by `failed` whether the test recorded a failure.
private func runWithVinyl<R>(
    _ name: String, configuration: VinylConfiguration, sourceLocation: SourceLocation, failed: () -> Bool,
    isolation: isolated (any Actor)? = #isolation, operation: () async throws -> R
) async throws -> R {
    // Expiry (`Recording.reRecordAfter`): a stale vinyl replayed on CI is a warning-severity
    // issue (Swift Testing's severities), instead of the Turntable's printed note.
    var configuration = configuration
    configuration.recording = configuration.resolvedRecording
    configuration.recording?.printsStaleness = false
    let vinyl = try TestVinyl(name: name, configuration: configuration, sourcePath: sourceLocation.filePath)
    reportStaleness(of: vinyl.turntable, sourceLocation: sourceLocation)
    let result: Result<R, any Error>
    do {
        result = .success(try await Turntable.$current.withValue(vinyl.turntable, operation: operation))
    } catch {
        result = .failure(error)
    }
    let thrown: (any Error)? = if case .failure(let error) = result { error } else { nil }
    let (problems, written) = vinyl.finishReporting(thrown: thrown, testFailed: failed())
    for problem in problems {
        Issue.record(Comment(rawValue: problem.message), sourceLocation: sourceLocation)
    }
    // What was written and what the redaction took out, with the test's results (Xcode's
    // report, `swift test --attachments-path`), not only in the console.
    if let written {
        Attachment.record(written.description, named: vinyl.name.replacingOccurrences(of: "/", with: "-") + " recording.txt", sourceLocation: sourceLocation)
    }
    return try result.get()
}

/// Records the warning, once per vinyl, for a stale vinyl replayed as it is.
private func reportStaleness(of turntable: Turntable, sourceLocation: SourceLocation) {
    guard let staleness = turntable.playback.staleness else { return }
    if staleness.isReRecorded {
        FileHandle.standardError.write(Data((staleness.description + "\n").utf8))
    } else if staleness.claimReport() {
        Issue.record(Comment(rawValue: staleness.description), severity: .warning, sourceLocation: sourceLocation)
    }
}
#endif
