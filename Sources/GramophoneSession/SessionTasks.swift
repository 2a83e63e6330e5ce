import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The upload and download tasks `NetworkSession` hands out for a session of your own, which
// implements only the async methods: a task runs the session's async method when resumed and
// gives its outcome to the completion handler. The task objects are the Turntable's
// (EngineTasks.swift); this engine runs them. URLSession hands out tasks of its own.

/// The engine of one such task: its run, its outcome, what it was cancelled with.
final class SessionTaskCore: TaskEngine, @unchecked Sendable {
    // @unchecked: every stored property that changes is behind `lock`.
    private struct State {
        var snapshot = TaskSnapshot()
        var run: Task<Void, Never>?
    }

    let request: URLRequest
    let identifier: Int
    let attributes = TaskAttributes()
    // Progress is thread-safe (it locks itself); a session's own task reports no bytes.
    let progress = Progress(totalUnitCount: -1)
    private let lock = NSLock()
    private var current = State()
    /// The work a resumed task runs; it ends by calling `finish`.
    private let work: @Sendable (SessionTaskCore) async -> Void
    /// Tells the caller the task failed with `error` (from `cancel()`), unless it already ended.
    private let fail: @Sendable (SessionTaskCore, any Error) -> Void

    private static let counter = Counter()

    init(request: URLRequest, fail: @escaping @Sendable (SessionTaskCore, any Error) -> Void, work: @escaping @Sendable (SessionTaskCore) async -> Void) {
        self.request = request
        self.fail = fail
        self.work = work
        identifier = Self.counter.next()
    }

    private func withLock<R>(_ body: (inout State) -> R) -> R { lock.withLock { body(&current) } }

    var snapshot: TaskSnapshot { withLock { $0.snapshot } }

    /// A core whose completion handler gets the outcome of `work` once (or the cancellation);
    /// `afterwards` runs with a successful outcome once the handler returned.
    static func handing<Value>(
        request: URLRequest, to completionHandler: @escaping @Sendable (Value?, URLResponse?, (any Error)?) -> Void,
        work: @escaping @Sendable () async throws -> (Value, URLResponse), afterwards: @escaping @Sendable (Value) -> Void = { _ in }
    ) -> SessionTaskCore {
        let fail: @Sendable (SessionTaskCore, any Error) -> Void = { core, error in
            if core.finish(response: nil, error: error) { completionHandler(nil, nil, error) }
        }
        return SessionTaskCore(request: request, fail: fail) { core in
            do {
                let (value, response) = try await work()
                if core.finish(response: response, error: nil) { completionHandler(value, response, nil) }
                afterwards(value)
            } catch {
                fail(core, error)
            }
        }
    }

    /// Starts the work once; later calls, and calls after `cancel`, do nothing.
    func resume(_ task: URLSessionTask) {
        withLock { state in
            guard state.snapshot.state == .suspended else { return }
            state.snapshot.state = .running
            state.run = Task { await self.work(self) }
        }
    }

    /// Ends the task with `URLError(.cancelled)`, whether or not it was resumed.
    func cancel(_ task: URLSessionTask) {
        let cancelled = withLock { state -> Bool in
            guard state.snapshot.state == .suspended || state.snapshot.state == .running else { return false }
            state.snapshot.state = .canceling
            state.run?.cancel()
            return true
        }
        guard cancelled else { return }
        var info: [String: Any] = [NSLocalizedDescriptionKey: "cancelled"]
        if let url = request.url { info[NSURLErrorFailingURLErrorKey] = url }
        fail(self, URLError(.cancelled, userInfo: info))
    }

    /// Cancels the task; the handler gets nil: the session's async method leaves nothing to resume.
    func cancel(_ task: URLSessionTask, resumeDataHandler: @escaping @Sendable (Data?) -> Void) {
        cancel(task)
        resumeDataHandler(nil)
    }

    /// Records the outcome once; false when the task already ended (cancelled), so the handler is not called twice.
    func finish(response: URLResponse?, error: (any Error)?) -> Bool {
        withLock { state in
            guard state.snapshot.state != .completed else { return false }
            state.snapshot.state = .completed
            state.snapshot.response = error == nil ? response : nil
            state.snapshot.error = error
            state.run = nil
            return true
        }
    }

    private final class Counter: @unchecked Sendable {
        // @unchecked: `value` is read and written under `lock` only.
        private let lock = NSLock()
        private var value = 0
        func next() -> Int {
            lock.withLock {
                value += 1
                return value
            }
        }
    }
}
