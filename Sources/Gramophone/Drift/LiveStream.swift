import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A recorded stream's request sent again and read as recording reads a stream: piece by piece,
/// each with the time it came, until it ends or reaches the limit the recorded stream stopped at,
/// so a re-recorded stream keeps its chunks, its pacing and how it ended.
struct LiveStream {
    var response: HTTPURLResponse
    var body: Data
    var stream: TrackStream

    /// Sends `request` through `session` and reads its body; `start` is when the request was sent
    /// (the chunks' offsets count from it). Throws what the session throws before a response.
    static func read(_ request: Track.Request, through session: any NetworkSession, like recorded: TrackStream, since start: TimeInterval) async throws
        -> LiveStream
    {
        let (bytes, urlResponse) = try await session.bytes(for: request.urlRequest)
        guard let response = urlResponse as? HTTPURLResponse else { throw RecordingError.notHTTP(request.url) }
        let source = bytes.source
        let limit = recorded.end.limitToReadAgain
        var watch = StreamLimitWatch(limit, eventStream: response.isEventStream)
        // The time limit runs from the response, as recording's does.
        let time = StreamTimeLimit(limit, from: source.respondedAt)
        let timer = time.startTimer { source.cancel() }
        defer { timer?.cancel() }
        var live = LiveStream(response: response, body: Data(), stream: TrackStream(chunks: [], end: .finished))
        while true {
            let piece: Data?
            do {
                piece = try await source.next()
            } catch {
                live.stream.end = time.isUp(at: source.arrivalOfLastTaken) ? .stopped(time.reason) : .failed(Track.Failure(error))
                return live
            }
            // What came after the time was up (its timer cancels the reading, but may run late)
            // is not kept, as recording does not keep it: the time stopped the stream.
            if time.isUp(at: source.arrivalOfLastTaken) {
                live.stream.end = .stopped(time.reason)
                source.cancel()
                return live
            }
            guard let piece else { return live }
            live.stream.chunks.append(TrackStream.Chunk(offset: ProcessInfo.processInfo.systemUptime - start, length: piece.count))
            live.body.append(piece)
            if let reason = watch.read(piece) {
                live.stream.end = .stopped(reason)
            } else if recorded.end == .cancelled, live.stream.chunks.count >= recorded.chunks.count {
                // The recording's reader stopped after that many pieces: so does this one.
                live.stream.end = .cancelled
            } else {
                continue
            }
            source.cancel()
            return live
        }
    }
}

extension TrackStream.End {
    /// The limit a live reading of the same request stops at: where this recording stopped (a
    /// sentinel, a number of events, a time), else the recording default's.
    var limitToReadAgain: StreamLimit {
        guard case .stopped(let reason) = self else { return StreamLimit() }
        if reason.hasPrefix("sentinel ") { return StreamLimit(sentinels: [String(reason.dropFirst("sentinel ".count))]) }
        let words = reason.split(separator: " ")
        if words.count == 2, words[1] == "event" || words[1] == "events", let count = Int(words[0]) { return StreamLimit(sentinels: [], events: count) }
        if words.count == 2, words[1] == "seconds", let seconds = TimeInterval(words[0]) { return StreamLimit(sentinels: [], seconds: seconds) }
        return StreamLimit()
    }
}
