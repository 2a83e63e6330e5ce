import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Turntable {
    /// How many miss reports a Turntable keeps; `playback.misses` still counts every miss.
    static let missLogLimit = 100

    /// Answers `live`, the one way through: stubs, then the vinyl, then the recorder, then a
    /// miss, which is counted, explained and logged here (a WebSocket message that does not fit
    /// its conversation is counted and logged the same way, by `conversationMissed`). `fetch` is the client
    /// stack the request came in through: the recorder reaches the network the same way.
    /// `turn` is the request's place in the Turntable's order, left before anything slow (the
    /// network, a stub's own code) so the requests after it are not held up.
    nonisolated(nonsending) func answer(_ live: Track.Request, streaming: Bool = false, through fetch: LiveFetch = .urlSession, turn: Turn? = nil) async -> Answer {
        if let stubbed = await stubs.answer(live, turn: turn) {
            deck.withLock { $0.log(live) }
            return stubbed
        }
        var request = live
        if let recorder {
            // Hosts the recording leaves alone go to the real session untouched.
            guard recorder.recording.records(live.url) else {
                deck.withLock { $0.log(live) }
                turn?.goesLive()
                if case .webSocket = fetch { return .liveWebSocket(records: false) }
                return streaming ? await recorder.relay(live, through: fetch) : await recorder.send(live).answer
            }
            // Tracks were redacted when recorded; the live request is redacted the same way to match them.
            request = recorder.recording.redaction.redact(live, allowing: recorder.recording.allowedSecrets)
        }
        // A request only this run's recordings answer is another visit: it goes to the network.
        if recorder?.mode != .all, let played = play(request, sent: live, recordingRepeats: recorder?.mayRecord == true) { return played }
        if recorder == nil, let played = playRedacted(live) { return played }
        if let recorder, recorder.mayRecord {
            // Logged as it goes out, so concurrent recordings keep the order they were sent in.
            deck.withLock { $0.log(live) }
            // The first request a new vinyl sends live says so: a misspelt name starts one too.
            if recorder.isNew, !recorder.recording.isQuiet, Self.claimNewVinylNotice(recorder.file) {
                recorder.recording.reportOutput(recorder.newVinylNotice)
            }
            turn?.goesLive()
            if case .webSocket = fetch { return .liveWebSocket(records: true) }
            let answer = streaming ? await recordStream(live, with: recorder, through: fetch) : await record(live, with: recorder)
            return recorder.explainingFailure(of: answer, for: live)
        }
        // A miss report is printed (stderr, test issues, CI logs): without a recorder, the request
        // is shown redacted as the default redacts, never with the live credential.
        return miss(recorder == nil ? Redaction.default.redact(live) : request, sent: live)
    }

    /// Sends `live` for real and keeps what comes back as a new track.
    private func record(_ live: Track.Request, with recorder: Recorder) async -> Answer {
        let recordedAt = Date()
        let (answer, duration) = await recorder.send(live)
        // A transport error is not recorded: a flaky network must not become a fixture.
        guard case .success(let (response, body)) = answer.outcome else { return answer }
        if let refusal = keepRecorded(live, response: response, body: body, recordedAt: recordedAt, duration: duration, with: recorder, refusingCollisions: true) {
            return Answer(outcome: .failure(refusal), source: .network)
        }
        return answer
    }

    /// Adds a response received whole (or `stream`'s pieces) as a new track, redacted. `refusingCollisions`: a request
    /// this run recorded with other secrets and another answer is refused, not kept
    /// (Recording/RedactedCollisions.swift); the error is returned.
    @discardableResult
    func keepRecorded(
        _ live: Track.Request, response: HTTPURLResponse, headers: Headers? = nil, body: Data, stream: TrackStream? = nil, recordedAt: Date, duration: TimeInterval,
        with recorder: Recorder, refusingCollisions: Bool = false
    ) -> RecordingError? {
        var received = Track.Response(recording: response, headers: headers, body: body, for: live.url)
        received.stream = stream
        let rewritten = recorder.recording.keepsContentEncoding ? [] : received.describeStoredBody()
        let original = Track(request: live, response: received, recordedAt: recordedAt, duration: duration)
        let track = recorder.recording.redaction.redact(original, allowing: recorder.recording.allowedSecrets)
        if refusingCollisions, let earlier = RedactedCollisions.note(original, as: track, run: recorder.runName) {
            return RedactedCollisions.refusal(original, as: track, earlier: earlier)
        }
        deck.withLock { $0.appendRecorded(track) }
        recorder.noteRecorded(original, as: track, rewritten: rewritten)
        return nil
    }

    /// Replay without a recorder of a vinyl recorded with the default redaction: it holds
    /// `access_token=REDACTED` where the live request has the token, so a request that missed
    /// as sent is tried again redacted the same way. Hits never pay for the redaction.
    private func playRedacted(_ live: Track.Request) -> Answer? {
        let redacted = Redaction.default.redact(live)
        return redacted == live ? nil : play(redacted, sent: live)
    }

    /// The miss: counted once, explained once (with why nothing was recorded, and the advice
    /// that fits this Turntable), logged for the test helpers, which report swallowed misses
    /// when the test ends. `sent` is the request as the code sent it and the stubs saw it
    /// (`request` may be redacted to match recorded tracks).
    func miss(_ request: Track.Request, sent: Track.Request? = nil) -> Answer {
        let live = sent ?? request
        // Why each stub passed it over: the registry's own account, asked again only on a miss.
        var attempts: [StubMissReport.Attempt] = []
        if !stubs.isEmpty || isStubber, case .unmatched(let stubReport, _) = stubs.resolve(live) {
            if isStubber {
                deck.withLock { $0.log(live) }
                return Answer(outcome: .failure(StubError.noMatchingStub(stubReport)), source: .miss)
            }
            attempts = stubReport.attempts
        }
        let report = deck.withLock { deck -> MissReport in
            deck.log(live)
            deck.misses += 1
            var report = deck.selector.missReport(for: request, vinylName: deck.vinyl.name, vinylPath: deck.file?.path)
            if let note = recorder?.whyNotRecorded {
                report.note = report.note.map { $0 + "; " + note } ?? note
            }
            if let missing = deck.missingVinyl {
                report.note = report.note.map { missing + "; " + $0 } ?? missing
            }
            report.sourcePath = deck.sourceFile?.path
            report.records = recorder != nil
            report.recordAdvice = deck.recordAdvice
            report.stubAttempts = attempts
            if deck.missLog.count < Self.missLogLimit { deck.missLog.append(report) }
            return report
        }
        return Answer(outcome: .failure(TurntableError.noMatchingTrack(report)), source: .miss)
    }
}

extension Turntable.Deck {
    /// Notes a request the Turntable was sent, under the lock its answer already takes.
    mutating func log(_ sent: Track.Request) {
        if requests.count < RequestLog.limit { requests.append(sent) }
    }

    /// Adds a freshly recorded track so later requests can match it. The request it answered
    /// counts as its first play (a play-once strategy moves on to the next track).
    mutating func appendRecorded(_ track: Track) {
        let index = self.index.append(track, played: true)
        firstRecorded = min(firstRecorded, index)
        vinyl.tracks.append(track)
        playCounts.append(1)
        heads.append(nil)
        // In track order, a track recorded at the end of the vinyl is the one just played.
        if selector.nextInOrder == index { selector.nextInOrder += 1 }
    }
}
