import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A recording Turntable's side of things: its configuration, the vinyl file it writes, and
/// what has been recorded but not yet written.
final class Recorder: Sendable {
    struct Ledger: Sendable {
        var recordedCount = 0
        /// Tracks were recorded since the last successful write.
        var pending = false
        /// Tracks recorded, and the places the redaction changed in them, since the last report.
        var unreported = 0
        var redacted = RedactedPlaces()
        /// Headers rewritten to describe the stored body (see `Recording.keepsContentEncoding`).
        var rewritten = RedactedPlaces()
    }

    let recording: Recording
    let mode: RecordMode
    let file: URL
    /// No file existed when the Turntable was made.
    let isNew: Bool
    /// Tracks read from the file: those after them were recorded here, and are checked for secrets before writing.
    let loadedCount: Int
    /// Set when the vinyl was older than `Recording.reRecordAfter`.
    let staleness: Staleness?
    let ledger = Locked(Ledger())
    /// Serialises writes so an older snapshot never renames over a newer one.
    private let writeGate = Locked(())

    /// The session that reaches the real network.
    let session: any NetworkSession
    #if AsyncHTTPClient
    /// The client that reaches the real network for requests that came in through AsyncHTTPClient.
    let httpClient: RecordingHTTPClient
    #endif

    init(recording: Recording, mode: RecordMode, file: URL, isNew: Bool, loadedCount: Int, staleness: Staleness? = nil) {
        self.recording = recording
        session = recording.session ?? DeferredSession()
        #if AsyncHTTPClient
        httpClient = RecordingHTTPClient(recording.httpClient)
        #endif
        self.mode = mode
        self.file = file
        self.isNew = isNew
        self.loadedCount = loadedCount
        self.staleness = staleness
    }

    /// Whether a miss may go to the network and be recorded.
    var mayRecord: Bool {
        switch mode {
        case .never: return false
        case .once: return isNew
        case .newEpisodes, .all: return true
        }
    }

    /// Why a miss was not recorded, for its report; nil when the mode says nothing useful.
    var whyNotRecorded: String? {
        guard !mayRecord, mode == .once else { return nil }
        return "the record mode is once and the vinyl file exists, so it is write-protected; use new_episodes to add to it, or delete the file to record it again"
    }

    /// Sends the unredacted request for real; the duration is wall-clock seconds.
    func send(_ live: Track.Request) async -> (answer: Answer, duration: TimeInterval) {
        let start = ProcessInfo.processInfo.systemUptime
        let outcome: Result<(HTTPURLResponse, Data), any Error>
        do {
            let (body, response) = try await session.data(for: live.urlRequest)
            if let http = response as? HTTPURLResponse {
                outcome = .success((http, body))
            } else {
                outcome = .failure(RecordingError.notHTTP(live.url))
            }
        } catch {
            outcome = .failure(error)
        }
        return (Answer(outcome: outcome, source: .network), ProcessInfo.processInfo.systemUptime - start)
    }

    /// Marks a recorded track as waiting to be written, noting what the redaction changed in it
    /// (`original` as received, `redacted` as it will be written). Called after the track joined
    /// the deck, so a write that sees the mark also sees the track.
    /// `rewritten`: the places rewritten before the redaction, so the stored headers describe the stored body.
    func noteRecorded(_ original: Track, as redacted: Track, rewritten: [String] = []) {
        // Compared outside the lock, and only when recording: never on the replay path.
        let places = RedactedPlaces.places(from: original, to: redacted)
        ledger.withLock { ledger in
            ledger.recordedCount += 1
            ledger.pending = true
            ledger.unreported += 1
            ledger.redacted.add(places)
            ledger.rewritten.add(rewritten)
        }
    }

    /// Writes `snapshot()` atomically when something was recorded since the last write, after
    /// checking the recorded tracks for what still looks like a secret (nothing is written then).
    /// On failure the tracks stay pending, so a later eject (or the release) tries again.
    /// Returns what this write added (nil when there was nothing to write), printed on stderr
    /// unless the recording is quiet.
    func writeIfPending(_ snapshot: () -> Vinyl) throws -> RecordingReport? {
        try writeGate.withLock { _ in
            // Clear before taking the snapshot: a track recorded meanwhile marks it again.
            let pending = ledger.withLock { ledger -> Bool in
                defer { ledger.pending = false }
                return ledger.pending
            }
            guard pending else { return nil }
            let vinyl = snapshot()
            do {
                try vinyl.checkForSecrets(inTracks: min(loadedCount, vinyl.tracks.count)..<vinyl.tracks.count, allowing: recording.allowedSecrets, file: file.path)
                try vinyl.write(to: file)
            } catch {
                ledger.withLock { $0.pending = true }
                throw error
            }
            // What was noted up to now is in this write (a track is noted after it joined the deck).
            let (added, redacted, rewritten) = ledger.withLock { ledger in
                defer { (ledger.unreported, ledger.redacted, ledger.rewritten) = (0, RedactedPlaces(), RedactedPlaces()) }
                return (ledger.unreported, ledger.redacted, ledger.rewritten)
            }
            var report = RecordingReport(file: file, tracksAdded: added, trackCount: vinyl.tracks.count, redacted: redacted.counted)
            report.rewritten = rewritten.counted
            if !recording.isQuiet { recording.reportOutput(report.description) }
            return report
        }
    }
}
