import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A handshake that went to the real network: the connection the task forwards to, and whether
/// the conversation is kept as a track.
struct LiveSide: Sendable {
    var connection: any LiveConnection
    var records: Bool
    var handshake: Track.Request
    var startedAt: Date
    var start: ContinuousClock.Instant
    var handshakeDuration: TimeInterval
    var limit: StreamLimit
    /// The limit's time, from the handshake's answer.
    var time: StreamTimeLimit

    /// Seconds since `start`: the offset of a message sent or received now.
    var elapsed: TimeInterval { (ContinuousClock.now - start) / .seconds(1) }
}

/// What a live conversation has recorded so far.
struct LiveRecording {
    var messages: [WebSocketMessage] = []
    var received = 0
    /// Sends that failed, by place in `messages`: they never crossed, so the track leaves them
    /// out (each was added as it went out, to keep its place before the server's reply).
    var failedSends: Set<Int> = []
    var finished = false
    /// Sends go out one after another, in the order the code made them.
    var lastSend: Task<Void, Never>?
    var timer: Task<Void, Never>?
}

extension TurntableWebSocketTask {
    /// Opens `connection` and forwards everything to it from now on, recording the conversation
    /// when `records`, until it closes, a `StreamLimit` stops it, or the caller cancels.
    func goLive(_ connection: any LiveConnection, handshake: Track.Request, records: Bool, limit: StreamLimit) async {
        let startedAt = Date()
        let clock = ContinuousClock.now
        do {
            try await connection.open()
        } catch {
            // A refused handshake is not recorded, as a transport error is not.
            end(with: error)
            return
        }
        let live = LiveSide(
            connection: connection, records: records, handshake: handshake, startedAt: startedAt, start: .now,
            handshakeDuration: (ContinuousClock.now - clock) / .seconds(1), limit: limit,
            time: StreamTimeLimit(limit))
        let pending = opens { state in
            state.live = live
            state.handshake = handshake
            state.driver = Task { await self.pump(live) }
            state.recording.timer = live.time.startTimer { self.stop(live, reason: live.time.reason) }
        }
        // Cancelled while connecting: close the connection it no longer wants.
        guard let pending else {
            connection.close(code: 1001, reason: nil)
            return
        }
        if records, let recorder = turntable.recorder {
            recorder.ledger.withLock { ledger in
                ledger.openConversations[ObjectIdentifier(self)] = { [weak self, weak recorder] in
                    // Not counted when it ended on its own meanwhile.
                    guard self?.finishRecording(live, end: .leftOpen(Self.ejectedWhileOpen)) == true else { return }
                    recorder?.ledger.withLock { $0.stoppedAtEject += 1 }
                }
            }
        }
        for operation in pending { operation(self) }
    }

    /// Hands the server's messages on as they arrive, recording each.
    private func pump(_ live: LiveSide) async {
        while true {
            let content: WebSocketMessage.Content?
            do {
                content = try await live.connection.receive()
            } catch {
                if live.time.isUp() { return stop(live, reason: live.time.reason) }
                await sendsSettled()
                finishRecording(live, end: .failed(Track.Failure(error)))
                end(with: error)
                return
            }
            // Received after the time was up (the timer ran late): the time stopped it first.
            if live.time.isUp() { return stop(live, reason: live.time.reason) }
            guard let content else {
                let (code, reason) = live.connection.closing ?? (1005, Data())
                // Sends racing the close fail: the track keeps only those that went out.
                await sendsSettled()
                finishRecording(live, end: .closed(code: code, reason: reason, by: .received))
                end(with: POSIXError(.ENOTCONN), closeCode: code, reason: reason)
                return
            }
            let message = WebSocketMessage(direction: .received, content: content, offset: live.elapsed)
            let stopReason = state.withLock { state -> String? in
                guard !state.recording.finished else { return nil }
                state.recording.messages.append(message)
                state.recording.received += 1
                return Self.limitReached(live.limit, by: message, count: state.recording.received)
            }
            deliver(message.taskMessage)
            if let stopReason {
                stop(live, reason: stopReason)
                return
            }
        }
    }

    /// The recording reached its `StreamLimit`: what was recorded is kept, and the connection
    /// ends there for the caller too, closed with 1001 (going away) and the limit as the reason.
    private func stop(_ live: LiveSide, reason: String) {
        finishRecording(live, end: .stopped(reason))
        let text = Self.limitCloseReason(reason)
        live.connection.close(code: 1001, reason: text)
        end(with: POSIXError(.ENOTCONN), closeCode: 1001, reason: text)
    }

    /// The reason of the close a `StreamLimit` stops a conversation with (1001, going away),
    /// live and replayed alike.
    static func limitCloseReason(_ reason: String) -> Data {
        Data("recording stopped at its StreamLimit: \(reason)".utf8)
    }

    /// Which limit `message`, the `count`th from the server, reaches: a sentinel (the whole text,
    /// or a JSON message's `"type"`, as OpenAI's realtime events carry it), or the count.
    static func limitReached(_ limit: StreamLimit, by message: WebSocketMessage, count: Int) -> String? {
        if message.kind == .text, !limit.sentinels.isEmpty {
            let text = String(decoding: message.payload, as: UTF8.self)
            var type: String?
            if let value = try? JSONParser.parse(message.payload), case .string(let found)? = value["type"] { type = found }
            if let sentinel = limit.sentinels.first(where: { $0 == text || $0 == type }) { return "sentinel \(sentinel)" }
        }
        if let maximum = limit.events, count >= maximum { return "\(maximum) message\(maximum == 1 ? "" : "s")" }
        return nil
    }

    /// Sends `message` on the live connection, recorded as sent where it goes out (before the
    /// server's reply) and left out again if the send fails: a failed send never crossed.
    func liveSend(_ message: WebSocketMessage, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        guard let live = state.withLock({ $0.live }) else { return completionHandler(POSIXError(.ENOTCONN)) }
        let content = message.content
        state.withLock { state in
            var place: Int?
            if !state.recording.finished {
                var sent = message
                sent.offset = live.elapsed
                place = state.recording.messages.count
                state.recording.messages.append(sent)
            }
            let previous = state.recording.lastSend
            state.recording.lastSend = Task {
                await previous?.value
                do {
                    try await live.connection.send(content)
                    completionHandler(nil)
                } catch {
                    if let place { self.state.withLock { _ = $0.recording.failedSends.insert(place) } }
                    // As URLSessionWebSocketTask: the send fails once the connection has ended,
                    // with its error and its close code set (the pump ends it; not awaited here,
                    // as the pump waits for sends to settle before it keeps the track).
                    Task {
                        // The pump that ends the connection has finished.
                        await self.state.withLock { $0.driver }?.value
                        let failure: any Error = self.state.withLock { $0.failure } ?? POSIXError(.ENOTCONN)
                        completionHandler(failure)
                    }
                }
            }
        }
    }

    /// Waits until every send made so far has gone out or failed.
    private func sendsSettled() async {
        await state.withLock { $0.recording.lastSend }?.value
    }

    /// Closes the live connection for real, and its recording ends with the client's close.
    func liveClose(_ live: LiveSide, code: Int, reason: Data?) {
        finishRecording(live, end: .closed(code: code, reason: reason ?? Data(), by: .sent))
        live.connection.close(code: code, reason: reason)
    }

    /// How a conversation still open at `eject()` ends in its recording.
    static let ejectedWhileOpen = "the Turntable was ejected while the conversation was open"

    /// Keeps the conversation as a new track, once, redacted as any recorded track is; false
    /// when it had already been kept.
    @discardableResult
    private func finishRecording(_ live: LiveSide, end: WebSocketConversation.End) -> Bool {
        let messages = state.withLock { state -> [WebSocketMessage]? in
            guard !state.recording.finished else { return nil }
            state.recording.finished = true
            state.recording.timer?.cancel()
            let failed = state.recording.failedSends
            if failed.isEmpty { return state.recording.messages }
            return state.recording.messages.enumerated().filter { !failed.contains($0.offset) }.map(\.element)
        }
        guard let messages else { return false }
        guard live.records, let recorder = turntable.recorder else { return true }
        _ = recorder.ledger.withLock { $0.openConversations.removeValue(forKey: ObjectIdentifier(self)) }
        let conversation = WebSocketConversation(messages: messages, end: end, endOffset: live.elapsed)
        let original = Track(request: live.handshake, outcome: .response(.webSocket(conversation)), recordedAt: live.startedAt, duration: live.handshakeDuration)
        turntable.keepRecordedConversation(original, with: recorder)
        return true
    }
}

extension Turntable {
    /// Adds a recorded conversation as a new track, redacted, to be written with the vinyl.
    func keepRecordedConversation(_ original: Track, with recorder: Recorder) {
        let track = recorder.recording.redaction.redact(original, allowing: recorder.recording.allowedSecrets)
        deck.withLock { $0.appendRecorded(track) }
        recorder.noteRecorded(original, as: track)
    }
}
