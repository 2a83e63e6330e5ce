import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A recording Turntable's side of things: its configuration, the vinyl file it writes, and
/// what has been recorded but not yet written.
final class Recorder: Sendable {
    struct Ledger: Sendable {
        var recordedCount = 0
        /// Tracks recorded and not yet written, as they will be written (redacted), in the
        /// order they were recorded.
        var unwritten: [Track] = []
        /// Tracks recorded, and the places the redaction changed in them, since the last report.
        var unreported = 0
        var redacted = RedactedPlaces()
        /// Headers rewritten to describe the stored body (see `Recording.keepsContentEncoding`).
        var rewritten = RedactedPlaces()
        /// WebSocket conversations being recorded, by task: each stops its recording when
        /// called (an eject while they are open), keeping what it has.
        var openConversations: [ObjectIdentifier: @Sendable () -> Void] = [:]
        /// Conversations an eject stopped since the last report.
        var stoppedAtEject = 0

        /// What `field` holds, leaving `empty` in its place.
        mutating func take<Value>(_ field: WritableKeyPath<Self, Value>, leaving empty: Value) -> Value {
            defer { self[keyPath: field] = empty }
            return self[keyPath: field]
        }
    }

    /// What the saves of this recorder know of the file, kept between saves.
    struct SaveState: Sendable {
        /// The file's tracks as this recorder last read or wrote them: tracks on disk beyond
        /// these at the next save were written by another writer, and are merged.
        var known: [Track]
        /// With `.all`: the tracks the file held when this recorder opened it, which it
        /// replaces (unless recorded in this process's run; see `runStart`).
        var replaceable: [Track]
        /// The tracks this recorder wrote, as a reader decodes them: one missing from the
        /// file at the next save (the file was deleted or edited meanwhile) is written again.
        var written: [Track] = []
        /// Tracks this recorder wrote, as they were before encoding, with the format and name
        /// of the save that wrote them: turned into `written` (as a reader decodes them) only
        /// when a save finds the file changed by another writer.
        var writtenUnread: [LastWrite] = []
        /// The file as this recorder last wrote it. While the file holds these very bytes, its
        /// tracks are these, all known, and nothing is decoded; `known` and `written` are
        /// brought up to date (decoded) only when a save finds other bytes.
        var lastWrite: LastWrite?

        /// Bytes, format and name of one save, and the tracks they were encoded from (or, with
        /// `isRead`, the file as the Turntable loaded it and the tracks decoded from it).
        struct LastWrite: Sendable {
            var data = Data()
            var format: VinylFormat
            var name: String
            var tracks: [Track]
            /// `tracks` are what a reader decodes from `data`: nothing to decode again.
            var isRead = false
        }

        /// Makes `known` and `written` what a reader of the last write decodes, as the merge
        /// with another writer's file compares them (tracks equal as decoded, not as encoded).
        mutating func readBack(file: URL) {
            if let last = lastWrite {
                known = last.isRead ? last.tracks : (try? Vinyl(data: last.data, name: last.name, format: last.format, file: file.path))?.tracks ?? last.tracks
                lastWrite = nil
            }
            for batch in writtenUnread {
                let asRead = try? Vinyl(data: Vinyl(name: batch.name, tracks: batch.tracks).encoded(as: batch.format), name: batch.name, format: batch.format)
                written += asRead?.tracks ?? batch.tracks
            }
            writtenUnread = []
        }
    }

    let recording: Recording
    let mode: RecordMode
    let file: URL
    /// The vinyl's name as the Turntable was asked for it (`RESTClientTest/missingItem`).
    let vinylName: String
    /// No file existed when the Turntable was made.
    let isNew: Bool
    /// A `.once` Turntable of a vinyl that another case of the same parameterized test
    /// started (`Recording.runKey`): it records into it as well.
    let startedInThisRun: Bool
    /// For a new vinyl, the nearest names of the existing vinyls in its folder, nearest first.
    let nearestNames: [String]
    /// When this recording began: with `.all`, tracks recorded since then (by this Turntable
    /// or, concurrently, by another writer) are this run's, never replaced. With a
    /// `Recording.runKey`, when the first Turntable of that key began recording the file.
    let runStart: Date
    /// This recording run of the file: Turntables sharing a `Recording.runKey` share it. Made
    /// once: standardising the path was a tenth of recording a small exchange.
    let runName: String
    /// Set when the vinyl was older than `Recording.reRecordAfter`.
    let staleness: Staleness?
    let ledger = Locked(Ledger())
    /// Serialises this recorder's saves, and holds what they know of the file.
    private let saves: Locked<SaveState>
    /// Tracks of the played vinyl still to be copied into a distinct destination
    /// (`Recording.destination`), and the file they were played from; written with the first save.
    private let copied: Locked<(tracks: [Track], from: URL)?>
    /// Why this recorder may not record (a bundle's vinyl whose source folder is missing):
    /// misses are not recorded and say so, and a write asked for throws it.
    let refusal: VinylError?

    /// The session that reaches the real network.
    let session: any NetworkSession
    #if AsyncHTTPClient
    /// The client that reaches the real network for requests that came in through AsyncHTTPClient.
    let httpClient: RecordingHTTPClient
    #endif

    /// - Parameters:
    ///   - loaded: the tracks the file held when the Turntable was made (also with `.all`,
    ///     which does not play them).
    ///   - loadedFrom: the bytes `loaded` were decoded from (`Recorder.read`), with their format
    ///     and name: the first save finds the file unchanged by comparing bytes, not decoding it.
    ///   - copied: tracks played from another file to write into `file` with the first save.
    ///   - refusal: why nothing may be recorded, when that is so.
    init(
        recording: Recording, mode: RecordMode, file: URL, vinylName: String, isNew: Bool, loaded: [Track],
        loadedFrom: (data: Data, format: VinylFormat, name: String)? = nil, staleness: Staleness? = nil,
        copied: (tracks: [Track], from: URL)? = nil, refusal: VinylError? = nil
    ) {
        self.recording = recording
        self.copied = Locked(copied)
        self.refusal = refusal
        session = recording.session ?? DeferredSession()
        #if AsyncHTTPClient
        httpClient = RecordingHTTPClient(recording.httpClient)
        #endif
        self.mode = mode
        self.file = file
        self.vinylName = vinylName
        self.isNew = isNew
        self.staleness = staleness
        let run = Self.run(of: file, key: recording.runKey, starts: isNew || mode == .all)
        startedInThisRun = run.startedHere
        runStart = run.start
        runName = file.standardizedFileURL.path + "\u{0}" + String(run.start.timeIntervalSinceReferenceDate)
        nearestNames = isNew ? VinylNames.nearest(to: vinylName, besides: file) : []
        var state = SaveState(known: loaded, replaceable: mode == .all ? loaded : [])
        if let loadedFrom, mode != .all {
            state.lastWrite = SaveState.LastWrite(data: loadedFrom.data, format: loadedFrom.format, name: loadedFrom.name, tracks: loaded, isRead: true)
        }
        saves = Locked(state)
    }

    /// The vinyl at `file` and the bytes it was decoded from, read as `Vinyl(contentsOf:)`
    /// reads it, with its errors: what a recording Turntable loads, so its first save can tell
    /// the file unchanged from its bytes.
    static func read(_ file: URL) throws -> (vinyl: Vinyl, data: Data) {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            _ = try Vinyl(contentsOf: file)  // the error it gives for a file it cannot read
            throw error
        }
        let format = try VinylFormat.byExtension(file.pathExtension, file: file.path)
        return (try Vinyl(data: data, name: file.deletingPathExtension().lastPathComponent, format: format, file: file.path), data)
    }

    /// Files the Turntables of a run (`Recording.runKey`) started (a new vinyl, or a
    /// re-recording), and when.
    private static let runs = Locked([String: Date]())

    /// When this recording of `file` began: with a run key, when the run's first Turntable
    /// began it (registering now when `starts`), and whether one had begun it before.
    private static func run(of file: URL, key runKey: String?, starts: Bool) -> (start: Date, startedHere: Bool) {
        // A few milliseconds early: dates are written to the millisecond.
        let now = Date(timeIntervalSinceNow: -0.005)
        guard let runKey else { return (now, false) }
        let key = runKey + "\u{0}" + file.standardizedFileURL.path
        return runs.withLock { runs in
            if let start = runs[key] { return (start, true) }
            if starts { runs[key] = now }
            return (now, false)
        }
    }

    /// Whether a miss may go to the network and be recorded.
    var mayRecord: Bool {
        guard refusal == nil else { return false }
        switch mode {
        case .never: return false
        case .once: return isNew || startedInThisRun
        case .newEpisodes, .all: return true
        }
    }

    /// Why a miss was not recorded, for its report; nil when the mode says nothing useful.
    var whyNotRecorded: String? {
        if let refusal, mode != .never, mode != .once || isNew {
            return "it would be recorded, but \(refusal.problem). \(refusal.fix)"
        }
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

    /// The answer of a request sent live to be recorded, its failure (if any) wrapped in a
    /// `LiveRequestError` saying which vinyl sent it live and why. A cancellation stays as it is:
    /// the caller asked for it.
    func explainingFailure(of answer: Answer, for live: Track.Request) -> Answer {
        guard case .failure(let error) = answer.outcome, !LiveRequestError.isCancellation(error) else { return answer }
        // A refusal to record is not a network failure: it explains itself.
        if case .differsOnlyInRedactedValues = error as? RecordingError { return answer }
        var explained = answer
        explained.outcome = .failure(
            LiveRequestError(
                request: recording.redaction.redact(live, allowing: recording.allowedSecrets), vinylName: vinylName, file: file, mode: mode, isNewVinyl: isNew, nearestVinylNames: nearestNames,
                underlyingError: error))
        return explained
    }

    /// Marks a recorded track as waiting to be written, noting what the redaction changed in it
    /// (`original` as received, `redacted` as it will be written). Called after the track joined
    /// the deck. `rewritten`: the places rewritten before the redaction, so the stored headers
    /// describe the stored body.
    func noteRecorded(_ original: Track, as redacted: Track, rewritten: [String] = []) {
        // Compared outside the lock, and only when recording: never on the replay path.
        let places = RedactedPlaces.places(from: original, to: redacted)
        ledger.withLock { ledger in
            ledger.recordedCount += 1
            ledger.unwritten.append(redacted)
            ledger.unreported += 1
            ledger.redacted.add(places)
            ledger.rewritten.add(rewritten)
        }
        guard recording.writesEachTrack else { return }
        do {
            _ = try writeIfPending()
        } catch {
            // Nowhere to throw: the app's log shows it, where the UI test's output does.
            FileHandle.standardError.write(Data("Gramophone: the vinyl recorded for the UI test could not be written: \(error)\n".utf8))
        }
    }

    /// Stops recording the WebSocket conversations still open, so the eject about to write
    /// keeps them as recorded so far; their connections stay open, no longer recorded.
    func stopOpenConversations() {
        for stop in ledger.withLock({ $0.take(\.openConversations, leaving: [:]) }).values { stop() }
    }

    /// Forgets the tracks recorded and not yet written; returns how many.
    func discardUnwritten() -> Int {
        ledger.withLock { $0.take(\.unwritten, leaving: []).count }
    }

    /// Saves what was recorded since the last save, merged with what the file holds at this
    /// moment, under the vinyl's lock (`VinylLock`), after checking the tracks recorded here for
    /// what still looks like a secret (nothing is written then). On failure the tracks stay
    /// pending, so a later eject (or the release) tries again. Returns what this save did (nil
    /// when there was nothing to save), printed on stderr unless the recording is quiet.
    /// `evenIfUnchanged` saves with nothing recorded too (`eject(evenIfUnchanged:)`).
    func writeIfPending(evenIfUnchanged: Bool = false) throws -> RecordingReport? {
        try saves.withLock { state in
            let recorded = ledger.withLock { $0.take(\.unwritten, leaving: []) }
            guard !recorded.isEmpty || evenIfUnchanged else { return nil }
            // A distinct destination gets the played tracks with its first write.
            let copy = copied.withLock { $0 }
            var report: RecordingReport
            do {
                if let refusal { throw refusal }
                report = try VinylLock.withLock(on: file) { try save((copy?.tracks ?? []) + recorded, state: &state) }
            } catch {
                // Put back ahead of what was recorded meanwhile.
                ledger.withLock { $0.unwritten = recorded + $0.unwritten }
                throw error
            }
            copied.withLock { $0 = nil }
            if let copy {
                report.copiedFrom = copy.from
                report.copiedCount = copy.tracks.count
            }
            let (redacted, rewritten, stoppedAtEject) = ledger.withLock { ledger in
                defer { (ledger.unreported, ledger.redacted, ledger.rewritten, ledger.stoppedAtEject) = (0, RedactedPlaces(), RedactedPlaces(), 0) }
                return (ledger.redacted, ledger.rewritten, ledger.stoppedAtEject)
            }
            report.redacted = redacted.counted
            report.rewritten = rewritten.counted
            report.conversationsStoppedAtEject = stoppedAtEject
            if !recording.isQuiet { recording.reportOutput(report.description) }
            return report
        }
    }

    /// Reads the file as it is now, merges `mine` into it and writes it; under the lock.
    ///
    /// The merge, by mode:
    /// - every mode keeps the tracks other writers added since this recorder last read or wrote
    ///   the file (they are counted as merged), and a track recorded here whose request another
    ///   writer already recorded meanwhile is not added again (counted as already recorded);
    /// - `.all` (and a stale vinyl re-recorded) drops the tracks the file held when this
    ///   recorder opened it, and older tracks of a request it recorded again: what it replaces.
    ///   Tracks recorded since this process began re-recording the file are kept, whoever
    ///   wrote them, so parallel cases re-recording one vinyl keep each other's tracks.
    /// Returns what it did as the report says it, but for what the ledger knows (the redactions).
    private func save(_ mine: [Track], state: inout SaveState) throws -> RecordingReport {
        let (disk, format, unchanged) = try readForMerge(lastWrite: state.lastWrite)
        // Another writer changed the file since this recorder wrote it: compare as decoded.
        if !unchanged { state.readBack(file: file) }
        // Unchanged, the file holds only known tracks: unless some are replaced (`.all`), all
        // are kept as they are, with no track hashed to find it known.
        let keepsAll = unchanged && mode != .all
        var known = Multiset(unchanged ? [] : state.known)
        var replaceable = Multiset(state.replaceable)
        let recordedRequests = Set(mine.map(\.request))
        var kept: [Track] = keepsAll ? disk?.tracks ?? [] : []
        var foreign: [Track] = []
        var replaced = 0
        for track in keepsAll ? [] : disk?.tracks ?? [] {
            let isKnown = unchanged || known.remove(track)
            if mode == .all, !(track.recordedAt.map { $0 >= runStart } ?? false),
                replaceable.remove(track) || recordedRequests.contains(track.request)
            {
                replaced += 1
                continue
            }
            kept.append(track)
            if !isKnown { foreign.append(track) }
        }
        // What this recorder wrote before and the file no longer holds is written again. The
        // file unchanged since this recorder wrote it holds all of that.
        var onDisk = Multiset(unchanged ? [] : disk?.tracks ?? [])
        let restored = unchanged ? [] : state.written.filter { !onDisk.remove($0) }
        kept += restored
        var foreignRequests = Multiset(foreign.map(\.request))
        var added: [Track] = []
        for track in mine {
            if !foreignRequests.remove(track.request) { added.append(track) }
        }
        var vinyl = Vinyl(name: disk?.name ?? file.deletingPathExtension().lastPathComponent, tracks: kept + added)
        try vinyl.checkForSecrets(inTracks: kept.count..<vinyl.tracks.count, allowing: recording.allowedSecrets, file: file.path)
        // Concurrent recordings in a stable order, not the order they completed in (TrackOrder),
        // so re-recording an unchanged API leaves the file as it was but for the dates.
        let order = TrackOrder.order(of: vinyl.tracks)
        vinyl.tracks = order.map { vinyl.tracks[$0] }

        // The file keeps its own format where that format can hold the tracks.
        var written = format
        var original: URL?
        if !format.isWritable || !format.canHold(vinyl) {
            written = .gramophone
            if disk != nil { original = try keepOriginal(as: format) }
        }
        let data: Data
        do {
            // Only added to a file that holds what this recorder knows: its bytes are kept, and
            // the added tracks written after them, not all of the file's tracks encoded again.
            let appends = keepsAll && written == .gramophone && format == .gramophone && order.prefix(kept.count).elementsEqual(kept.indices)
            data = try (appends ? state.lastWrite.flatMap { try Self.appending(vinyl.tracks[kept.count...], name: vinyl.name, to: $0.data) } : nil) ?? vinyl.encoded(as: written)
        } catch var error as VinylError {
            error.file = error.file ?? file.path
            throw error
        }
        try AtomicFile.write(data, to: file)
        // What the file now holds: decoded (as a reader, the next save, would) only if another
        // writer changes it before this recorder's next save (`SaveState.readBack`).
        state.lastWrite = SaveState.LastWrite(data: data, format: written, name: vinyl.name, tracks: vinyl.tracks)
        state.replaceable = replaceable.elements
        if !added.isEmpty { state.writtenUnread.append(SaveState.LastWrite(format: written, name: vinyl.name, tracks: added)) }
        var report = RecordingReport(file: file, tracksAdded: added.count, trackCount: vinyl.tracks.count, redacted: [])
        report.mergedCount = foreign.count
        report.alreadyRecorded = mine.count - added.count
        report.replacedCount = replaced
        report.restoredCount = restored.count
        report.format = written
        report.convertedFrom = written == format ? nil : format
        report.original = original
        return report
    }

    /// `file` (a Gramophone vinyl's bytes) with `added` after its tracks, written as encoding
    /// them with the file's tracks would write them; nil when `file` does not end with its
    /// tracks as that encoding does (another layout, a member after the tracks).
    private static func appending(_ added: ArraySlice<Track>, name: String, to file: Data) throws -> Data? {
        let addedFile = try Vinyl(name: name, tracks: Array(added)).encoded(as: .gramophone)
        let tail = Array("\n  ]\n}\n".utf8)
        guard let open = addedFile.range(of: Data(#""tracks": ["#.utf8))?.upperBound, file.count > open + tail.count,
            file.prefix(open).elementsEqual(addedFile.prefix(open)), file.suffix(tail.count).elementsEqual(tail),
            file.withUnsafeBytes({ holdsWholeValues(UnsafeRawBufferPointer(rebasing: $0[open..<($0.count - tail.count)])) })
        else { return nil }
        var data = Data(file.prefix(file.count - tail.count))
        data.append(UInt8(ascii: ","))
        data.append(addedFile[open...])
        return data
    }

    /// Whether `bytes` are whole JSON values and separators (brackets balanced outside strings):
    /// the `]` after them closes the tracks' `[` before them, and nothing follows the tracks.
    private static func holdsWholeValues(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var (depth, inString, escaped) = (0, false, false)
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth < 0 { return false }
            default: break
            }
        }
        return depth == 0 && !inString
    }

    /// The vinyl on disk now and its format; nil (and the format the extension says) when
    /// there is no file. An unreadable file is an error, except with `.all`, which replaces it.
    /// `unchanged`: the file holds the bytes of `lastWrite`, whose tracks are returned undecoded.
    private func readForMerge(lastWrite: SaveState.LastWrite?) throws -> (vinyl: Vinyl?, format: VinylFormat, unchanged: Bool) {
        let byExtension = (try? VinylFormat.byExtension(file.pathExtension, file: file.path)) ?? nil
        guard FileManager.default.fileExists(atPath: file.path) else { return (nil, byExtension ?? .gramophone, false) }
        do {
            let data = try Data(contentsOf: file)
            if let lastWrite, data == lastWrite.data {
                return (Vinyl(name: lastWrite.name, tracks: lastWrite.tracks), lastWrite.format, true)
            }
            let vinyl: Vinyl
            do {
                // One parse: decoding settles the format as detecting it would.
                let byExtension = try VinylFormat.byExtension(file.pathExtension, file: file.path)
                vinyl = try Vinyl(data: data, name: file.deletingPathExtension().lastPathComponent, format: byExtension, file: file.path)
            } catch {
                // Content that is no vinyl at all gets the error detecting its format gives.
                _ = try VinylFormat.detect(data: data, fileExtension: file.pathExtension, file: file.path)
                throw error
            }
            return (vinyl, vinyl.format ?? .gramophone, false)
        } catch {
            if mode == .all { return (nil, byExtension ?? .gramophone, false) }
            if let error = error as? VinylError { throw error }
            throw VinylError(
                .unreadable, file: file.path, problem: "could not read the vinyl to merge the recorded tracks into it (\((error as NSError).localizedDescription))",
                fix: "Check the file's permissions; the recorded tracks are still pending")
        }
    }

    /// Copies the file aside before it is rewritten in Gramophone's format: `NAME.json.dvr-original`.
    private func keepOriginal(as format: VinylFormat) throws -> URL {
        var copy = URL(fileURLWithPath: file.path + ".\(format)-original")
        var number = 2
        while FileManager.default.fileExists(atPath: copy.path) {
            copy = URL(fileURLWithPath: file.path + ".\(format)-original-\(number)")
            number += 1
        }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: file)
        } catch {
            throw VinylError(
                .unreadable, file: file.path, problem: "could not read the file to keep a copy before converting it (\((error as NSError).localizedDescription))",
                fix: "Check the file's permissions; the recorded tracks are still pending")
        }
        try AtomicFile.write(bytes, to: copy)
        return copy
    }
}

/// Counts of equal values, for telling the tracks on disk apart from those already known.
struct Multiset<Element: Hashable> {
    private var counts: [Element: Int] = [:]

    init(_ elements: [Element]) {
        for element in elements { counts[element, default: 0] += 1 }
    }

    /// What is left, in no particular order.
    var elements: [Element] { counts.flatMap { repeatElement($0.key, count: $0.value) } }

    /// Takes one `element` out; false when there was none.
    mutating func remove(_ element: Element) -> Bool {
        guard let count = counts[element], count > 0 else { return false }
        counts[element] = count - 1
        return true
    }
}
