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
/// let user = try await client.user(42)   // answered from Vinyls/users.json
/// ```
///
/// A request no track matches throws `TurntableError.noMatchingTrack`, whose description
/// shows the nearest track and what differs. A Turntable is safe to use from many tasks at
/// once; the lookup takes one lock and no actor hop.
public final class Turntable: NetworkSession, Sendable {
    struct Deck: Sendable {
        var vinyl: Vinyl
        var file: URL?
        var strategy: MatchingStrategy
        var index: TrackIndex
        var playCounts: [Int]
        var played: [Bool]
        var nextInOrder = 0
        var misses = 0
        /// The first misses thrown to the caller (see Turntable+Misses.swift).
        var missLog: [MissReport] = []
        var answered = 0
        /// `HTTPURLResponse`s are immutable and costly to build (~5 µs): one per track, made on first use.
        var responses: [HTTPURLResponse?]

        init(vinyl: Vinyl, file: URL?, strategy: MatchingStrategy) {
            self.vinyl = vinyl
            self.file = file
            self.strategy = strategy
            index = TrackIndex(tracks: vinyl.tracks, matchers: strategy.matchers)
            playCounts = Array(repeating: 0, count: vinyl.tracks.count)
            played = Array(repeating: false, count: vinyl.tracks.count)
            responses = Array(repeating: nil, count: vinyl.tracks.count)
        }
    }

    let deck: Locked<Deck>
    /// Stubs written in code, answered before the vinyl (Turntable+Stubs.swift).
    let stubs = StubRegistry()

    /// Delegate, queue, timing and the URLProtocol class (Session/SessionSettings.swift).
    let settings = Locked(SessionSettings())

    /// Records missing tracks and writes the vinyl; nil for a replay-only Turntable.
    let recorder: Recorder?

    /// A Turntable playing `vinyl`.
    /// - Parameter file: where the vinyl came from, named in miss reports.
    public init(vinyl: Vinyl, matching: MatchingStrategy = .default, file: URL? = nil) {
        deck = Locked(Deck(vinyl: vinyl, file: file, strategy: matching))
        recorder = nil
    }

    /// A recording Turntable (see Recording/Turntable+Recording.swift).
    init(vinyl: Vinyl, matching: MatchingStrategy, file: URL, recorder: Recorder) {
        deck = Locked(Deck(vinyl: vinyl, file: file, strategy: matching))
        self.recorder = recorder
    }

    deinit {
        // Recorded tracks are written when the Turntable goes, even without an explicit eject.
        if recorder != nil { ejectOnRelease() }
    }

    /// A Turntable playing the vinyl file `name` (`.json` added) from `folder`.
    public convenience init(vinylNamed name: String, in folder: URL = VinylLocation.defaultFolder, matching: MatchingStrategy = .default) throws {
        let file = try VinylLocation.file(for: name, in: folder)
        self.init(vinyl: try Vinyl(contentsOf: file), matching: matching, file: file)
    }

    /// A Turntable playing a vinyl shipped as a resource of `bundle` (e.g. a test target's
    /// `Bundle.module`), looked up at the bundle's top level and in its `Vinyls` folder.
    public convenience init(vinylNamed name: String, bundle: Bundle, matching: MatchingStrategy = .default) throws {
        let file = try Self.resource(named: name, in: bundle)
        self.init(vinyl: try Vinyl(contentsOf: file), matching: matching, file: file)
    }

    /// A Turntable playing a DVR cassette from `folder`.
    public convenience init(cassetteNamed name: String, in folder: URL = VinylLocation.defaultFolder, matching: MatchingStrategy = .default) throws {
        let file = try VinylLocation.file(for: name, in: folder)
        self.init(vinyl: try Vinyl(contentsOf: file, format: .dvr), matching: matching, file: file)
    }

    static func resource(named name: String, in bundle: Bundle) throws -> URL {
        try VinylLocation.validate(name)
        let relative = try VinylLocation.file(for: name, in: URL(fileURLWithPath: "/")).path.dropFirst()
        let folder = (relative as NSString).deletingLastPathComponent
        let file = (relative as NSString).lastPathComponent
        let base = (file as NSString).deletingPathExtension
        let ext = (file as NSString).pathExtension
        var tried: [String] = []
        // SwiftPM's `.copy("Vinyls")` keeps the folder, `.process` flattens it: look in both.
        for prefix in ["", "Vinyls", "Resources", "Resources/Vinyls"] {
            let subdirectory = [prefix, folder].filter { !$0.isEmpty }.joined(separator: "/")
            if let url = bundle.url(forResource: base, withExtension: ext, subdirectory: subdirectory.isEmpty ? nil : subdirectory) {
                return url
            }
            tried.append(subdirectory.isEmpty ? file : subdirectory + "/" + file)
        }
        throw VinylError(.notFound, file: bundle.bundleURL.appendingPathComponent(tried[0]).path,
                         problem: "no vinyl named \"\(name)\" in the bundle \(bundle.bundleURL.lastPathComponent) (looked for \(tried.joined(separator: ", ")))",
                         fix: "Add the vinyls to the test target's resources (resources: [.copy(\"Vinyls\")]) or record them")
    }

    // MARK: Changing the vinyl

    /// Puts another vinyl on, forgetting what was played: reuse one Turntable across tests.
    public func load(vinyl: Vinyl, file: URL? = nil) {
        deck.withLock { deck in deck = Deck(vinyl: vinyl, file: file, strategy: deck.strategy) }
    }

    /// Loads the vinyl file `name` from `folder`.
    public func load(vinylNamed name: String, in folder: URL = VinylLocation.defaultFolder) throws {
        let file = try VinylLocation.file(for: name, in: folder)
        load(vinyl: try Vinyl(contentsOf: file), file: file)
    }

    /// The vinyl now on the Turntable.
    public var vinyl: Vinyl { deck.withLock { $0.vinyl } }

    /// How tracks are chosen. Changing it re-indexes the tracks and forgets what was played.
    public var matching: MatchingStrategy {
        get { deck.withLock { $0.strategy } }
        set { deck.withLock { deck in deck = Deck(vinyl: deck.vinyl, file: deck.file, strategy: newValue) } }
    }

    // MARK: Playback state

    /// What has been played so far.
    public var playback: Playback {
        deck.withLock { deck in
            Playback(vinylName: deck.vinyl.name, playCounts: deck.playCounts, requestsAnswered: deck.answered, misses: deck.misses)
        }
    }

    // MARK: Answering

    /// What a request is answered with.
    struct Answer: Sendable {
        var outcome: Result<(HTTPURLResponse, Data), any Error>
        var trackIndex: Int?
        var duration: TimeInterval?
    }

    /// Finds the track for `live` and marks it played; the one place matching happens.
    ///
    /// - Parameter explainingMisses: whether a miss searches every track for the nearest one
    ///   (a scan of the whole vinyl). Callers that will not show the miss, such as a recorder
    ///   about to record it, pass false so recording stays flat in vinyl size.
    func play(_ live: Track.Request, explainingMisses: Bool = true) -> Answer {
        let liveParts = RequestParts(live)
        return deck.withLock { deck -> Answer in
            guard let index = Self.select(live, liveParts, in: &deck) else {
                deck.misses += 1
                let report = explainingMisses ? Self.missReport(for: live, deck: deck)
                    : MissReport(request: live, vinylName: deck.vinyl.name, vinylPath: deck.file?.path, strategy: deck.strategy.description, differences: [])
                return Answer(outcome: .failure(TurntableError.noMatchingTrack(report)), trackIndex: nil, duration: nil)
            }
            deck.playCounts[index] += 1
            deck.played[index] = true
            deck.answered += 1
            let track = deck.index.tracks[index]
            switch track.outcome {
            case .response(let response):
                let httpResponse: HTTPURLResponse
                if let cached = deck.responses[index] {
                    httpResponse = cached
                } else {
                    httpResponse = response.httpURLResponse(for: track.request.url)
                    deck.responses[index] = httpResponse
                }
                return Answer(outcome: .success((httpResponse, response.body)), trackIndex: index, duration: track.duration)
            case .failure(let failure):
                return Answer(outcome: .failure(failure.makeError(for: live.url)), trackIndex: index, duration: track.duration)
            }
        }
    }

    private static func select(_ live: Track.Request, _ liveParts: RequestParts, in deck: inout Deck) -> Int? {
        switch deck.strategy.mode {
        case .attributes(_, let playOnce):
            return deck.index.firstMatch(for: live, parts: liveParts, played: playOnce ? deck.played : nil)
        case .trackOrder(let checking):
            let position = deck.nextInOrder
            guard position < deck.index.tracks.count else { return nil }
            let recorded = deck.index.tracks[position].request
            guard checking.allSatisfy({ $0.matches(live: live, liveParts: liveParts, recorded: recorded, recordedParts: deck.index.parts[position]) }) else { return nil }
            deck.nextInOrder += 1
            return position
        }
    }

    private static func missReport(for live: Track.Request, deck: Deck) -> MissReport {
        var report = MissReport(request: live, vinylName: deck.vinyl.name, vinylPath: deck.file?.path, strategy: deck.strategy.description, differences: [])
        switch deck.strategy.mode {
        case .trackOrder(let checking):
            let position = deck.nextInOrder
            if position >= deck.index.tracks.count {
                report.note = "all \(deck.index.tracks.count) tracks have been played in order; this is request #\(position + 1)"
                return report
            }
            report.nearestTrackIndex = position
            report.nearestRequest = deck.index.tracks[position].request
            let liveParts = RequestParts(live)
            report.differences = checking.compactMap { $0.difference(live: live, liveParts: liveParts, recorded: deck.index.tracks[position].request, recordedParts: deck.index.parts[position]) }
            return report
        case .attributes(let matchers, let playOnce):
            if let (index, differences) = MissReport.nearest(to: live, in: deck.index.tracks, parts: deck.index.parts, matchers: matchers) {
                report.nearestTrackIndex = index
                report.nearestRequest = deck.index.tracks[index].request
                report.differences = differences
                if differences.isEmpty && playOnce && deck.played[index] {
                    report.note = "track #\(index) matches but has already been played, and each track plays once"
                }
            }
            return report
        }
    }

    /// Answers `live`: the async entry point every API style funnels into.
    func answer(_ live: Track.Request) async -> Answer {
        // Stubs answer first, then the vinyl, then (when recording) the real session.
        if let stubbed = await stubs.turntableAnswer(live) { return stubbed }
        let answer = if let recorder { await answer(live, recordingWith: recorder) } else { playRedactedOnMiss(live) }
        logIfMissed(answer)
        return answer
    }

    // MARK: NetworkSession

    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await answerTimed(try Track.Request(request))
    }

    public func data(from url: URL) async throws -> (Data, URLResponse) {
        try await data(for: URLRequest(url: url))
    }

    public func dataTask(with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionDataTask {
        TurntableDataTask(core: TaskCore(turntable: self, request: request, kind: .data, completion: .data(completionHandler)))
    }
}

/// What a Turntable has played.
public struct Playback: Sendable, Equatable {
    public var vinylName: String
    /// How often each track was played, by position in the vinyl.
    public var playCounts: [Int]
    /// Requests answered from a track.
    public var requestsAnswered: Int
    /// Requests no track matched.
    public var misses: Int

    /// How many distinct tracks were played at least once.
    public var playedCount: Int { playCounts.lazy.filter { $0 > 0 }.count }
    /// Positions of tracks never played.
    public var unplayedTracks: [Int] { playCounts.indices.filter { playCounts[$0] == 0 } }
    /// Whether every track was played at least once.
    public var allPlayed: Bool { !playCounts.contains(0) }
}
