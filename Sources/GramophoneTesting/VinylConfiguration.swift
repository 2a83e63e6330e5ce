import Gramophone

/// How a test's vinyl is found, played, recorded and checked; every field left nil takes the
/// value of an enclosing suite's configuration, then the default.
///
/// ```swift
/// @Suite(.vinyl(store: .folder(vinyls), mode: .newEpisodes))   // the suite's tests record what is missing
/// struct UsersTests {
///     @Test(.vinyl(allTracksMustPlay: true))                      // …and this one must play every track
///     func fetchesUser() async throws { … }
/// }
/// ```
public struct VinylConfiguration: Sendable {
    /// The vinyl's name (`/` for subfolders); nil names it after the test (`Suite/test`, or
    /// `Class/test` in XCTest).
    public var name: String?
    /// Where the vinyl lives; nil is the default, the `Vinyls` folder of the test's target
    /// (`Tests/<Target>/Vinyls/`; see `VinylStore`).
    public var store: VinylStore?
    /// How requests are matched to tracks; nil follows the vinyl: `MatchingStrategy.dvr` for a
    /// cassette DVR wrote, `MatchingStrategy.default` for any other.
    public var matching: MatchingStrategy?
    /// The record mode; nil is `recording`'s mode, else the default: `.once` for a folder,
    /// `.never` for a bundle. On CI it is `.never` whatever this says;
    /// `GRAMOPHONE_RECORD_MODE` overrides it (see `Recording.mode`).
    public var mode: RecordMode?
    /// What is taken out of recorded requests and responses; nil is `recording`'s redaction,
    /// else `Redaction.default`.
    public var redaction: Redaction?
    /// The session, hosts and environment used to record; nil is `Recording()`.
    public var recording: Recording?
    /// Whether a track the test never played fails the test; nil is false. Catches code
    /// that stopped making a request the vinyl says it makes.
    public var allTracksMustPlay: Bool?
    /// Whether what a failing test recorded is written all the same; nil is false: a failing
    /// test leaves the vinyl as it was (a new one is not created), since what it recorded may
    /// be the failure's half-made traffic.
    public var saveOnFailure: Bool?
    /// Whether the test gets a vinyl at all; nil is true. False runs it without one
    /// (`Turntable.current` is nil): `@Test(.withoutVinyl)` in a `.vinyl` suite, as
    /// `VinylTestCase.shouldUseVinyl` in XCTest.
    public var shouldUseVinyl: Bool?

    /// A configuration; leave a field nil to inherit it from the suite, else the default.
    public init(
        name: String? = nil, store: VinylStore? = nil, matching: MatchingStrategy? = nil, mode: RecordMode? = nil,
        redaction: Redaction? = nil, recording: Recording? = nil, allTracksMustPlay: Bool? = nil, saveOnFailure: Bool? = nil,
        shouldUseVinyl: Bool? = nil
    ) {
        self.shouldUseVinyl = shouldUseVinyl
        self.name = name
        self.store = store
        self.matching = matching
        self.mode = mode
        self.redaction = redaction
        self.recording = recording
        self.allTracksMustPlay = allTracksMustPlay
        self.saveOnFailure = saveOnFailure
    }

    /// This configuration's values where set, `base`'s elsewhere: the test's own values win
    /// over its suite's.
    public func merged(over base: VinylConfiguration) -> VinylConfiguration {
        VinylConfiguration(
            name: name ?? base.name,
            store: store ?? base.store,
            matching: matching ?? base.matching,
            mode: mode ?? base.mode,
            redaction: redaction ?? base.redaction,
            recording: recording ?? base.recording,
            allTracksMustPlay: allTracksMustPlay ?? base.allTracksMustPlay, saveOnFailure: saveOnFailure ?? base.saveOnFailure,
            shouldUseVinyl: shouldUseVinyl ?? base.shouldUseVinyl)
    }

    /// The recording settings in force: `recording` with `mode` and `redaction` applied.
    var resolvedRecording: Recording {
        var resolved = recording ?? Recording()
        if let mode { resolved.mode = mode }
        if let redaction { resolved.redaction = redaction }
        return resolved
    }
}
