import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a Turntable task sends.
enum TaskKind: Sendable {
    case data
    case upload(UploadSource)
    case download
}

/// An upload's body: given bytes, or a file read when the task starts.
enum UploadSource: Sendable {
    case data(Data)
    case file(URL)

    func read() throws -> Data {
        switch self {
        case .data(let data): return data
        case .file(let url): return try readUploadFile(url)
        }
    }
}

/// Who hears the end of a task: its completion handler, or else its delegates (its own, then the Turntable's).
enum TaskCompletion: Sendable {
    case delegate
    case data(@Sendable (Data?, URLResponse?, (any Error)?) -> Void)
    case download(@Sendable (URL?, URLResponse?, (any Error)?) -> Void)
}

/// The engine shared by the Turntable's data, upload and download tasks: their state, their
/// counters and the sequence of calls a URLSession makes. Each task class forwards to it.
final class TaskCore: TaskEngine {
    struct State {
        var snapshot = TaskSnapshot()
        var cancelRequested = false
        var driver: Task<Void, Never>?
    }

    let turntable: Turntable
    let request: URLRequest
    let kind: TaskKind
    let completion: TaskCompletion
    let identifier: Int
    let locked = Locked(State())
    /// What callers may set on a task (`taskDescription`, `priority`…).
    let attributes = TaskAttributes()
    // Progress is thread-safe (it locks itself); it is written outside `locked`, because on
    // Apple platforms its KVO observers run synchronously and may read the task.
    private let progressBox = Unchecked(Progress(totalUnitCount: -1))
    var progress: Progress { progressBox.value }

    init(turntable: Turntable, request: URLRequest, kind: TaskKind, completion: TaskCompletion) {
        self.turntable = turntable
        self.request = request
        self.kind = kind
        self.completion = completion
        identifier = turntable.nextTaskIdentifier()
        if case .upload(.data(let body)) = kind {
            locked.withLock { $0.snapshot.expectedToSend = Int64(body.count) }
        }
    }

    var snapshot: TaskSnapshot { locked.withLock { $0.snapshot } }

    /// Starts the task once; later calls, and calls after `cancel`, do nothing.
    func resume(_ task: URLSessionTask) {
        let box = Unchecked(task)
        change(task, ["state"]) { state in
            guard state.snapshot.state == .suspended, !state.cancelRequested else { return }
            state.snapshot.state = .running
            // The task's place is taken now, not when its driver happens to start: tasks
            // resumed in a row choose tracks, and complete, in that order (Exchange/ResumeOrder.swift).
            let turn = turntable.order.taskPlace()
            state.driver = Task { await self.run(box.value, turn: turn) }
        }
    }

    /// Ends the task with `URLError(.cancelled)`, whether or not it was resumed.
    func cancel(_ task: URLSessionTask) {
        let box = Unchecked(task)
        change(task, ["state"]) { state in
            guard state.snapshot.state == .suspended || state.snapshot.state == .running else { return }
            state.cancelRequested = true
            let neverStarted = state.snapshot.state == .suspended
            state.snapshot.state = .canceling
            if neverStarted {
                // URLSession reports a cancelled task even when it was never resumed.
                state.driver = Task { await self.finish(box.value, error: self.cancellationError) }
            } else {
                state.driver?.cancel()
            }
        }
    }

    /// `cancel(byProducingResumeData:)`: a replayed download has no resume data, so the
    /// handler gets nil (on the delegate queue, as URLSession calls it) and the task is cancelled.
    func cancel(_ task: URLSessionTask, resumeDataHandler: @escaping @Sendable (Data?) -> Void) {
        cancel(task)
        turntable.delegateQueue.addOperation { resumeDataHandler(nil) }
    }

    /// Changes the state under the lock, telling key-value observers of `keys` around it on
    /// Apple platforms (outside the lock: observers run synchronously and may read the task).
    @discardableResult
    func change<R>(_ task: URLSessionTask, _ keys: [String], _ body: (inout State) -> R) -> R {
        #if !canImport(FoundationNetworking)
        for key in keys { task.willChangeValue(forKey: key) }
        defer { for key in keys.reversed() { task.didChangeValue(forKey: key) } }
        #endif
        return locked.withLock(body)
    }

    private var cancelRequested: Bool { locked.withLock { $0.cancelRequested } }

    var cancellationError: URLError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: "cancelled"]
        if let url = request.url {
            info[NSURLErrorFailingURLErrorKey] = url
            // NSURLErrorFailingURLStringKey's value; the constant is missing on Linux.
            info["NSErrorFailingURLStringKey"] = url.absoluteString
        }
        return URLError(.cancelled, userInfo: info)
    }

    // MARK: The run

    private func run(_ task: URLSessionTask, turn: Turn) async {
        // However the run ends, its place in both lines ends with it.
        defer { turn.goesLive() }
        let delegation = turntable.delegation(for: completion, task: task)
        let outcome: Result<(HTTPURLResponse, Data), any Error>
        var plan: StreamPlan?
        do {
            var live = try Track.Request(request)
            if case .upload(let source) = kind {
                // Upload bodies take part in matching: they become the request's body.
                live.body = try source.read()
                let count = Int64(live.body.count)
                change(task, ["countOfBytesSent", "countOfBytesExpectedToSend"]) {
                    $0.snapshot.sent = count; $0.snapshot.expectedToSend = count
                }
                if count > 0, let delegation {
                    await delegation.perform { delegation.didSendBodyData(task, count, count, count) }
                }
            }
            // Redirects are followed as URLSession follows them, asking the delegates if there are any.
            let asked = turntable.redirectDelegation(for: task)
            let answer = await turntable.answerFollowingRedirects(live, turn: turn) { response, next in
                guard let asked else { return next }
                return await asked.willPerformRedirection(task, response, next)
            }
            if case .success(let (_, body)) = answer.outcome, let url = request.url { plan = turntable.streamPlan(for: answer, body: body, url: url) }
            // An answer due at once completes after the tasks resumed before it; one held back
            // (timing, a stub's condition, the network) completes when it is due.
            let fromNetwork = { if case .network = answer.source { true } else { false } }()
            if fromNetwork || turntable.playbackDelay(for: answer) > 0 || plan?.pieces.contains(where: { $0.delay > 0 }) == true { turn.endCompleting() }
            await turntable.waitForPlayback(of: answer)
            outcome = answer.outcome
        } catch {
            outcome = .failure(error)
        }
        turn.endChoosing()
        if cancelRequested {
            turn.endCompleting()
            return await finish(task, error: cancellationError)
        }
        await turn.waitToComplete()
        switch outcome {
        case .failure(let error):
            await finish(task, error: error)
        case .success(let (response, body)):
            change(task, ["response", "countOfBytesExpectedToReceive"]) { state in
                state.snapshot.response = response
                state.snapshot.expectedToReceive = Int64(body.count)
            }
            progress.totalUnitCount = Int64(body.count)
            await deliver(task, response, body, delegation, plan)
        }
    }

    /// Hands the body over as the task's kind does; a streamed body (`plan`) piece by piece to
    /// a data delegate, or whole once its last piece is due, ending with its error if it broke off.
    private func deliver(_ task: URLSessionTask, _ response: HTTPURLResponse, _ body: Data, _ delegation: Delegation?, _ plan: StreamPlan?) async {
        // Only a task that reports to its delegates has a delegation.
        if let plan, delegation == nil || isDownload {
            if plan.totalDelay > 0 { try? await Task.sleep(nanoseconds: UInt64(plan.totalDelay * 1_000_000_000)) }
            if cancelRequested { return await finish(task, error: cancellationError) }
            if let ending = plan.ending { return await finish(task, error: ending) }
        }
        // A download's body goes to a file first, for its handler or its delegates; a task with
        // neither only completes.
        let heard = delegation != nil || { if case .delegate = completion { false } else { true } }()
        let file: URL?
        do { file = isDownload && heard ? try writeDownloadFile(body) : nil } catch { return await finish(task, error: error) }
        guard case .delegate = completion, let delegation else {
            received(body.count, by: task)
            return await finish(task, error: nil, data: body, file: file)
        }
        if let file {
            for chunk in Self.chunks(of: body, size: turntable.bodyChunkSize) {
                if cancelRequested { break }
                let total = received(chunk.count, by: task)
                await delegation.perform { delegation.didWriteData(task, Int64(chunk.count), total, Int64(body.count)) }
            }
            if cancelRequested { try? FileManager.default.removeItem(at: file); return await finish(task, error: cancellationError) }
            // As URLSession does, the file is gone once the delegate method returns.
            await delegation.perform {
                delegation.didFinishDownloading(task, to: file)
                try? FileManager.default.removeItem(at: file)
            }
            return await finish(task, error: nil)
        }
        let disposition = await delegation.didReceiveResponse(task, response)
        guard disposition != .cancel, !cancelRequested else { return await finish(task, error: cancellationError) }
        // A streamed body's pieces each fall due at their time from now, however long the
        // delegate took with the one before; any other body goes in chunks at once.
        let due = plan?.dueTimes(from: .now)
        for (index, piece) in (plan?.pieces.map(\.data) ?? Self.chunks(of: body, size: turntable.bodyChunkSize)).enumerated() {
            if let due { try? await Task.sleep(until: due[index], clock: .continuous) }
            if cancelRequested { return await finish(task, error: cancellationError) }
            received(piece.count, by: task)
            await delegation.perform { delegation.didReceiveData(task, piece) }
        }
        await finish(task, error: plan?.ending)
    }

    private var isDownload: Bool {
        if case .download = kind { return true }
        return false
    }

    /// Counts `count` more bytes received; returns the total.
    @discardableResult
    private func received(_ count: Int, by task: URLSessionTask) -> Int64 {
        let total = change(task, ["countOfBytesReceived"]) { state in
            state.snapshot.received += Int64(count)
            return state.snapshot.received
        }
        progress.completedUnitCount = total
        return total
    }

    /// Completes the task once: records the error, marks it completed and tells the
    /// completion handler or the delegate, on the delegate queue.
    func finish(_ task: URLSessionTask, error: (any Error)?, data: Data? = nil, file: URL? = nil) async {
        let ended = change(task, ["state", "error"]) { state -> (response: URLResponse?, received: Int64)? in
            guard state.snapshot.state != .completed else { return nil }
            state.snapshot.state = .completed
            state.snapshot.error = error
            state.driver = nil
            // As URLSession documents it: the response once one arrived, whether the task then
            // succeeded or failed (a transfer that broke off after its response).
            return (state.snapshot.response, state.snapshot.received)
        }
        guard let (response, received) = ended else { return }
        if error == nil, progress.totalUnitCount < 0 {
            progress.totalUnitCount = received
            progress.completedUnitCount = received
        }
        let queue = turntable.delegateQueue
        switch completion {
        case .data(let handler):
            await Self.perform(on: queue) { handler(error == nil ? (data ?? Data()) : nil, response, error) }
        case .download(let handler):
            await Self.perform(on: queue) {
                handler(file, response, error)
                if let file { try? FileManager.default.removeItem(at: file) }
            }
        case .delegate:
            guard let delegation = turntable.delegation(for: completion, task: task) else { return }
            await delegation.perform { delegation.didComplete(task, error: error) }
        }
    }

    // MARK: Helpers

    static func perform(on queue: OperationQueue, _ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.addOperation {
                body()
                continuation.resume()
            }
        }
    }

    static func chunks(of body: Data, size: Int) -> [Data] {
        guard body.count > size else { return body.isEmpty ? [] : [body] }
        return stride(from: body.startIndex, to: body.endIndex, by: size).map { start in
            body.subdata(in: start..<min(start + size, body.endIndex))
        }
    }
}
