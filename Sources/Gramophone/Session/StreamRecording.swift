import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Turntable {
    /// Sends `live` for real through the recording session's `bytes(for:)` and hands the body on
    /// to the caller, keeping each piece the caller reads with the time it was read. When the
    /// stream ends, a `StreamLimit` stops it, or the caller stops reading, the track, redacted,
    /// joins the vinyl. A transport error before the response is not recorded, as elsewhere.
    func recordStream(_ live: Track.Request, with recorder: Recorder, through fetch: LiveFetch) async -> Answer {
        let recordedAt = Date()
        let start = ProcessInfo.processInfo.systemUptime
        // Opened as a host left alone is; what comes back is kept here before it is handed on.
        let opened = await recorder.relay(live, through: fetch)
        guard case .success(let (response, _)) = opened.outcome, let liveSource = opened.relayed else { return opened }
        if fetch.keepsSizedBodiesWhole, response.value(forHTTPHeaderField: "Content-Length") != nil, !response.isEventStream {
            return await recordWhole(live, response: response, head: opened.head, from: liveSource, recordedAt: recordedAt, since: start, with: recorder)
        }
        let taping = StreamTaping(
            turntable: self, recorder: recorder, request: live, response: response, headers: opened.head?.headers, live: liveSource, recordedAt: recordedAt,
            start: start)
        taping.startTimer()
        let handedOn = ChunkSource(pull: { try await taping.next() }, stop: { taping.callerStopped() })
        return Answer(outcome: .success((response, Data())), source: .network, relayed: handedOn, head: opened.head)
    }

    /// Reads a body of known length whole, records it, then answers with it: for client stacks
    /// whose callers may drop a body they did not ask for (`LiveFetch.keepsSizedBodiesWhole`).
    private func recordWhole(
        _ live: Track.Request, response: HTTPURLResponse, head: ResponseHead?, from source: ChunkSource, recordedAt: Date, since start: TimeInterval,
        with recorder: Recorder
    ) async -> Answer {
        var body = Data()
        do {
            while let piece = try await source.next() { body.append(piece) }
        } catch {
            // A transport error is not recorded, as elsewhere.
            return Answer(outcome: .failure(error), source: .network)
        }
        keepRecorded(
            live, response: response, headers: head?.headers, body: body, recordedAt: recordedAt, duration: ProcessInfo.processInfo.systemUptime - start,
            with: recorder)
        return Answer(outcome: .success((response, body)), source: .network, head: head)
    }
}

/// One live stream being recorded, driven by its reader: each piece is taken from the network
/// when the caller asks for it, so what the track holds is what the caller read, and how it ends
/// is decided by the caller's side alone (it read the end, it stopped reading, a limit stopped
/// it), not by how far a task of our own got before the caller's going away reached it. A
/// reader that runs ahead of the caller made the end depend on the scheduler: on a busy machine
/// an abandoned endless stream was recorded until the server closed it (RELIABILITY.md).
final class StreamTaping: Sendable {
    private struct Tape {
        var chunks: [TrackStream.Chunk] = []
        var body = Data()
        var watch: StreamLimitWatch
        /// How the stream ended, once it has; the track has joined the vinyl by then.
        var end: TrackStream.End?
    }

    private let turntable: Turntable
    private let recorder: Recorder
    private let request: Track.Request
    private let response: HTTPURLResponse
    /// The fields as the client library gave them, when it keeps repeats apart.
    private let headers: Headers?
    private let live: ChunkSource
    private let recordedAt: Date
    private let start: TimeInterval
    private let tape: Locked<Tape>
    /// Counted from the response, as the taping is made once it has come.
    private let time: StreamTimeLimit
    private let timer = Locked<Task<Void, Never>?>(nil)

    init(
        turntable: Turntable, recorder: Recorder, request: Track.Request, response: HTTPURLResponse, headers: Headers?, live: ChunkSource,
        recordedAt: Date, start: TimeInterval
    ) {
        self.turntable = turntable
        self.recorder = recorder
        self.request = request
        self.response = response
        self.headers = headers
        self.live = live
        self.recordedAt = recordedAt
        self.start = start
        tape = Locked(Tape(watch: StreamLimitWatch(recorder.recording.streamLimit, eventStream: response.isEventStream)))
        time = StreamTimeLimit(recorder.recording.streamLimit, from: live.respondedAt)
    }

    /// The limit's time runs from the response, read or not: an endless stream nobody reads is
    /// still recorded and closed when it is up.
    func startTimer() {
        let task = time.startTimer { [weak self] in
            guard let self else { return }
            finish(.stopped(time.reason))
        }
        timer.withLock { $0 = task }
    }

    /// The next piece for the caller, taken from the network now and kept on the tape; nil at
    /// the end, which the track has joined the vinyl before the caller sees it.
    nonisolated(nonsending) func next() async throws -> Data? {
        if let end = tape.withLock({ $0.end }) { return try handOver(end) }
        let piece: Data?
        do {
            piece = try await live.next()
        } catch {
            // Cancelling the reading task (or the live task) ends the stream as cancelled by the caller.
            let cancelled = Task.isCancelled || (error as? URLError)?.code == .cancelled
            finish(timeWasUp() ? .stopped(time.reason) : cancelled ? .cancelled : .failed(Track.Failure(error)))
            return try handOver(tape.withLock { $0.end } ?? .cancelled)
        }
        // What came after the time was up is not the caller's: the time stopped the stream
        // (its timer does so on time, unless a busy machine runs it late).
        if timeWasUp() { finish(.stopped(time.reason)) }
        guard let piece else {
            finish(.finished)
            return try handOver(tape.withLock { $0.end } ?? .finished)
        }
        let outcome = tape.withLock { tape -> (kept: Bool, limit: String?) in
            // A piece that came after a limit stopped the stream is not the caller's.
            guard tape.end == nil else { return (false, nil) }
            tape.chunks.append(TrackStream.Chunk(offset: ProcessInfo.processInfo.systemUptime - start, length: piece.count))
            tape.body.append(piece)
            return (true, tape.watch.read(piece))
        }
        guard outcome.kept else { return try handOver(tape.withLock { $0.end } ?? .cancelled) }
        // The piece that reached a limit is handed on after the track joined the vinyl.
        if let reason = outcome.limit { finish(.stopped(reason)) }
        return piece
    }

    /// Whether what the live source handed over last came after the limit's time.
    private func timeWasUp() -> Bool {
        time.isUp(at: live.arrivalOfLastTaken)
    }

    /// The caller dropped the bytes: if the stream is still going it is cancelled, as URLSession would.
    func callerStopped() {
        finish(.cancelled)
    }

    /// What a reader gets once the stream has ended: nothing more, or the error it ended with.
    private func handOver(_ end: TrackStream.End) throws -> Data? {
        switch end {
        case .finished, .stopped: return nil
        case .cancelled: throw URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: request.url])
        case .failed(let failure): throw failure.makeError(for: request.url)
        }
    }

    /// Ends the tape once (the first end counts): the track, redacted, joins the vinyl under the
    /// tape's lock, so a reader that sees the end also finds the track; the live request stops.
    private func finish(_ end: TrackStream.End) {
        let ended = tape.withLock { tape -> Bool in
            guard tape.end == nil else { return false }
            tape.end = end
            turntable.keepRecorded(
                request, response: response, headers: headers, body: tape.body, stream: TrackStream(chunks: tape.chunks, end: end), recordedAt: recordedAt,
                duration: ProcessInfo.processInfo.systemUptime - start, with: recorder)
            return true
        }
        guard ended else { return }
        timer.withLock { $0 }?.cancel()
        // Nothing more is read: a stream stopped early (a limit, the caller) closes its connection.
        live.cancel()
    }
}

extension Recorder {
    /// Hands a live stream on without recording it (a host the recording leaves alone), fetched
    /// through the client stack the request came in through.
    func relay(_ live: Track.Request, through fetch: LiveFetch) async -> Answer {
        // An OpenAPI call reaches the network through the recording's session, as URLSession code does.
        #if AsyncHTTPClient
        if case .httpClient(let deadline) = fetch { return await relayThroughHTTPClient(live, deadline: deadline) }
        #endif
        do {
            let (bytes, response) = try await session.bytes(for: live.urlRequest)
            guard let http = response as? HTTPURLResponse else { return Answer(outcome: .failure(RecordingError.notHTTP(live.url)), source: .network) }
            return Answer(outcome: .success((http, Data())), source: .network, relayed: bytes.source)
        } catch {
            return Answer(outcome: .failure(error), source: .network)
        }
    }
}
