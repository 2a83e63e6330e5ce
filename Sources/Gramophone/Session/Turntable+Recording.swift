import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Turntable {
    /// Writes the vinyl file if anything was recorded since the last write: atomically
    /// (a temporary file renamed over the old one), creating missing folders. Calling it
    /// again does nothing unless more was recorded meanwhile. A Turntable released with
    /// unwritten tracks writes them too, but can then only report a failure on stderr.
    ///
    /// The write never replaces what others recorded: under a lock that holds across
    /// processes, it reads the file as it is at that moment and adds this Turntable's new
    /// tracks to it, keeping the tracks other Turntables, parameterized test cases or test
    /// processes wrote meanwhile (the report counts them). A file in another format (a DVR
    /// cassette, a HAR file) stays in it where that format can hold the tracks; see
    /// ``RecordingReport`` and <doc:RecordingAndRedaction>.
    ///
    /// Each write reports, once, what it added: the file, the tracks recorded, and every place
    /// the redaction changed (`response.body JSON "token" ×3`), on stderr unless
    /// `GRAMOPHONE_QUIET` is set (or ``Recording/isQuiet``), and as the returned value, which a
    /// test helper may attach to the test.
    ///
    /// With `evenIfUnchanged`, it writes also when nothing new was recorded: the file then holds
    /// the vinyl as played (with a `Recording.destination`, the played tracks are copied into
    /// it), merged with what it holds, as any write.
    ///
    /// - Returns: what was written; nil when nothing was (no recording, or nothing new).
    /// - Throws: `VinylError(.unwritable)` naming the path; the previous file is unchanged
    ///   and the tracks stay pending, so a later `eject()` can try again. For a bundle's vinyl
    ///   whose source folder is missing, the same error naming where it would write, when there
    ///   is something to write.
    ///
    /// With the `AsyncHTTPClient` trait, it also shuts down the `HTTPClient` made for the recording
    /// (never one given as `Recording.httpClient`); recording later makes another.
    @discardableResult
    public func eject(evenIfUnchanged: Bool = false) throws -> RecordingReport? {
        guard let recorder else { return nil }
        #if AsyncHTTPClient
        defer { recorder.httpClient.shutDown() }
        #endif
        // A conversation still open would otherwise be written only if it ended before release.
        recorder.stopOpenConversations()
        return try recorder.writeIfPending(evenIfUnchanged: evenIfUnchanged)
    }

    /// The eject a released Turntable performs: nowhere to throw, so failures go to stderr.
    func ejectOnRelease() {
        do {
            try eject()
        } catch {
            FileHandle.standardError.write(Data("Gramophone: the recorded vinyl could not be written when its Turntable was released: \(error)\n".utf8))
        }
    }
}

extension Track.Response {
    /// The response as the client received it. Foundation hands over decoded bodies while the
    /// headers still say `Content-Encoding: gzip`; both are kept as the client saw them
    /// (see <doc:RecordingAndRedaction>, "Compressed responses"). `headers` are the fields as a
    /// client library that keeps them apart gave them (AsyncHTTPClient: repeated `Set-Cookie`
    /// kept apart, in their order); without them, the `HTTPURLResponse`'s, sorted by name.
    init(recording response: HTTPURLResponse, headers: Headers? = nil, body: Data, for requestURL: URL) {
        let fields = headers ?? Headers(fieldsOf: response)
        let finalURL = response.url.flatMap { $0 == requestURL ? nil : $0 }
        self.init(status: response.statusCode, headers: fields, body: body, url: finalURL)
    }
}
