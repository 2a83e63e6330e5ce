import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The task objects a Turntable hands out. They are URLSession's own task classes, so code that
// stores, compares or casts tasks keeps working; every property a caller can read is answered
// (Vinyl's users crashed on `currentRequest`). The behaviour lives in `TaskCore`; these
// classes only forward, because data, upload and download tasks cannot share a superclass of ours.

/// A data task answered by a Turntable: nothing happens before `resume()`, as with URLSession.
final class TurntableDataTask: URLSessionDataTask, @unchecked Sendable {
    let core: TaskCore

    init(core: TaskCore) {
        self.core = core
        super.init()
    }

    override var originalRequest: URLRequest? { core.request }
    override var currentRequest: URLRequest? { core.request }
    override var response: URLResponse? { core.locked.withLock { $0.response } }
    override var error: (any Error)? { core.locked.withLock { $0.error } }
    override var state: URLSessionTask.State { core.state }
    override var taskIdentifier: Int { core.identifier }
    override var countOfBytesReceived: Int64 { core.locked.withLock { $0.received } }
    override var countOfBytesExpectedToReceive: Int64 { core.locked.withLock { $0.expectedToReceive } }
    override var countOfBytesSent: Int64 { core.locked.withLock { $0.sent } }
    override var countOfBytesExpectedToSend: Int64 { core.locked.withLock { $0.expectedToSend } }
    override var progress: Progress { core.progress }
    override func resume() { core.resume(self) }
    override func cancel() { core.cancel(self) }
    /// A replayed answer has nothing to pause; the task keeps its state.
    override func suspend() {}
}

/// An upload task answered by a Turntable; its body takes part in matching.
final class TurntableUploadTask: URLSessionUploadTask, @unchecked Sendable {
    let core: TaskCore

    init(core: TaskCore) {
        self.core = core
        super.init()
    }

    override var originalRequest: URLRequest? { core.request }
    override var currentRequest: URLRequest? { core.request }
    override var response: URLResponse? { core.locked.withLock { $0.response } }
    override var error: (any Error)? { core.locked.withLock { $0.error } }
    override var state: URLSessionTask.State { core.state }
    override var taskIdentifier: Int { core.identifier }
    override var countOfBytesReceived: Int64 { core.locked.withLock { $0.received } }
    override var countOfBytesExpectedToReceive: Int64 { core.locked.withLock { $0.expectedToReceive } }
    override var countOfBytesSent: Int64 { core.locked.withLock { $0.sent } }
    override var countOfBytesExpectedToSend: Int64 { core.locked.withLock { $0.expectedToSend } }
    override var progress: Progress { core.progress }
    override func resume() { core.resume(self) }
    override func cancel() { core.cancel(self) }
    /// A replayed answer has nothing to pause; the task keeps its state.
    override func suspend() {}
}

/// A download task answered by a Turntable: the body is written to a temporary file, which is
/// removed once the completion handler or `didFinishDownloadingTo` returns, as URLSession does.
final class TurntableDownloadTask: URLSessionDownloadTask, @unchecked Sendable {
    let core: TaskCore

    init(core: TaskCore) {
        self.core = core
        super.init()
    }

    override var originalRequest: URLRequest? { core.request }
    override var currentRequest: URLRequest? { core.request }
    override var response: URLResponse? { core.locked.withLock { $0.response } }
    override var error: (any Error)? { core.locked.withLock { $0.error } }
    override var state: URLSessionTask.State { core.state }
    override var taskIdentifier: Int { core.identifier }
    override var countOfBytesReceived: Int64 { core.locked.withLock { $0.received } }
    override var countOfBytesExpectedToReceive: Int64 { core.locked.withLock { $0.expectedToReceive } }
    override var countOfBytesSent: Int64 { core.locked.withLock { $0.sent } }
    override var countOfBytesExpectedToSend: Int64 { core.locked.withLock { $0.expectedToSend } }
    override var progress: Progress { core.progress }
    override func resume() { core.resume(self) }
    override func cancel() { core.cancel(self) }
    /// A replayed answer has nothing to pause; the task keeps its state.
    override func suspend() {}
}
