import Foundation

/// A recording Turntable's side of things: its configuration, the vinyl file it writes, and
/// what has been recorded but not yet written.
final class Recorder: Sendable {
    struct Ledger: Sendable {
        var recordedCount = 0
        /// Tracks were recorded since the last successful write.
        var pending = false
    }

    let recording: Recording
    let mode: RecordMode
    let file: URL
    /// No file existed when the Turntable was made.
    let isNew: Bool
    /// Tracks read from the file: those after them were recorded here, and are checked for secrets before writing.
    let loadedCount: Int
    let ledger = Locked(Ledger())
    /// Serialises writes so an older snapshot never renames over a newer one.
    private let writeGate = Locked(())

    init(recording: Recording, mode: RecordMode, file: URL, isNew: Bool, loadedCount: Int) {
        self.recording = recording
        self.mode = mode
        self.file = file
        self.isNew = isNew
        self.loadedCount = loadedCount
    }

    /// Whether a miss may go to the network and be recorded.
    var mayRecord: Bool {
        switch mode {
        case .none: return false
        case .once: return isNew
        case .newEpisodes, .all: return true
        }
    }

    /// Marks a recorded track as waiting to be written. Called after the track joined the deck,
    /// so a write that sees the mark also sees the track.
    func noteRecorded() {
        ledger.withLock { ledger in
            ledger.recordedCount += 1
            ledger.pending = true
        }
    }

    /// Writes `snapshot()` atomically when something was recorded since the last write, after
    /// checking the recorded tracks for what still looks like a secret (nothing is written then).
    /// On failure the tracks stay pending, so a later eject (or the release) tries again.
    func writeIfPending(_ snapshot: () -> Vinyl) throws {
        try writeGate.withLock { _ in
            // Clear before taking the snapshot: a track recorded meanwhile marks it again.
            let pending = ledger.withLock { ledger -> Bool in
                defer { ledger.pending = false }
                return ledger.pending
            }
            guard pending else { return }
            do {
                let vinyl = snapshot()
                try vinyl.checkForSecrets(inTracks: min(loadedCount, vinyl.tracks.count)..<vinyl.tracks.count, allowing: recording.allowedSecrets, file: file.path)
                try vinyl.write(to: file)
            } catch {
                ledger.withLock { $0.pending = true }
                throw error
            }
        }
    }
}

/// The state of a Turntable's vinyl as a cassette: new or not, writable or not, and what it did.
public struct CassetteState: Sendable, Equatable, CustomStringConvertible {
    /// The record mode in force.
    public var mode: RecordMode
    /// No vinyl file existed when the Turntable was made.
    public var isNew: Bool
    /// Nothing can be recorded onto this vinyl (mode `none`, or `once` with an existing file).
    public var isWriteProtected: Bool
    /// Requests answered by replaying a recorded track.
    public var playedCount: Int
    /// Tracks recorded through the real session by this Turntable.
    public var recordedCount: Int
    /// The vinyl file, when there is one.
    public var file: URL?

    public var description: String {
        "mode \(mode), \(isNew ? "new" : "existing")\(isWriteProtected ? ", write-protected" : ""), \(playedCount) played, \(recordedCount) recorded"
    }
}
