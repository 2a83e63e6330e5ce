import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A session that answers requests from the tracks of a vinyl, with no network.
///
/// Hand it to the code under test wherever that code takes a `NetworkSession`:
///
/// ```swift
/// let turntable = try Turntable(vinylNamed: "users")
/// let client = UsersClient(session: turntable)
/// let user = try await client.user(42)   // answered from Tests/<Target>/Vinyls/users.json
/// ```
///
/// A request no track matches throws `TurntableError.noMatchingTrack`, whose description
/// shows the nearest track and what differs. A Turntable is safe to use from many tasks at
/// once; the lookup takes one lock, and the async API runs on the caller's actor
/// (`nonisolated(nonsending)`), so a `@MainActor` caller is answered without a hop.
public final class Turntable: NetworkSession, Sendable {
    struct Deck: Sendable {
        var vinyl: Vinyl
        var file: URL?
        /// The file to edit when `file` is a bundle's built copy: its source (the advice of a miss names it).
        var sourceFile: URL?
        /// Which track answers a request: the strategy, the index, what has played.
        var selector: TrackSelector
        var playCounts: [Int]
        /// The position of the first track recorded by this Turntable (`Int.max` before one is).
        var firstRecorded = Int.max
        var misses = 0
        /// The first misses thrown to the caller (see `miss(_:sent:)` in Session/Turntable+Answer.swift).
        var missLog: [MissReport] = []
        var answered = 0
        /// Answers rewritten with values from the live request (`MatchingStrategy.echoing`).
        var echoed = 0
        /// Replayed conversations, by track: the most client messages any replay of it sent
        /// (Session/ConversationProgress.swift).
        var conversationSends: [Int: Int] = [:]
        /// Every request this Turntable was sent, as sent, oldest first (the first `RequestLog.limit`).
        var requests: [Track.Request] = []
        /// Response heads are immutable and costly to build (an `HTTPURLResponse` ~5 µs): one per
        /// track, made on first use.
        var heads: [ResponseHead?]
        /// Set for the stand-in of a vinyl whose file is missing (see `init(missingVinyl:…)`):
        /// why, and what to do, added to every miss.
        var missingVinyl: String?
        /// How to record, as whoever made the Turntable spells it (`recordAdvice`).
        var recordAdvice: String?

        init(vinyl: Vinyl, file: URL?, sourceFile: URL?, strategy: MatchingStrategy?) {
            self.vinyl = vinyl
            self.file = file
            self.sourceFile = sourceFile
            selector = TrackSelector(vinyl, strategy: strategy)
            playCounts = Array(repeating: 0, count: vinyl.tracks.count)
            heads = Array(repeating: nil, count: vinyl.tracks.count)
        }

        // The selector's parts, read and changed in place (no copy of the arrays, nor a retain
        // of each, on a read or a change).
        var strategy: MatchingStrategy {
            _read { yield selector.strategy }
        }
        var index: TrackIndex {
            _read { yield selector.index }
            _modify { yield &selector.index }
        }

        /// Puts `vinyl` on with `strategy` (nil: the vinyl's own), forgetting what was played
        /// of the one before. The ledger (`misses`, `missLog`, `answered`, `echoed`,
        /// `requests`) stays: a miss the code swallowed before a reload must still fail the
        /// test, which only a new Turntable (a test helper's start) forgets.
        mutating func put(_ vinyl: Vinyl, file: URL?, sourceFile: URL?, strategy: MatchingStrategy?) {
            var next = Deck(vinyl: vinyl, file: file, sourceFile: sourceFile, strategy: strategy)
            next.misses = misses
            next.missLog = missLog
            next.answered = answered
            next.echoed = echoed
            next.requests = requests
            // The advice a miss gives is the Turntable's (a test helper's spelling), not the vinyl's.
            next.recordAdvice = recordAdvice
            self = next
        }
    }

    let deck: Locked<Deck>
    /// Stubs written in code, answered before the vinyl, private to this Turntable.
    public let stubs: StubRegistry

    /// Set for the process-wide stubber's Turntables (URLProtocol/HTTPStubber.swift), which
    /// have no vinyl: a request no stub answers misses as a stubber's miss, `StubError`.
    let isStubber: Bool

    /// Delegate, queue, timing and the URLProtocol class (Session/SessionSettings.swift).
    let settings = Locked(SessionSettings())

    /// The order requests came in, which choosing tracks and completing tasks keep.
    let order = ResumeOrder()

    /// Records missing tracks and writes the vinyl; nil for a replay-only Turntable.
    let recorder: Recorder?

    /// A Turntable playing `vinyl`, built in code or read with `Vinyl(contentsOf:)`.
    ///
    /// With no `matching`, a cassette DVR wrote is matched as DVR did (`MatchingStrategy.dvr`)
    /// and any other vinyl by `MatchingStrategy.default`; pass a strategy to choose.
    public convenience init(vinyl: Vinyl, matching: MatchingStrategy? = nil) {
        self.init(vinyl: vinyl, matching: matching, file: nil, recorder: nil)
    }

    init(
        vinyl: Vinyl, matching: MatchingStrategy?, file: URL?, sourceFile: URL? = nil, recorder: Recorder?,
        stubs: StubRegistry = StubRegistry(), isStubber: Bool = false
    ) {
        deck = Locked(Deck(vinyl: vinyl, file: file, sourceFile: sourceFile, strategy: matching))
        self.recorder = recorder
        self.stubs = stubs
        self.isStubber = isStubber
        VinylIssue.warnOnce(about: vinyl, file: sourceFile ?? file)
    }

    deinit {
        // Recorded tracks are written when the Turntable goes, even without an explicit eject.
        if recorder != nil { ejectOnRelease() }
    }

    /// The stand-in for a vinyl whose file is missing and will not be recorded (`error`, of
    /// kind `.notFound`): it answers its stubs, and every other request misses, the miss
    /// report leading with `error` and `advice`. The test helpers give it to a test whose vinyl
    /// is missing, so only a test that asks its vinyl for a track fails for the missing file.
    package convenience init(missingVinyl error: VinylError, named name: String, matching: MatchingStrategy?, advice: String) {
        self.init(vinyl: Vinyl(name: name), matching: matching, file: error.file.map { URL(fileURLWithPath: $0) }, recorder: nil)
        deck.withLock { $0.missingVinyl = "the vinyl file is missing: \(error.description). " + advice }
    }

    /// A Turntable playing the vinyl `name` from `store`, in any format Gramophone reads
    /// (its own, Vinyl's, DVR, HAR, VCR, plist: detected from the file).
    ///
    /// With `recording`, requests no track answers go to the real network and are recorded
    /// (see `Recording` and `RecordMode`): a missing file is fine when the mode records, and
    /// is written on `eject()` or when the Turntable is released; with `.all` an existing file
    /// is not read, it will be replaced. A vinyl in a bundle is recorded into the source file
    /// the bundle copies, never into the bundle (see `VinylStore.bundle(_:)`).
    ///
    /// - Parameters:
    ///   - name: the vinyl's name, without extension; `/` makes subfolders (`"UsersTests/fetchesUser"`).
    ///   - store: where the vinyl is; nil is `VinylStore.defaultFolder()`: the `Vinyls` folder
    ///     of the target the calling file (`sourceFile`) belongs to, `Tests/<Target>/Vinyls/`.
    ///   - matching: how a live request finds its track; nil (the default) is `.dvr` for a
    ///     cassette DVR wrote, so it replays as under DVR, and `.default` (method, URL and body)
    ///     otherwise (`[.method, .url]` leaves the body out).
    ///   - recording: how to record what the vinyl lacks; nil replays only.
    ///   - sourceFile: the calling file, which places the default store; leave it to the compiler.
    /// - Throws: `VinylError` for a bad name, a missing vinyl (that will not be recorded) or an
    ///   unreadable one; `RecordingError.invalidMode` for an unknown `GRAMOPHONE_RECORD_MODE`.
    public convenience init(
        vinylNamed name: String, from store: VinylStore? = nil, matching: MatchingStrategy? = nil, recording: Recording? = nil,
        sourceFile: StaticString = #filePath
    ) throws {
        try self.init(vinylNamed: name, from: store, matching: matching, recording: recording, sourcePath: "\(sourceFile)")
    }

    /// The initialiser above with the source file as a string (a test's source location), as
    /// the test helpers know it. `stubs`: the registry answered first (the process-wide
    /// stubber's, for the launch environment's Turntable).
    package convenience init(
        vinylNamed name: String, from store: VinylStore?, matching: MatchingStrategy?, recording: Recording?, sourcePath: String?,
        stubs: StubRegistry = StubRegistry()
    ) throws {
        let store = store ?? .defaultFolder(nearPath: sourcePath)
        // A bundle's vinyl is edited (and recorded) in the source folder it is copied from.
        let source = try store.sourceFile(for: name, near: sourcePath)
        guard let recording else {
            let file = try store.file(for: name)
            self.init(vinyl: try Self.read(file, from: store), matching: matching, file: file, sourceFile: source, recorder: nil, stubs: stubs)
            return
        }
        var mode = try recording.resolvedMode(defaultForBundle: store.isBundle)
        // What is played, and where it is written (see Recording+Destination.swift): the same
        // file unless `Recording.destination` names another; never a build product.
        let (played, file, refusal) = try recording.files(for: name, in: store, mode: mode, sourcePath: sourcePath)
        let exists = FileManager.default.fileExists(atPath: played.path)
        var vinyl: Vinyl
        // With .all the file is not played, but its tracks are what the recording replaces.
        var replaced: [Track] = []
        // The bytes a recording loads its tracks from: its first save compares them, not decodes.
        var loadedFrom: (data: Data, format: VinylFormat, name: String)?
        switch mode {
        case .all:
            vinyl = Vinyl(name: file.deletingPathExtension().lastPathComponent)
            replaced = FileManager.default.fileExists(atPath: file.path) ? ((try? Vinyl(contentsOf: file))?.tracks ?? []) : []
        case .once, .newEpisodes:
            if exists {
                let read = try Recorder.read(played)
                vinyl = read.vinyl
                // Only the file a save writes has bytes it can compare with.
                if played == file { loadedFrom = (read.data, read.vinyl.format ?? .gramophone, read.vinyl.name) }
            } else {
                vinyl = Vinyl(name: file.deletingPathExtension().lastPathComponent)
            }
        case .never:
            guard exists else { throw recording.neverRecordsError(file: played, isBundle: store.isBundle, source: source) }
            vinyl = try Vinyl(contentsOf: played)
        }
        // Expiry (Recording.reRecordAfter): a stale vinyl is recorded again where recording is allowed.
        let reRecords = (mode == .once || mode == .newEpisodes) && !recording.isCI
        let staleness = exists && mode != .all ? Staleness(vinyl, file: played, recording: recording, reRecords: reRecords) : nil
        if staleness?.isReRecorded == true {
            mode = .all
            replaced = vinyl.tracks
            vinyl = Vinyl(name: vinyl.name)
        }
        let written = Recording.destinationTracks(played: vinyl.tracks, file: file, distinct: file != played, mode: mode, replaced: replaced)
        let recorder = Recorder(
            recording: recording, mode: mode, file: file, vinylName: name, isNew: !exists, loaded: written.known,
            loadedFrom: mode == .all ? nil : loadedFrom, staleness: staleness,
            copied: written.copied.isEmpty ? nil : (written.copied, played), refusal: refusal)
        self.init(vinyl: vinyl, matching: matching, file: played, sourceFile: source, recorder: recorder, stubs: stubs)
        if let staleness, recording.printsStaleness, staleness.isReRecorded || staleness.claimReport() {
            FileHandle.standardError.write(Data((staleness.description + "\n").utf8))
        }
    }

    /// Reads the vinyl at `file`, with the store's advice when it is missing.
    static func read(_ file: URL, from store: VinylStore) throws -> Vinyl {
        do {
            return try Vinyl(contentsOf: file)
        } catch var error as VinylError where error.kind == .notFound {
            error.fix = store.fixForMissingVinyl
            throw error
        }
    }

    // MARK: Changing the vinyl

    /// Puts another vinyl on, forgetting which of the old vinyl's tracks were played.
    /// Stubs, timing and the delegate stay; recording (if any) goes on into the first vinyl's
    /// file. What ``playback`` counts across vinyls stays too: requests, answers and misses
    /// (a miss the code swallowed before the reload still fails a test helper's test).
    public func load(vinyl: Vinyl) {
        load(vinyl, file: nil)
    }

    /// Puts the vinyl `name` from `store` (nil: the default, the `Vinyls` folder of the calling
    /// file's target; see `VinylStore`) on, forgetting which of the old vinyl's tracks were
    /// played; ``playback``'s requests, answers and misses stay.
    public func load(vinylNamed name: String, from store: VinylStore? = nil, sourceFile: StaticString = #filePath) throws {
        let store = store ?? .defaultFolder(near: sourceFile)
        let file = try store.file(for: name)
        load(try Self.read(file, from: store), file: file, source: try store.sourceFile(for: name, near: "\(sourceFile)"))
    }

    private func load(_ vinyl: Vinyl, file: URL?, source: URL? = nil) {
        deck.withLock { deck in
            deck.put(vinyl, file: file, sourceFile: source, strategy: deck.selector.strategyFollowsVinyl ? nil : deck.strategy)
        }
    }

    /// The vinyl now on the Turntable.
    public var vinyl: Vinyl { deck.withLock { $0.vinyl } }

    /// How a miss says to record what it lacks, in the spelling of whoever made this Turntable:
    /// a `.vinyl` test never called `Turntable(vinylNamed:recording:)`, its trait says `mode:`.
    /// Nil: the Turntable's own advice.
    package var recordAdvice: String? {
        get { deck.withLock { $0.recordAdvice } }
        set { deck.withLock { $0.recordAdvice = newValue } }
    }

    /// The vinyl's file as a person edits it: a bundle's source file rather than its built
    /// copy, else the file played or recorded into; nil for a vinyl built in code.
    package var sourceFile: URL? {
        deck.withLock { $0.sourceFile } ?? recorder?.file ?? deck.withLock { $0.file }
    }

    /// How tracks are chosen. Changing it re-indexes the tracks and forgets which were played;
    /// ``playback``'s requests, answers and misses stay.
    /// Unless one was given, it is `.dvr` for a cassette DVR wrote and `.default` otherwise.
    public var matching: MatchingStrategy {
        get { deck.withLock { $0.strategy } }
        set {
            deck.withLock { deck in
                let missing = deck.missingVinyl
                deck.put(deck.vinyl, file: deck.file, sourceFile: deck.sourceFile, strategy: newValue)
                deck.missingVinyl = missing
            }
        }
    }

    // MARK: Playback state

    /// What this Turntable has played, recorded and missed so far.
    public var playback: Playback {
        let recorded = recorder?.ledger.withLock { $0.recordedCount } ?? 0
        return deck.withLock { deck in
            Playback(
                vinylName: deck.vinyl.name, file: recorder?.file ?? deck.file, mode: recorder?.mode ?? .never,
                isNew: recorder?.isNew ?? false, isWriteProtected: !(recorder?.mayRecord ?? false),
                playCounts: deck.playCounts, requestsAnswered: deck.answered, recordedCount: recorded,
                misses: deck.misses, missReports: deck.missLog, requests: deck.requests, staleness: recorder?.staleness,
                echoedCount: deck.echoed, unfinishedConversations: deck.unfinishedConversations)
        }
    }

    // MARK: Answering (the one way through is in Session/Turntable+Answer.swift)

    /// The track for `live`, marked played, or nil when none matches. Counts nothing on a
    /// miss: a miss is counted and explained once, at the end of the way through. `sent` is the
    /// request as the code under test sent it (`live` may be its redacted form), for the log.
    ///
    /// `recordingRepeats`: a track recorded by this run does not answer; the request is another
    /// visit, to be sent for real and recorded as the next occurrence.
    func play(_ live: Track.Request, sent: Track.Request? = nil, recordingRepeats: Bool = false) -> Answer? {
        // Made outside the lock; for the default strategy only what its key reads.
        let liveParts = RequestParts(keyOnly: live)
        return deck.withLock { deck -> Answer? in
            guard let index = deck.selector.select(live, parts: liveParts) else { return nil }
            if recordingRepeats, index >= deck.firstRecorded { return nil }
            deck.log(sent ?? live)
            deck.playCounts[index] += 1
            deck.index.setPlayed(index, true)
            deck.answered += 1
            // The track's parts are read where they are: a `Track` is a few hundred bytes to copy.
            let source = Answer.Source.track(index, recordedDuration: deck.index.tracks[index].duration)
            switch deck.index.tracks[index].outcome {
            case .response(let response):
                let head: ResponseHead
                if let cached = deck.heads[index] {
                    head = cached
                } else {
                    head = ResponseHead(response, requestURL: deck.index.tracks[index].request.url)
                    deck.heads[index] = head
                }
                // Values the strategy echoes from the live request (a JSON-RPC id) replace the recorded ones.
                if !deck.strategy.echoes.isEmpty,
                    let echoed = Self.echoing(deck.strategy.echoes, in: response, live: sent ?? live, recorded: deck.index.tracks[index].request)
                {
                    deck.echoed += 1
                    let echoedHead = ResponseHead(echoed, requestURL: deck.index.tracks[index].request.url)
                    return Answer(outcome: .success((echoedHead.response, echoed.body)), source: source, stream: echoed.stream, head: echoedHead)
                }
                return Answer(outcome: .success((head.response, response.body)), source: source, stream: response.stream, head: head)
            case .failure(let failure):
                return Answer(outcome: .failure(failure.makeError(for: live.url)), source: source)
            }
        }
    }

    /// `response` with each echo applied in turn; nil when none changed it.
    private static func echoing(_ echoes: [Echo], in response: Track.Response, live: Track.Request, recorded: Track.Request) -> Track.Response? {
        var result: Track.Response?
        for echo in echoes {
            if let echoed = echo.apply(to: result ?? response, live: live, recorded: recorded) { result = echoed }
        }
        return result
    }

    // MARK: NetworkSession

    /// The answer to `request`: from a stub, the vinyl, or the recorder, in that order.
    /// - Throws: ``TurntableError/noMatchingTrack(_:)`` when nothing answers; a recorded error as
    ///   the `URLError` it was.
    public nonisolated(nonsending) func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await answerTimed(try Track.Request(request))
    }

    /// A data task that, once resumed, calls `completionHandler` on the delegate queue with the
    /// answer to `request`, as `URLSession`'s does.
    public func dataTask(with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionDataTask {
        TaskCore(turntable: self, request: request, kind: .data, completion: .data(completionHandler)).makeTask(EngineDataTask.self)
    }
}

/// What a Turntable has played, recorded and missed: `turntable.playback`.
public struct Playback: Sendable, Equatable, CustomStringConvertible {
    /// The vinyl's name.
    var vinylName: String
    /// The vinyl's file, when it has one.
    public package(set) var file: URL?
    /// The record mode in force (`.never` for a Turntable that does not record).
    public package(set) var mode: RecordMode
    /// No vinyl file existed when the Turntable was made.
    public package(set) var isNew: Bool
    /// Nothing can be recorded onto this vinyl (no recording, mode `.never`, or `.once` with
    /// an existing file).
    public package(set) var isWriteProtected: Bool
    /// How often each track of the vinyl now on was played, by position (a `load` starts
    /// these afresh for the new vinyl).
    public package(set) var playCounts: [Int]
    /// Requests answered by replaying a track.
    public package(set) var requestsAnswered: Int
    /// Tracks recorded through the real network by this Turntable.
    public package(set) var recordedCount: Int
    /// Requests nothing answered (no stub, no track, not recorded).
    public package(set) var misses: Int
    /// The reports of those misses, oldest first (the first 100). A miss is thrown into the
    /// code under test, which may swallow it; test helpers read these when the test ends.
    public package(set) var missReports: [MissReport]
    /// Every request the Turntable was sent, in the order it took them, as the code under test
    /// sent them (before any redaction): those a stub answered, those a track answered, those
    /// recorded or passed to the network, and those that missed. A followed redirect adds the
    /// request to the new location. Assert what was sent with it:
    /// `#expect(turntable.playback.requests.map(\.method) == ["POST"])`.
    /// The first 10 000 are kept, across `load(vinyl:)` and changes of `matching`.
    public package(set) var requests: [Track.Request]
    /// Set when the vinyl is older than `Recording.reRecordAfter`: whether it is being
    /// recorded again, or replayed stale (on CI, or with `.never`).
    public package(set) var staleness: Staleness?
    /// Replayed answers that took values from the live request, as the matching strategy's
    /// echoes say (`MatchingStrategy.echoing(_:)`, `.jsonRPC`): their bodies differ from the
    /// vinyl's by those values.
    public var echoedCount = 0
    /// Replayed conversations whose code sent fewer messages than the recording has, by track
    /// position (`allTracksMustPlay` fails for them as for tracks never played).
    public package(set) var unfinishedConversations: [UnfinishedConversation] = []

    /// How many distinct tracks were played at least once.
    package var playedTrackCount: Int { playCounts.lazy.filter { $0 > 0 }.count }
    /// Positions of tracks never played.
    public var unplayedTracks: [Int] { playCounts.indices.filter { playCounts[$0] == 0 } }
    /// Whether every track was played at least once, and every conversation replayed up to
    /// its last recorded client message.
    public var allPlayed: Bool { !playCounts.contains(0) && unfinishedConversations.isEmpty }

    public var description: String {
        "vinyl \"\(vinylName)\": mode \(mode), \(isNew ? "new" : "existing")\(isWriteProtected ? ", write-protected" : ""), "
            + "\(requestsAnswered) answered from \(playedTrackCount) of \(playCounts.count) tracks, \(recordedCount) recorded, \(misses) missed"
            + (echoedCount > 0 ? ", \(echoedCount) echoing the live request" : "")
            + (unfinishedConversations.isEmpty ? "" : ", \(unfinishedConversations.count) conversation(s) replayed short of their recorded messages")
    }
}
