import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pieces a streamed answer is delivered in, each after its delay (counted from the piece
/// before, the first from the response), and the error that follows the last, if any.
struct StreamPlan: Sendable {
    var pieces: [(delay: TimeInterval, data: Data)]
    var ending: (any Error)?

    /// `stream`'s pieces cut by `chunking`, each due at its offset times `scale` (all at once
    /// when `scale` is nil).
    init(_ stream: TrackStream, body: Data, url: URL, chunking: StreamChunking, eventStream: Bool, scale: TimeInterval?) {
        var previous: TimeInterval = 0
        pieces = StreamCutter.cut(stream, body: body, into: chunking, eventStream: eventStream).map { piece in
            guard let scale else { return (0, piece.data) }
            let due = piece.offset * scale
            defer { previous = max(previous, due) }
            return (Self.clamped(due - previous), piece.data)
        }
        ending = stream.endingError(for: url)
    }

    /// A delay a replay can wait: not negative, not past a day (a tiny `speed` or a huge interval).
    static func clamped(_ delay: TimeInterval) -> TimeInterval {
        delay.isFinite ? min(max(0, delay), GramophoneFormat.maximumDuration) : 0
    }

    /// How long the whole body takes, for paths that hand it over in one piece.
    var totalDelay: TimeInterval { pieces.reduce(0) { $0 + $1.delay } }

    /// A source that hands the pieces out as they fall due, counted from now (the response):
    /// a reader that takes its time catches up instead of pushing every later piece back.
    /// Cancelling the reader ends it.
    func source() -> ChunkSource {
        guard pieces.contains(where: { $0.delay > 0 }) else { return ChunkSource(chunks: pieces.map(\.data), ending: ending) }
        let due = dueTimes(from: .now)
        let position = Locked(0)
        return ChunkSource(pull: { [pieces, ending] in
            let index = position.withLock { position -> Int in
                defer { position += 1 }
                return position
            }
            guard index < pieces.count else {
                if let ending, index == pieces.count { throw ending }
                return nil
            }
            do { try await Task.sleep(until: due[index], clock: .continuous) } catch { throw URLError(.cancelled) }
            return pieces[index].data
        })
    }

    /// When each piece is due, its delays added up from `start`.
    func dueTimes(from start: ContinuousClock.Instant) -> [ContinuousClock.Instant] {
        var due = start
        return pieces.map { piece in
            due += .nanoseconds(Int64(piece.delay * 1_000_000_000))
            return due
        }
    }
}

extension Turntable {
    /// How streamed responses are cut into chunks on playback; see `StreamChunking`.
    public var chunking: StreamChunking {
        get { settings.withLock { $0.chunking } }
        set { settings.withLock { $0.chunking = newValue } }
    }

    /// The pieces `answer`'s body is delivered in when it was streamed (a recorded stream, a
    /// streaming stub), paced by the timing and cut by `chunking`; nil for a body in one piece.
    func streamPlan(for answer: Answer, body: Data, url: URL) -> StreamPlan? {
        guard let stream = answer.stream else { return nil }
        let (timing, chunking) = settings.withLock { ($0.timing, $0.chunking) }
        // A stub's pieces keep their own intervals, whatever the timing, as its delay does.
        let scale: TimeInterval?
        switch (answer.source, timing) {
        case (.stub, _): scale = 1
        case (_, .immediate): scale = nil
        case (_, .recordedDuration(let speed)), (_, .chronological(let speed)): scale = speed.isFinite && speed > 0 ? 1 / speed : nil
        case (_, .chunkInterval(let seconds)):
            var plan = StreamPlan(stream, body: body, url: url, chunking: chunking, eventStream: answer.isEventStream, scale: nil)
            plan.pieces = plan.pieces.map { (StreamPlan.clamped(seconds), $0.data) }
            return plan
        }
        return StreamPlan(stream, body: body, url: url, chunking: chunking, eventStream: answer.isEventStream, scale: scale)
    }

    // MARK: NetworkSession

    /// The response as soon as it is known, and its body as it arrives: a recorded stream chunk
    /// by chunk (paced by `timing`, cut by `chunking`), a streaming stub event by event, any
    /// other answer in one piece. Recording, the real stream is handed on as it arrives and
    /// kept chunk by chunk, until it ends or the recording's `StreamLimit` stops it.
    /// - Throws: as ``data(for:)``; the bytes end with a recorded stream's error, if it had one.
    public nonisolated(nonsending) func bytes(for request: URLRequest) async throws -> (ResponseBytes, URLResponse) {
        let answer = try await streamedAnswer(try Track.Request(request))
        return (ResponseBytes(answer.body.source), answer.response)
    }

    /// The response to `live` as soon as it is known, and its body as it arrives: what
    /// `bytes(for:)`, `HTTPClientSession` and `ClientTransport` hand over, each in its own types.
    /// A `deadline` (AsyncHTTPClient's) ends the wait for the response with its error.
    nonisolated(nonsending) func streamedAnswer(
        _ live: Track.Request, through fetch: LiveFetch = .urlSession, deadline: ReplayDeadline? = nil
    ) async throws -> StreamedAnswer {
        let answer = await answerFollowingRedirects(live, streaming: true, through: fetch, deadline: deadline)
        // The wait before the response: a stub's delay, a whole track's timing (none for a
        // recorded stream, whose chunks carry their own), also before an error.
        try await waitForPlayback(of: answer, until: deadline)
        if Task.isCancelled { throw URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: live.url]) }
        let (response, body) = try answer.outcome.get()
        let streamed: StreamedBody
        if let relayed = answer.relayed {
            streamed = .pieces(relayed)
        } else if let plan = streamPlan(for: answer, body: body, url: live.url) {
            streamed = .pieces(plan.source())
        } else {
            streamed = .whole(body)
        }
        return StreamedAnswer(response: response, readyHead: answer.head, body: streamed)
    }
}

/// A response as soon as it is known and its body as it arrives: what each client library's
/// conversion turns into its own types.
struct StreamedAnswer: Sendable {
    var response: HTTPURLResponse
    /// The head in each library's form, when the answer had it ready (a track's, built once).
    var readyHead: ResponseHead?
    var body: StreamedBody

    /// The response's head in each library's form; built here for an answer that had none ready.
    var head: ResponseHead { readyHead ?? ResponseHead(response) }
}

/// A streamed answer's body: in pieces as they fall due (a recorded stream, a live one), or
/// whole, which each client library hands over in its cheapest one-piece form.
enum StreamedBody: Sendable {
    case whole(Data)
    case pieces(ChunkSource)

    /// The body as pieces, whichever it is.
    var source: ChunkSource {
        switch self {
        case .whole(let body): return ChunkSource(chunks: [body])
        case .pieces(let source): return source
        }
    }
}

extension HTTPURLResponse {
    /// A `text/event-stream`: its events end at empty lines (and a recording stops at their sentinels).
    var isEventStream: Bool { mimeType?.lowercased() == "text/event-stream" }
}
