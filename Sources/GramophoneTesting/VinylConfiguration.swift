import Gramophone

/// How a test's vinyl is found, played, recorded and checked; every field left nil takes the
/// value of an enclosing suite's configuration, then the default.
///
/// ```swift
/// @Suite(.vinyl(store: .folder(vinyls), record: .newEpisodes))   // the suite's tests record what is missing
/// struct UsersTests {
///     @Test(.vinyl(allTracksMustPlay: true))                      // …and this one must play every track
///     func fetchesUser() async throws { … }
/// }
/// ```
public struct VinylConfiguration: Sendable {
    /// The vinyl's name; nil names it after the test (`Suite/test`, or `Class/test` in XCTest).
    public var name: String?
    /// Where the vinyl lives; nil is `VinylStore.defaultFolder`.
    public var store: VinylStore?
    /// How requests are matched to tracks; nil is `MatchingStrategy.default`.
    public var matching: MatchingStrategy?
    /// The record mode asked for; nil is `recording`'s mode, else the default: `.once`
    /// (`.none` on CI) for a folder, `.none` for a bundle (a build product is no place to
    /// record into). `GRAMOPHONE_RECORD_MODE` overrides it.
    ///
    /// Not called `recordMode`, as in `Recording`: assigning `.none` to an optional would
    /// mean "inherit" (which may record), so write `= RecordMode.none` or use the initialiser.
    public var requestedRecordMode: RecordMode?
    /// What is taken out of recorded requests and responses; nil is `recording`'s redaction,
    /// else `Redaction.default`.
    public var redaction: Redaction?
    /// The session, hosts and environment used to record; nil is `Recording()`.
    public var recording: Recording?
    /// Whether a track the test never played fails the test; nil is false. Catches code
    /// that stopped making a request the vinyl says it makes.
    public var allTracksMustPlay: Bool?

    /// A configuration that records in `recordMode`; leave a field nil to inherit it. The
    /// mode is not optional here, so `.none` always means "never record".
    public init(name: String? = nil, store: VinylStore? = nil, matching: MatchingStrategy? = nil, recordMode: RecordMode,
                redaction: Redaction? = nil, recording: Recording? = nil, allTracksMustPlay: Bool? = nil) {
        self.init(name: name, store: store, matching: matching, requestedRecordMode: recordMode, redaction: redaction, recording: recording, allTracksMustPlay: allTracksMustPlay)
    }

    /// A configuration that inherits the record mode; leave a field nil to inherit it.
    public init(name: String? = nil, store: VinylStore? = nil, matching: MatchingStrategy? = nil,
                redaction: Redaction? = nil, recording: Recording? = nil, allTracksMustPlay: Bool? = nil) {
        self.init(name: name, store: store, matching: matching, requestedRecordMode: nil, redaction: redaction, recording: recording, allTracksMustPlay: allTracksMustPlay)
    }

    init(name: String?, store: VinylStore?, matching: MatchingStrategy?, requestedRecordMode: RecordMode?,
         redaction: Redaction?, recording: Recording?, allTracksMustPlay: Bool?) {
        self.name = name
        self.store = store
        self.matching = matching
        self.requestedRecordMode = requestedRecordMode
        self.redaction = redaction
        self.recording = recording
        self.allTracksMustPlay = allTracksMustPlay
    }

    /// This configuration's values where set, `base`'s elsewhere: the test's own values win
    /// over its suite's.
    public func merged(over base: VinylConfiguration) -> VinylConfiguration {
        VinylConfiguration(
            name: name ?? base.name,
            store: store ?? base.store,
            matching: matching ?? base.matching,
            requestedRecordMode: requestedRecordMode ?? base.requestedRecordMode,
            redaction: redaction ?? base.redaction,
            recording: recording ?? base.recording,
            allTracksMustPlay: allTracksMustPlay ?? base.allTracksMustPlay)
    }

    /// The recording settings in force: `recording` with `requestedRecordMode` and `redaction` applied.
    func resolvedRecording(for store: VinylStore) -> Recording {
        var resolved = recording ?? Recording()
        if let requestedRecordMode {
            resolved.requestedMode = requestedRecordMode
        } else if resolved.requestedMode == nil, store.isBundle {
            resolved.requestedMode = RecordMode.none
        }
        if let redaction { resolved.redaction = redaction }
        return resolved
    }
}
