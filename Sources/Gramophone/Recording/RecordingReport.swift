import Foundation

/// What one write of a recording Turntable put into its vinyl: returned by `eject()` and, unless
/// the recording is quiet, printed on stderr, once per write:
///
/// ```text
/// Gramophone: wrote 3 tracks to Vinyls/chat.json (3 in the file)
///   redacted: request.headers "Authorization" ×3, response.body JSON "api_key" ×1
/// ```
///
/// A write merges with what the file holds at that moment (other Turntables, the other cases
/// of a parameterized test, other test processes recording into the same vinyl), and says so:
///
/// ```text
/// Gramophone: wrote 1 track to Vinyls/Weather/forecast.json (4 in the file, 3 merged from elsewhere); nothing redacted
/// ```
///
/// A redaction that takes out something the test needs shows here first, not as a failed
/// expectation on the next replay.
public struct RecordingReport: Sendable, Equatable, CustomStringConvertible {
    /// A place the redaction changed, spelled as `gramophone scan` spells places, and how often:
    /// in how many tracks, or, in a streamed body, in how many events.
    public struct Redacted: Sendable, Equatable, CustomStringConvertible {
        /// `request.headers "Authorization"`, `request.url query "access_token"`,
        /// `response.body JSON "choices[0].delta.token"`, `response.body` (text scrubbed of a value taken elsewhere).
        public package(set) var place: String
        /// How many times.
        public package(set) var count: Int

        /// `place ×count`.
        public var description: String { "\(place) ×\(count)" }
    }

    /// The vinyl file written.
    public package(set) var file: URL
    /// Tracks recorded since the previous write (or since the Turntable was made).
    public package(set) var tracksAdded: Int
    /// Tracks in the file now.
    public package(set) var trackCount: Int
    /// Every place the redaction changed in the added tracks, in the order first met.
    public package(set) var redacted: [Redacted]
    /// Headers the recorder rewrote so that they describe the body stored: a compressed response
    /// the client handed over decoded loses its `Content-Encoding` (`response.headers
    /// "Content-Encoding" ×2`); `Recording.keepsContentEncoding` keeps them as received.
    public package(set) var rewritten: [Redacted] = []
    /// Tracks other writers had added to the file since this Turntable last read or wrote it,
    /// kept in this write.
    public var mergedCount = 0
    /// Tracks recorded here that were not added because another writer had meanwhile recorded
    /// the same request into the file (its track is kept).
    public var alreadyRecorded = 0
    /// Tracks the write dropped: with the record mode `all` (or a stale vinyl recorded again),
    /// those the file held before this run and the older tracks of a request recorded again.
    public var replacedCount = 0
    /// Tracks this Turntable had written before that the file no longer held (it was deleted
    /// or edited meanwhile), written again.
    public var restoredCount = 0
    /// The format the file was written in: its own, where that format can hold the tracks.
    public package(set) var format: VinylFormat = .gramophone
    /// The file's format before, when it could not hold the tracks (a DVR cassette or a HAR
    /// file given a streamed response; a read-only VCR cassette) and was written in
    /// Gramophone's format instead; nil when it kept its format.
    public package(set) var convertedFrom: VinylFormat?
    /// Where the converted file's original was copied, byte for byte: `NAME.json.dvr-original`.
    public package(set) var original: URL?
    /// The file the vinyl was played from, when the write went to another file
    /// (`Recording.destination`) and copied its tracks there; nil otherwise.
    public package(set) var copiedFrom: URL?
    /// Tracks of the played vinyl copied into the file with this write (counted in
    /// `tracksAdded` when added, as recorded ones are).
    public var copiedCount = 0
    /// WebSocket conversations still open when the Turntable was ejected: each was written as
    /// recorded so far, its end `stopped` ("the Turntable was ejected"), and its connection
    /// left open, no longer recorded. Close the socket before `eject()` to record the close.
    public var conversationsStoppedAtEject = 0

    /// The report as printed: the file, the tracks (and what the merge did), the format when
    /// it is not Gramophone's, then what was redacted (or that nothing was).
    public var description: String {
        let tracks = "\(tracksAdded) track\(tracksAdded == 1 ? "" : "s")"
        var counts = ["\(trackCount) in the file"]
        if mergedCount > 0 { counts.append("\(mergedCount) merged from elsewhere") }
        if alreadyRecorded > 0 { counts.append("\(alreadyRecorded) already recorded by another writer") }
        if replacedCount > 0 { counts.append("\(replacedCount) replaced") }
        if restoredCount > 0 { counts.append("\(restoredCount) written again, which the file had lost") }
        if let copiedFrom { counts.append("\(copiedCount) copied from \(copiedFrom.path), the vinyl played") }
        var text = "Gramophone: wrote \(tracks) to \(file.path) (\(counts.joined(separator: ", ")))"
        if let convertedFrom {
            text += "; converted from \(convertedFrom.article) to Gramophone's format, which can hold what was recorded"
            if let original { text += " (the original is kept at \(original.path))" }
        } else if format != .gramophone {
            text += "; kept as \(format.article)"
        }
        if conversationsStoppedAtEject > 0 {
            let count = conversationsStoppedAtEject
            text +=
                "; \(count) WebSocket conversation\(count == 1 ? " was" : "s were") still open at eject and written as recorded so far"
                + " (close the socket before eject() to record its close)"
        }
        text += redacted.isEmpty ? "; nothing redacted" : "\n  redacted: " + redacted.map(\.description).joined(separator: ", ")
        if !rewritten.isEmpty {
            text +=
                "\n  rewrote: " + rewritten.map(\.description).joined(separator: ", ")
                + " (bodies the client decoded are stored decoded, with headers that say so; Recording.keepsContentEncoding keeps them as received)"
        }
        return text
    }
}
