import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Turntable's WebSocket task: the handshake answered as any request, then a conversation
/// played back (a recorded one, in causal order) with what the code sends checked against it.
///
/// Everything it knows is in one locked state; handlers and continuations are called outside
/// the lock. Server messages are delivered by one driver task, in order, so receives made at
/// once (several completion handlers, say) are answered in the order they were made.
final class TurntableWebSocketTask: WebSocketTask {
    typealias Message = URLSessionWebSocketTask.Message
    typealias Receiver = @Sendable (Result<Message, any Error>) -> Void

    let turntable: Turntable
    let request: URLRequest
    let state = Locked(State())

    enum Phase {
        case suspended, opening, open, ended
    }

    struct State {
        var phase = Phase.suspended
        /// Sends and pings made before the connection opened, run in order once it has.
        var pending: [@Sendable (TurntableWebSocketTask) -> Void] = []
        /// Server messages due but not yet received: `inbox[inboxHead...]`. Read from an index, as
        /// `removeFirst()` moves every message behind the first: quadratic for a burst of pushes.
        var inbox: [Message] = []
        var inboxHead = 0
        /// Receives waiting for a message, oldest first.
        var receivers: [Receiver] = []
        /// What every operation gets once the inbox is empty and the connection has ended: the
        /// close, a miss, the error it broke off with.
        var failure: (any Error)?
        var schedule = ConversationSchedule(WebSocketConversation(messages: []), scale: { $0 })
        /// How recorded gaps become delays, for a conversation chosen anew (ConversationRebinding.swift).
        var scale: @Sendable (TimeInterval) -> TimeInterval = { $0 }
        /// How JSON messages compare: the matching strategy's body comparison (its `ignoring:`).
        var comparison = JSONComparison()
        /// The strategy's echoes, and the messages the code sent, kept only when there are echoes:
        /// a server message takes values from the client message it answers (MessageEchoes.swift).
        var echoes: [Echo] = []
        var liveSent: [WebSocketMessage] = []
        /// The handshake as sent, and the track that answered it, for miss reports.
        var handshake: Track.Request?
        var trackIndex: Int?
        /// Client messages matched so far, and when each was sent.
        var sentTimes: [ContinuousClock.Instant] = []
        var openedAt = ContinuousClock.now
        /// The driver, waiting until the client has sent `gate` messages.
        var gateWaiter: (gate: Int, continuation: CheckedContinuation<ContinuousClock.Instant?, Never>)?
        var driver: Task<Void, Never>?
        /// Set when every message is due as soon as its gate is met (`.immediate`): no driver then;
        /// the opening and each matched send hand over what they make due. Either way, the steps
        /// from `nextStep` on are those not yet delivered.
        var playsAtOnce = false
        var nextStep = 0
        var conversationEnd = WebSocketConversation.End.cancelled
        var closeCode = 0
        var closeReason: Data?
        /// Set when the handshake went to the real network (TurntableWebSocketTask+Live.swift).
        var live: LiveSide?
        /// `live != nil`, read on every send: comparing the optional with nil copies a `LiveSide`.
        var isLive: Bool {
            if case .some = live { return true }
            return false
        }
        var recording = LiveRecording()
        /// Set for a stub's scripted conversation: what it answers, and the messages sent so far.
        var script: WebSocketScript?
        var scriptedSends = 0
    }

    init(turntable: Turntable, request: URLRequest) {
        self.turntable = turntable
        self.request = request
    }

    // MARK: Opening

    func resume() {
        let starts = state.withLock { state -> Bool in
            guard state.phase == .suspended else { return false }
            state.phase = .opening
            return true
        }
        guard starts else { return }
        Task { await self.open() }
    }

    private func open() async {
        let live: Track.Request
        do {
            live = try Track.Request(request)
        } catch {
            end(with: error)
            return
        }
        let answer = await turntable.answer(live, through: .webSocket)
        await turntable.waitForPlayback(of: answer)
        let conversation: WebSocketConversation?
        switch answer.source {
        case .track(let index, _):
            state.withLock { $0.trackIndex = index }
            conversation = turntable.deck.withLock { deck in
                deck.noteSent(0, onTrack: index)
                return deck.index.tracks.indices.contains(index) ? deck.index.tracks[index].response?.conversation : nil
            }
        case .stub:
            if let script = answer.webSocketScript, case .success(let (head, _)) = answer.outcome, head.statusCode == 101 {
                playScript(script, handshake: live)
                return
            }
            conversation = answer.conversation
        case .miss:
            conversation = nil
        case .network:
            guard case .failure(let going as LiveWebSocket) = answer.outcome, let recorder = turntable.recorder else {
                end(with: URLError(.unsupportedURL, userInfo: [NSURLErrorFailingURLErrorKey: live.url]))
                return
            }
            await goLive(recorder.liveConnection(for: live), handshake: live, records: going.records, limit: recorder.recording.streamLimit)
            return
        }
        let response: HTTPURLResponse
        do { response = try answer.outcome.get().0 } catch { return end(with: error) }
        guard response.statusCode == 101, let conversation else {
            // Printed: the URL as the recording redacts it, never with its live credential.
            let (redaction, allowed) = turntable.replayRedaction
            let shown = redaction.redact(live, allowing: allowed).url
            let problem = "the handshake for \(shown.absoluteString) was answered with status \(response.statusCode) and no WebSocket conversation; a WebSocket track answers 101 and holds one"
            return end(with: Track.Failure(.badServerResponse, description: problem).makeError(for: live.url))
        }
        play(conversation, handshake: live, scale: turntable.conversationScale(stubbed: answer.trackIndex == nil))
    }

    /// Opens the connection on `conversation` and starts delivering the server's side of it.
    private func play(_ conversation: WebSocketConversation, handshake: Track.Request, scale: @escaping @Sendable (TimeInterval) -> TimeInterval) {
        let schedule = ConversationSchedule(conversation, scale: scale)
        let strategy = turntable.matching
        let comparison = MessageComparison.json(of: strategy)
        let echoes = strategy.echoes
        // With no wait anywhere, a driver task would only hand each message from one thread to
        // another (two task switches a message: benchmark 10 in BENCHMARKS.md).
        let atOnce = schedule.steps.allSatisfy { $0.delay == 0 }
        let pending = opens { state in
            state.schedule = schedule
            state.handshake = handshake
            state.openedAt = .now
            state.conversationEnd = conversation.end
            state.playsAtOnce = atOnce
            state.scale = scale
            state.comparison = comparison
            state.echoes = echoes
            if !atOnce { state.driver = Task { await self.drive() } }
        }
        if atOnce { handOverDue() }
        for operation in pending ?? [] { operation(self) }
    }

    /// Opens the connection on a stub's script: its pushes at once, its replies as messages come.
    private func playScript(_ script: WebSocketScript, handshake: Track.Request) {
        let pending = opens { state in
            state.script = script
            state.handshake = handshake
        }
        for push in script.pushes { deliver(WebSocketMessage(direction: .received, content: push, offset: 0).taskMessage) }
        if let close = script.close, close.after == 0 { end(with: POSIXError(.ENOTCONN), closeCode: close.code, reason: Data(close.reason.utf8)) }
        for operation in pending ?? [] { operation(self) }
    }

    /// Moves an opening connection to open, set up by `setUp` under the same lock: the
    /// operations made before it opened, to run now in order; nil when it ended meanwhile.
    func opens(_ setUp: (inout State) -> Void) -> [@Sendable (TurntableWebSocketTask) -> Void]? {
        state.withLock { state in
            guard state.phase == .opening else { return nil }
            state.phase = .open
            setUp(&state)
            defer { state.pending = [] }
            return state.pending
        }
    }

    // MARK: The server's side

    /// Delivers the schedule's steps in turn, each once its gate is met and its delay passed.
    /// Steps are read from the state by place, not from a copy: a conversation chosen anew while
    /// it plays (ConversationRebinding.swift) has the same steps up to what was sent.
    private func drive() async {
        var last = state.withLock { $0.openedAt }
        while true {
            guard let waitFor = state.withLock({ $0.nextStep < $0.schedule.steps.count ? $0.schedule.steps[$0.nextStep].gate : nil }) else { return }
            guard let gateTime = await sends(waitFor) else { return }
            // Read again: a conversation chosen anew while waiting may have another step here.
            guard let step = state.withLock({ $0.nextStep < $0.schedule.steps.count ? $0.schedule.steps[$0.nextStep] : nil }) else { return }
            if step.gate > waitFor { continue }
            if step.delay > 0 {
                let due = max(gateTime, last) + .nanoseconds(Int64(step.delay * 1_000_000_000))
                do { try await Task.sleep(until: due, clock: .continuous) } catch { return }
            }
            let message = state.withLock { state in
                state.nextStep += 1
                return step.message.map { state.echoing($0, gate: step.gate) }
            }
            if let message {
                if message.echoed { turntable.deck.withLock { $0.echoed += 1 } }
                deliver(message.message.taskMessage)
            } else {
                finish(as: state.withLock { $0.conversationEnd })
                return
            }
            last = .now
        }
    }

    /// Ends the connection as the recording did: the server's close, or the error it broke off with.
    private func finish(as end: WebSocketConversation.End) {
        switch end {
        case .closed(let code, let reason, _): self.end(with: POSIXError(.ENOTCONN), closeCode: code, reason: reason)
        case .failed(let failure): self.end(with: failure.makeError(for: request.url))
        // The recorder's close at the limit, as the code under test got it live.
        case .stopped(let reason): self.end(with: POSIXError(.ENOTCONN), closeCode: 1001, reason: Self.limitCloseReason(reason))
        case .cancelled, .leftOpen: break
        }
    }

    /// A conversation played at once: hands over the server messages whose gate the client has
    /// met, in order, and the server's end after them. Taken off the schedule and paired with
    /// waiting receives under one lock, so sends racing each other cannot reorder them.
    private func handOverDue() {
        let (handed, ending, echoed) = state.withLock { state -> ([(Receiver, Message)], WebSocketConversation.End?, Int) in
            var handed: [(Receiver, Message)] = []
            var echoed = 0
            guard state.phase == .open, state.playsAtOnce else { return (handed, nil, echoed) }
            while state.nextStep < state.schedule.steps.count, state.schedule.steps[state.nextStep].gate <= state.sentTimes.count {
                let step = state.schedule.steps[state.nextStep]
                state.nextStep += 1
                guard let recorded = step.message else { return (handed, state.conversationEnd, echoed) }
                // Without echoes the recorded message goes as it is, with no copy on the way.
                let due = state.echoes.isEmpty ? (message: recorded, echoed: false) : state.echoing(recorded, gate: step.gate)
                if due.echoed { echoed += 1 }
                let message = due.message.taskMessage
                if let receiver = state.receiver(for: message) { handed.append((receiver, message)) }
            }
            return (handed, nil, echoed)
        }
        if echoed > 0 { turntable.deck.withLock { $0.echoed += echoed } }
        for (receiver, message) in handed { receiver(.success(message)) }
        if let ending { finish(as: ending) }
    }

    /// Waits until the client has sent `gate` messages; the time the last of them was sent (the
    /// opening for none), or nil once the connection has ended.
    private func sends(_ gate: Int) async -> ContinuousClock.Instant? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> ContinuousClock.Instant?? in
                if state.phase == .ended { return .some(nil) }
                if state.sentTimes.count >= gate { return gate == 0 ? state.openedAt : state.sentTimes[gate - 1] }
                state.gateWaiter = (gate, continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func deliver(_ message: Message) {
        let receiver = state.withLock { $0.phase == .open ? $0.receiver(for: message) : nil }
        receiver?(.success(message))
    }

    /// Ends the connection: every waiting receive, and every operation after, gets `error`.
    func end(with error: any Error, closeCode: Int? = nil, reason: Data? = nil) {
        let (receivers, waiter, driver, pending) = state.withLock {
            state -> ([Receiver], CheckedContinuation<ContinuousClock.Instant?, Never>?, Task<Void, Never>?, [@Sendable (TurntableWebSocketTask) -> Void]) in
            guard state.phase != .ended else { return ([], nil, nil, []) }
            state.phase = .ended
            state.failure = error
            if let closeCode {
                state.closeCode = closeCode
                state.closeReason = reason.flatMap { $0.isEmpty ? nil : $0 }
            }
            defer {
                state.receivers = []
                state.gateWaiter = nil
                state.pending = []
            }
            return (state.receivers, state.gateWaiter?.continuation, state.driver, state.pending)
        }
        waiter?.resume(returning: nil)
        // The driver may be the caller (a server close): cancelling it then changes nothing.
        driver?.cancel()
        for receiver in receivers { receiver(.failure(error)) }
        for operation in pending { operation(self) }
    }

    // MARK: WebSocketTask

    func send(_ message: Message, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        enum Outcome {
            case later, live
            case scripted([WebSocketMessage.Content], (Int, Data)?)
            case failed(any Error)
            // Boxed: a miss is rare and large, and every send copies the outcome out of the lock.
            indirect case miss(ConversationMiss, Track.Request, [String], Int)
            case matched(CheckedContinuation<ContinuousClock.Instant?, Never>?, ContinuousClock.Instant, (track: Int, sent: Int)?)
        }
        let outcome = state.withLock { state -> Outcome in
            switch state.phase {
            case .suspended, .opening:
                state.pending.append { $0.send(message, completionHandler: completionHandler) }
                return .later
            case .ended:
                return .failed(state.failure ?? POSIXError(.ENOTCONN))
            case .open where state.isLive:
                return .live
            case .open where state.script != nil:
                state.scriptedSends += 1
                let replies = state.script?.replies(to: WebSocketMessage(message)) ?? []
                let close = state.script?.close.flatMap { $0.after == state.scriptedSends ? ($0.code, Data($0.reason.utf8)) : nil }
                return .scripted(replies, close)
            case .open:
                let position = state.sentTimes.count
                let expected = state.schedule.expected
                let recorded = position < expected.count ? expected[position] : nil
                // A message sent as recorded is compared in place: no copy of it is made.
                if recorded?.hasContent(of: message) != true {
                    let sent = WebSocketMessage(message)
                    let differences = recorded.map { self.differences(sent: sent, recorded: $0, handshake: state.handshake, json: state.comparison) } ?? []
                    // One more than the recording has, where the recorded connection ended from the
                    // far side after its last message (a send that raced the server's close failed,
                    // and was not recorded): it fails as that one did, once the end comes.
                    if recorded == nil, state.schedule.endsAfterLastSend {
                        state.pending.append { $0.send(message, completionHandler: completionHandler) }
                        return .later
                    }
                    guard recorded != nil, differences.isEmpty else {
                        var miss = ConversationMiss(trackIndex: state.trackIndex, position: position + 1, sent: sent, recorded: recorded, recordedCount: expected.count)
                        if recorded != nil { miss.place = state.schedule.expectedPlaces[position] }
                        return .miss(miss, state.handshake ?? Track.Request(url: request.url ?? URL(fileURLWithPath: "/")), differences, position)
                    }
                }
                let now = ContinuousClock.now
                state.sentTimes.append(now)
                if !state.echoes.isEmpty { state.liveSent.append(WebSocketMessage(message)) }
                let progress = state.trackIndex.map { (track: $0, sent: state.sentTimes.count) }
                guard let waiter = state.gateWaiter, waiter.gate <= state.sentTimes.count else { return .matched(nil, now, progress) }
                state.gateWaiter = nil
                return .matched(waiter.continuation, now, progress)
            }
        }
        switch outcome {
        case .later: return
        case .live: liveSend(WebSocketMessage(message), completionHandler: completionHandler)
        case .scripted(let replies, let close):
            completionHandler(nil)
            for reply in replies { deliver(WebSocketMessage(direction: .received, content: reply, offset: 0).taskMessage) }
            if let (code, reason) = close { end(with: POSIXError(.ENOTCONN), closeCode: code, reason: reason) }
        case .failed(let error): completionHandler(error)
        case .matched(let waiter, let time, let progress):
            // Counted for `playback.unfinishedConversations`: a message never sent is unplayed.
            if let progress { turntable.deck.withLock { $0.noteSent(progress.sent, onTrack: progress.track) } }
            waiter?.resume(returning: time)
            handOverDue()
            completionHandler(nil)
        case .miss(let miss, let handshake, let differences, let position):
            // Another recorded conversation on an equal handshake may have this message here.
            if rebind(sending: miss.sent, at: position) { return send(message, completionHandler: completionHandler) }
            let error = turntable.conversationMissed(miss, handshake: handshake, differences: differences)
            end(with: error)
            completionHandler(error)
        }
    }

    nonisolated(nonsending) func send(_ message: Message) async throws {
        let error: (any Error)? = await withCheckedContinuation { continuation in
            send(message) { continuation.resume(returning: $0) }
        }
        if let error { throw error }
    }

    func receive(completionHandler: @escaping Receiver) {
        let outcome = state.withLock { state -> Result<Message, any Error>? in
            if let message = state.takeFromInbox() { return .success(message) }
            if state.phase == .ended { return .failure(state.failure ?? POSIXError(.ENOTCONN)) }
            state.receivers.append(completionHandler)
            return nil
        }
        if let outcome { completionHandler(outcome) }
    }

    nonisolated(nonsending) func receive() async throws -> Message {
        // A message already due needs no continuation (two allocations and a suspension each).
        // The inbox is empty while completion handlers wait, so this cannot jump ahead of them.
        if let message = state.withLock({ $0.takeFromInbox() }) { return message }
        return try await withCheckedThrowingContinuation { continuation in
            receive { continuation.resume(with: $0) }
        }
    }

    func sendPing(pongReceiveHandler: @escaping @Sendable ((any Error)?) -> Void) {
        // A replay answers at once; a live connection pings for real.
        let (outcome, live) = state.withLock { state -> ((any Error)??, LiveSide?) in
            switch state.phase {
            case .suspended, .opening:
                state.pending.append { $0.sendPing(pongReceiveHandler: pongReceiveHandler) }
                return (nil, nil)
            case .open: return (state.live == nil ? .some(nil) : nil, state.live)
            case .ended: return (.some(state.failure ?? POSIXError(.ENOTCONN)), nil)
            }
        }
        if let outcome { return pongReceiveHandler(outcome) }
        guard let live else { return }
        Task {
            do {
                try await live.connection.ping()
                pongReceiveHandler(nil)
            } catch {
                pongReceiveHandler(error)
            }
        }
    }

    func cancel(with closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?) {
        cancel(withCloseCodeValue: closeCode.rawValue, reason: reason)
    }

    func cancel(withCloseCodeValue code: Int, reason: Data?) {
        if let live = state.withLock({ $0.phase == .open ? $0.live : nil }) { liveClose(live, code: code, reason: reason) }
        end(with: POSIXError(.ENOTCONN), closeCode: code, reason: reason)
    }

    var closeCode: URLSessionWebSocketTask.CloseCode {
        URLSessionWebSocketTask.CloseCode(rawValue: closeCodeValue) ?? .invalid
    }

    var closeCodeValue: Int { state.withLock { $0.closeCode } }

    var closeReason: Data? { state.withLock { $0.closeReason } }
}

extension TurntableWebSocketTask.State {
    /// The oldest waiting receive, which `message` goes to; nil when none waits, and the
    /// message waits in the inbox.
    mutating func receiver(for message: URLSessionWebSocketTask.Message) -> TurntableWebSocketTask.Receiver? {
        if receivers.isEmpty {
            inbox.append(message)
            return nil
        }
        return receivers.removeFirst()
    }

    /// The oldest message not yet received, if any.
    mutating func takeFromInbox() -> URLSessionWebSocketTask.Message? {
        guard inboxHead < inbox.count else { return nil }
        let message = inbox[inboxHead]
        inboxHead += 1
        // Drop what was read once all of it has been, or once it is most of the array (so a
        // client that never catches up does not keep every message).
        if inboxHead == inbox.count {
            inbox.removeAll(keepingCapacity: true)
            inboxHead = 0
        } else if inboxHead >= 64, inboxHead * 2 >= inbox.count {
            inbox.removeFirst(inboxHead)
            inboxHead = 0
        }
        return message
    }
}

extension WebSocketMessage {
    /// The message as `URLSessionWebSocketTask` delivers it.
    var taskMessage: URLSessionWebSocketTask.Message {
        switch kind {
        case .text: return .string(String(decoding: payload, as: UTF8.self))
        case .binary: return .data(payload)
        }
    }

    /// Whether `message` has this message's kind and payload, compared without copying it.
    func hasContent(of message: URLSessionWebSocketTask.Message) -> Bool {
        switch message {
        case .string(var text):
            return kind == .text
                && text.withUTF8 { text in
                    payload.withUnsafeBytes { recorded in text.count == recorded.count && (text.isEmpty || memcmp(text.baseAddress!, recorded.baseAddress!, text.count) == 0) }
                }
        case .data(let data): return kind == .binary && data == payload
        @unknown default: return false
        }
    }

    /// A message the client sends, as the recording has it.
    init(_ message: URLSessionWebSocketTask.Message, direction: Direction = .sent, offset: TimeInterval = 0) {
        switch message {
        case .string(var text):
            // Copied from the String's UTF-8 buffer: `Data(text.utf8)` takes Data's generic
            // sequence path, which casts dynamically first (a tenth of a replayed exchange's CPU).
            self.init(direction: direction, kind: .text, payload: text.withUTF8 { Data(buffer: $0) }, offset: offset)
        case .data(let data): self.init(direction: direction, kind: .binary, payload: data, offset: offset)
        @unknown default: self.init(direction: direction, kind: .binary, payload: Data(), offset: offset)
        }
    }
}
