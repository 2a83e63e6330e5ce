import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The upload and download tasks `NetworkSession` hands out for a session of your own, which
// implements only the async methods: a task runs the session's async method when resumed and
// gives its outcome to the completion handler. They are URLSession's own task classes, so code
// that stores or casts tasks keeps working; every property a caller reads is answered, since on
// Apple platforms the base classes are abstract and an unanswered one raises "unrecognized
// selector". URLSession and Turntable hand out tasks of their own instead.

/// The state of one task: its run, its outcome, what it was cancelled with.
final class SessionTaskCore: @unchecked Sendable {
    // @unchecked: every stored property that changes is behind `lock`.
    private struct State {
        var state: URLSessionTask.State = .suspended
        var response: URLResponse?
        var error: (any Error)?
        var run: Task<Void, Never>?
        var taskDescription: String?
        var priority: Float = 0.5
    }

    let request: URLRequest
    let identifier: Int
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

    private func withLock<R>(_ body: (inout State) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&current)
    }

    var state: URLSessionTask.State { withLock { $0.state } }
    var response: URLResponse? { withLock { $0.response } }
    var error: (any Error)? { withLock { $0.error } }
    var taskDescription: String? {
        get { withLock { $0.taskDescription } }
        set { withLock { $0.taskDescription = newValue } }
    }
    var priority: Float {
        get { withLock { $0.priority } }
        set { withLock { $0.priority = newValue } }
    }

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

    /// Starts the work once; later calls, and calls after `cancel()`, do nothing.
    func resume() {
        withLock { state in
            guard state.state == .suspended else { return }
            state.state = .running
            state.run = Task { await self.work(self) }
        }
    }

    /// Ends the task with `URLError(.cancelled)`, whether or not it was resumed.
    func cancel() {
        let cancelled = withLock { state -> Bool in
            guard state.state == .suspended || state.state == .running else { return false }
            state.state = .canceling
            state.run?.cancel()
            return true
        }
        guard cancelled else { return }
        var info: [String: Any] = [NSLocalizedDescriptionKey: "cancelled"]
        if let url = request.url { info[NSURLErrorFailingURLErrorKey] = url }
        fail(self, URLError(.cancelled, userInfo: info))
    }

    /// Records the outcome once; false when the task already ended (cancelled), so the handler is not called twice.
    func finish(response: URLResponse?, error: (any Error)?) -> Bool {
        withLock { state in
            guard state.state != .completed else { return false }
            state.state = .completed
            state.response = error == nil ? response : nil
            state.error = error
            state.run = nil
            return true
        }
    }

    private final class Counter: @unchecked Sendable {
        // @unchecked: `value` is read and written under `lock` only.
        private let lock = NSLock()
        private var value = 0
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }
}

/// How the tasks are made. `URLSessionTask.init()` is deprecated on Apple platforms; the classes'
/// own `make(core:)` is deprecated too, so the call to it is not warned about, and it is reached
/// through this requirement, which is not deprecated.
protocol SessionTaskMaking: URLSessionTask {
    static func make(core: SessionTaskCore) -> Self
}

extension SessionTaskMaking {
    static func making(_ core: SessionTaskCore) -> Self { make(core: core) }
}

/// An upload task run by a `NetworkSession`'s `upload(for:from:)` or `upload(for:fromFile:)`.
final class SessionUploadTask: URLSessionUploadTask, SessionTaskMaking, @unchecked Sendable {
    let core: SessionTaskCore

    @available(*, deprecated, message: "made through SessionTaskMaking.make(core:)")
    init(core: SessionTaskCore) {
        self.core = core
        super.init()
    }

    @available(*, deprecated, message: "made through SessionTaskMaking.make(core:)")
    static func make(core: SessionTaskCore) -> Self { Self(core: core) }

    /// A task whose handler gets the outcome of `upload`, once. (The overrides below repeat
    /// SessionDownloadTask's: the two have different Foundation superclasses.)
    static func make(
        request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void,
        upload: @escaping @Sendable () async throws -> (Data, URLResponse)
    ) -> SessionUploadTask {
        making(.handing(request: request, to: completionHandler, work: upload))
    }

    override var originalRequest: URLRequest? { core.request }
    override var currentRequest: URLRequest? { core.request }
    override var response: URLResponse? { core.response }
    override var error: (any Error)? { core.error }
    override var state: URLSessionTask.State { core.state }
    override var taskIdentifier: Int { core.identifier }
    override var taskDescription: String? {
        get { core.taskDescription }
        set { core.taskDescription = newValue }
    }
    override var priority: Float {
        get { core.priority }
        set { core.priority = newValue }
    }
    override func resume() { core.resume() }
    override func cancel() { core.cancel() }
    /// The work runs to its end once resumed; the task keeps its state.
    override func suspend() {}
}

/// A download task run by a `NetworkSession`'s `download(for:)`; the file is removed once the
/// handler returns, as URLSession does.
final class SessionDownloadTask: URLSessionDownloadTask, SessionTaskMaking, @unchecked Sendable {
    let core: SessionTaskCore

    @available(*, deprecated, message: "made through SessionTaskMaking.make(core:)")
    init(core: SessionTaskCore) {
        self.core = core
        super.init()
    }

    @available(*, deprecated, message: "made through SessionTaskMaking.make(core:)")
    static func make(core: SessionTaskCore) -> Self { Self(core: core) }

    /// A task whose handler gets the file `download` wrote, once.
    static func make(
        request: URLRequest, completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void,
        download: @escaping @Sendable () async throws -> (URL, URLResponse)
    ) -> SessionDownloadTask {
        making(.handing(request: request, to: completionHandler, work: download) { file in try? FileManager.default.removeItem(at: file) })
    }

    override var originalRequest: URLRequest? { core.request }
    override var currentRequest: URLRequest? { core.request }
    override var response: URLResponse? { core.response }
    override var error: (any Error)? { core.error }
    override var state: URLSessionTask.State { core.state }
    override var taskIdentifier: Int { core.identifier }
    override var taskDescription: String? {
        get { core.taskDescription }
        set { core.taskDescription = newValue }
    }
    override var priority: Float {
        get { core.priority }
        set { core.priority = newValue }
    }
    override func resume() { core.resume() }
    override func cancel() { core.cancel() }
    /// The work runs to its end once resumed; the task keeps its state.
    override func suspend() {}
}
