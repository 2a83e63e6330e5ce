import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Turntable {
    /// A Turntable that records the tracks its vinyl is missing through `recording.session`
    /// and writes them to the vinyl file `name` (`.json` added) in `folder`.
    ///
    /// The record mode is `recording.effectiveMode`. A missing file is fine when that mode
    /// records (it is created on `eject()` or when the Turntable is released); with `.none`
    /// it is the `VinylError.notFound` it would be without recording. With `.all` an existing
    /// file is not read: it will be replaced.
    ///
    /// - Throws: `VinylError` for a bad name or an unreadable vinyl, `RecordingError.invalidMode`
    ///   for an unknown `GRAMOPHONE_RECORD_MODE`.
    public convenience init(vinylNamed name: String, in folder: URL = VinylLocation.defaultFolder, matching: MatchingStrategy = .default, recording: Recording) throws {
        let file = try VinylLocation.file(for: name, in: folder)
        let mode = try recording.resolvedMode()
        let exists = FileManager.default.fileExists(atPath: file.path)
        let emptyVinyl = Vinyl(name: file.deletingPathExtension().lastPathComponent)
        let vinyl: Vinyl
        switch mode {
        case .all:
            vinyl = emptyVinyl
        case .once, .newEpisodes:
            vinyl = exists ? try Vinyl(contentsOf: file) : emptyVinyl
        case .none:
            guard exists else {
                throw VinylError(.notFound, file: file.path, problem: "no such file, and the record mode is none\(recording.isCI && recording.requestedMode == nil ? " (the default on CI)" : "")",
                                 fix: "Record it locally first (the default mode, once, records a missing vinyl), or set \(Recording.modeVariable)=once")
            }
            vinyl = try Vinyl(contentsOf: file)
        }
        let recorder = Recorder(recording: recording, mode: mode, file: file, isNew: !exists, loadedCount: vinyl.tracks.count)
        self.init(vinyl: vinyl, matching: matching, file: file, recorder: recorder)
    }

    /// Writes the vinyl file if anything was recorded since the last write: atomically
    /// (a temporary file renamed over the old one), creating missing folders. Calling it
    /// again does nothing unless more was recorded meanwhile. A Turntable released with
    /// unwritten tracks writes them too, but can then only report a failure on stderr.
    ///
    /// - Throws: `VinylError(.unwritable)` naming the path; the previous file is unchanged
    ///   and the tracks stay pending, so a later `eject()` can try again.
    public func eject() throws {
        guard let recorder else { return }
        try recorder.writeIfPending { deck.withLock { $0.vinyl } }
    }

    /// Whether the vinyl is new or write-protected, and how many tracks were played and recorded.
    public var cassette: CassetteState {
        let played = deck.withLock { $0.answered }
        guard let recorder else {
            return CassetteState(mode: .none, isNew: false, isWriteProtected: true, playedCount: played, recordedCount: 0, file: deck.withLock { $0.file })
        }
        return CassetteState(mode: recorder.mode, isNew: recorder.isNew, isWriteProtected: !recorder.mayRecord, playedCount: played,
                             recordedCount: recorder.ledger.withLock { $0.recordedCount }, file: recorder.file)
    }

    /// The eject a released Turntable performs: nowhere to throw, so failures go to stderr.
    func ejectOnRelease() {
        do {
            try eject()
        } catch {
            FileHandle.standardError.write(Data("Gramophone: the recorded vinyl could not be written when its Turntable was released: \(error)\n".utf8))
        }
    }

    // MARK: Answering with a recorder

    /// The miss path: replays what matches (per mode), records what may be recorded, and
    /// sends requests to other hosts through untouched. Never holds the deck's lock across the network.
    func answer(_ live: Track.Request, recordingWith recorder: Recorder) async -> Answer {
        guard recorder.recording.hosts.allows(live.url) else {
            return await Self.send(live, through: recorder.recording.session).answer
        }
        let redacted = recorder.recording.redaction.redact(live, allowing: recorder.recording.allowedSecrets)
        if recorder.mode != .all {
            // A miss about to be recorded is never shown: skip the nearest-track search.
            let replay = play(redacted, explainingMisses: !recorder.mayRecord)
            guard replay.trackIndex == nil, recorder.mayRecord else {
                return replay.trackIndex == nil && recorder.mode == .once ? Self.noteWriteProtected(replay) : replay
            }
        }
        let recordedAt = Date()
        let (result, duration) = await Self.send(live, through: recorder.recording.session)
        guard case .success(let (response, body)) = result.outcome else {
            // A transport error is not recorded: a flaky network must not become a fixture.
            return result
        }
        let track = recorder.recording.redaction.redact(Track(request: live, response: Track.Response(recording: response, body: body, for: live.url),
                                                              recordedAt: recordedAt, duration: duration),
                                                        allowing: recorder.recording.allowedSecrets)
        let index = deck.withLock { deck in deck.appendRecorded(track, countedAsMiss: recorder.mode != .all) }
        recorder.noteRecorded()
        return Answer(outcome: .success((response, body)), trackIndex: index, duration: nil)
    }

    /// Replay without a recorder. A vinyl recorded with the default redaction holds
    /// `access_token=REDACTED` where the live request has the token: when the request as sent
    /// misses, it is tried again redacted the same way, so a recorded vinyl answers the request
    /// it was recorded from. Hits never pay for the redaction.
    func playRedactedOnMiss(_ live: Track.Request) -> Answer {
        let answer = play(live)
        guard answer.trackIndex == nil else { return answer }
        let redacted = Redaction.default.redact(live)
        guard redacted != live else { return answer }
        let retry = play(redacted, explainingMisses: false)
        guard retry.trackIndex != nil else {
            deck.withLock { $0.misses -= 1 }  // one request, one miss
            return answer
        }
        deck.withLock { $0.misses -= 1 }  // the first attempt's miss was not one after all
        return retry
    }

    /// Sends the unredacted request for real; the duration is wall-clock seconds.
    private static func send(_ live: Track.Request, through session: any NetworkSession) async -> (answer: Answer, duration: TimeInterval) {
        let start = ProcessInfo.processInfo.systemUptime
        do {
            let (body, response) = try await session.data(for: live.urlRequest)
            let duration = ProcessInfo.processInfo.systemUptime - start
            guard let http = response as? HTTPURLResponse else {
                return (Answer(outcome: .failure(RecordingError.notHTTP(live.url)), trackIndex: nil, duration: nil), duration)
            }
            return (Answer(outcome: .success((http, body)), trackIndex: nil, duration: nil), duration)
        } catch {
            return (Answer(outcome: .failure(error), trackIndex: nil, duration: nil), ProcessInfo.processInfo.systemUptime - start)
        }
    }

    /// Adds to a miss report why nothing was recorded.
    private static func noteWriteProtected(_ answer: Answer) -> Answer {
        guard case .failure(let error) = answer.outcome, case .noMatchingTrack(var report)? = error as? TurntableError else { return answer }
        let note = "the record mode is once and the vinyl file exists, so it is write-protected; use new_episodes to add to it, or delete the file to record it again"
        report.note = report.note.map { $0 + "; " + note } ?? note
        var copy = answer
        copy.outcome = .failure(TurntableError.noMatchingTrack(report))
        return copy
    }
}

extension Turntable.Deck {
    /// Adds a freshly recorded track so later requests can match it, and returns its position.
    /// The request it answered counts as its first play (a play-once strategy moves on to the
    /// next track); `countedAsMiss` undoes the miss `play` counted before the recording.
    mutating func appendRecorded(_ track: Track, countedAsMiss: Bool) -> Int {
        let index = self.index.append(track)
        vinyl.tracks.append(track)
        playCounts.append(1)
        played.append(true)
        responses.append(nil)
        if countedAsMiss { misses -= 1 }
        // In track order, a track recorded at the end of the vinyl is the one just played.
        if nextInOrder == index { nextInOrder += 1 }
        return index
    }
}

extension Track.Response {
    /// The response as the client received it. Foundation hands over decoded bodies while the
    /// headers still say `Content-Encoding: gzip`; both are kept as the client saw them
    /// (see docs/RECORDING.md, "Compressed responses").
    init(recording response: HTTPURLResponse, body: Data, for requestURL: URL) {
        var fields: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String { fields[name] = value as? String ?? "\(value)" }
        }
        let finalURL = response.url.flatMap { $0 == requestURL ? nil : $0 }
        self.init(status: response.statusCode, headers: Headers(fields), body: body, url: finalURL)
    }
}
