import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Turntable {
    /// Sends `live` for real through the recording session's `bytes(for:)` and hands the body on
    /// to the caller as it arrives, keeping each piece with the time it came. When the stream
    /// ends (or a `StreamLimit` stops it, or the caller stops reading) the track, redacted,
    /// joins the vinyl. A transport error before the response is not recorded, as elsewhere.
    func recordStream(_ live: Track.Request, with recorder: Recorder, through fetch: LiveFetch) async -> Answer {
        let recordedAt = Date()
        let start = ProcessInfo.processInfo.systemUptime
        // Opened as a host left alone is; what comes back is kept here before it is handed on.
        let opened = await recorder.relay(live, through: fetch)
        guard case .success(let (response, _)) = opened.outcome, let liveSource = opened.relayed else { return opened }
        if fetch.keepsSizedBodiesWhole, response.value(forHTTPHeaderField: "Content-Length") != nil, !response.isEventStream {
            return await recordWhole(live, response: response, from: liveSource, recordedAt: recordedAt, since: start, with: recorder)
        }
        let bytes = ResponseBytes(liveSource)
        let limit = recorder.recording.streamLimit
        let eventStream = response.isEventStream
        let relay = ChunkChannel()
        // Set once, from the timer or the caller's side; read by the recording task.
        let callerGone = Locked(false)
        let timeUp = Locked(false)
        let reading = Task {
            var body = Data()
            var chunks: [TrackStream.Chunk] = []
            var end = TrackStream.End.finished
            var watch = StreamLimitWatch(limit, eventStream: eventStream)
            // The piece that reached a limit is handed on last, after the track joined the vinyl.
            var lastPiece: Data?
            do {
                for try await piece in bytes.chunks {
                    chunks.append(TrackStream.Chunk(offset: ProcessInfo.processInfo.systemUptime - start, length: piece.count))
                    body.append(piece)
                    if let reason = watch.read(piece) {
                        end = .stopped(reason)
                        lastPiece = piece
                        break
                    }
                    relay.yield(piece)
                }
            } catch {
                // Cancelling this task is how the time limit and a caller who stopped reading end it.
                if timeUp.withLock({ $0 }) {
                    end = .stopped("\(GramophoneFormat.formatSeconds(limit.seconds)) seconds")
                } else if callerGone.withLock({ $0 }) || (error as? URLError)?.code == .cancelled {
                    end = .cancelled
                } else {
                    end = .failed(Track.Failure(error))
                }
            }
            var recorded = Track.Response(recording: response, body: body, for: live.url)
            recorded.stream = TrackStream(chunks: chunks, end: end)
            let track = recorder.recording.redaction.redact(
                Track(request: live, outcome: .response(recorded), recordedAt: recordedAt, duration: ProcessInfo.processInfo.systemUptime - start),
                allowing: recorder.recording.allowedSecrets)
            self.deck.withLock { $0.appendRecorded(track) }
            recorder.noteRecorded()
            // Only now does the caller see the last piece and the end (where the recording ends; a
            // broken stream breaks for it too), so `eject()` after reading the last chunk writes this track.
            if let lastPiece { relay.yield(lastPiece) }
            if case .failed(let failure) = end {
                relay.finish(throwing: failure.makeError(for: live.url))
            } else {
                relay.finish()
            }
        }
        let seconds = limit.seconds
        let timer = Task {
            guard seconds.isFinite, seconds > 0 else { return }
            try await Task.sleep(nanoseconds: UInt64(min(seconds, GramophoneFormat.maximumDuration) * 1_000_000_000))
            timeUp.withLock { $0 = true }
            reading.cancel()
        }
        Task {
            _ = await reading.result; timer.cancel()
        }
        let handedOn = ChunkSource(
            pull: { try await relay.next() },
            stop: {
                // The caller dropped the bytes: if the stream is still going, it is cancelled as URLSession would.
                callerGone.withLock { $0 = true }
                reading.cancel()
            })
        return Answer(outcome: .success((response, Data())), source: .network, relayed: handedOn)
    }

}

extension Turntable {
    /// Reads a live body of known length to its end and keeps it as `data(for:)` keeps a
    /// response, before handing it on: recorded even if the caller never reads it.
    private func recordWhole(
        _ live: Track.Request, response: HTTPURLResponse, from source: ChunkSource, recordedAt: Date, since start: TimeInterval, with recorder: Recorder
    ) async -> Answer {
        var body = Data()
        do {
            while let piece = try await source.next() { body.append(piece) }
        } catch {
            // A transport error is not recorded, as elsewhere.
            return Answer(outcome: .failure(error), source: .network)
        }
        keepRecorded(live, response: response, body: body, recordedAt: recordedAt, duration: ProcessInfo.processInfo.systemUptime - start, with: recorder)
        return Answer(outcome: .success((response, body)), source: .network)
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
