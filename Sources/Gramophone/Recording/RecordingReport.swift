import Foundation

/// What one write of a recording Turntable put into its vinyl: returned by `eject()` and, unless
/// the recording is quiet, printed on stderr, once per write:
///
/// ```text
/// Gramophone: wrote 3 tracks to Vinyls/chat.json (3 in the file)
///   redacted: request.headers "Authorization" ×3, response.body JSON "api_key" ×1
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
        public var place: String
        /// How many times.
        public var count: Int

        /// `place ×count`.
        public var description: String { "\(place) ×\(count)" }
    }

    /// The vinyl file written.
    public var file: URL
    /// Tracks recorded since the previous write (or since the Turntable was made).
    public var tracksAdded: Int
    /// Tracks in the file now.
    public var trackCount: Int
    /// Every place the redaction changed in the added tracks, in the order first met.
    public var redacted: [Redacted]
    /// Headers the recorder rewrote so that they describe the body stored: a compressed response
    /// the client handed over decoded loses its `Content-Encoding` (`response.headers
    /// "Content-Encoding" ×2`); `Recording.keepsContentEncoding` keeps them as received.
    public var rewritten: [Redacted] = []

    /// The report as printed: the file, the tracks, then what was redacted (or that nothing was).
    public var description: String {
        let tracks = "\(tracksAdded) track\(tracksAdded == 1 ? "" : "s")"
        var text = "Gramophone: wrote \(tracks) to \(file.path) (\(trackCount) in the file)"
        text += redacted.isEmpty ? "; nothing redacted" : "\n  redacted: " + redacted.map(\.description).joined(separator: ", ")
        if !rewritten.isEmpty {
            text +=
                "\n  rewrote: " + rewritten.map(\.description).joined(separator: ", ")
                + " (bodies the client decoded are stored decoded, with headers that say so; Recording.keepsContentEncoding keeps them as received)"
        }
        return text
    }
}
