import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The task objects a Turntable hands out. They are URLSession's own task classes, so code that
// stores, compares or casts tasks keeps working; every property a caller can read or set is
// answered, since on Apple platforms the base classes are abstract and an unanswered one throws
// "unrecognized selector" (Vinyl's issues #13 and #74). The behaviour lives in `TaskCore`; these
// classes only forward, because data, upload and download tasks cannot share a superclass of ours.

/// How the Turntable makes its tasks. `URLSessionTask.init()` is deprecated on Apple platforms;
/// the classes' own `make(core:)` is deprecated too, so the call to it is not warned about, and
/// it is reached through this requirement, which is not deprecated.
protocol TaskMaking: URLSessionTask {
    static func make(core: TaskCore) -> Self
}

extension TaskCore {
    /// A new task of type `Task`, answered by this core.
    func makeTask<Task: TaskMaking>(_ type: Task.Type) -> Task {
        Task.make(core: self)
    }
}

/// A data task answered by a Turntable: nothing happens before `resume()`, as with URLSession.
final class TurntableDataTask: URLSessionDataTask, TaskMaking, @unchecked Sendable {
    let core: TaskCore

    // Apple's task classes are abstract: the real ones come from a URLSession. The initializer
    // is deprecated there for that reason, so it is reached only through `TaskMaking` (below).
    @available(*, deprecated, message: "made through TaskMaking.make(core:)")
    init(core: TaskCore) {
        self.core = core
        super.init()
    }

    @available(*, deprecated, message: "made through TaskMaking.make(core:)")
    static func make(core: TaskCore) -> Self {
        Self(core: core)
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
    // Settable properties: stored here, since the abstract class has no storage on Apple platforms.
    override var taskDescription: String? {
        get { core.attributes.withLock { $0.taskDescription } }
        set { core.attributes.withLock { $0.taskDescription = newValue } }
    }
    override var priority: Float {
        get { core.attributes.withLock { $0.priority } }
        set { core.attributes.withLock { $0.priority = newValue } }
    }
    override var earliestBeginDate: Date? {
        get { core.attributes.withLock { $0.earliestBeginDate } }
        set { core.attributes.withLock { $0.earliestBeginDate = newValue } }
    }
    override var countOfBytesClientExpectsToSend: Int64 {
        get { core.attributes.withLock { $0.clientExpectsToSend } }
        set { core.attributes.withLock { $0.clientExpectsToSend = newValue } }
    }
    override var countOfBytesClientExpectsToReceive: Int64 {
        get { core.attributes.withLock { $0.clientExpectsToReceive } }
        set { core.attributes.withLock { $0.clientExpectsToReceive = newValue } }
    }
    override var delegate: (any URLSessionTaskDelegate)? {
        get { core.attributes.withLock { $0.delegate } }
        set { core.attributes.withLock { $0.delegate = newValue } }
    }
    #if !canImport(FoundationNetworking)
    override var prefersIncrementalDelivery: Bool {
        get { core.attributes.withLock { $0.prefersIncrementalDelivery } }
        set { core.attributes.withLock { $0.prefersIncrementalDelivery = newValue } }
    }
    #endif
    override func resume() { core.resume(self) }
    override func cancel() { core.cancel(self) }
    /// A replayed answer has nothing to pause; the task keeps its state.
    override func suspend() {}
}

/// An upload task answered by a Turntable; its body takes part in matching.
final class TurntableUploadTask: URLSessionUploadTask, TaskMaking, @unchecked Sendable {
    let core: TaskCore

    // Apple's task classes are abstract: the real ones come from a URLSession. The initializer
    // is deprecated there for that reason, so it is reached only through `TaskMaking` (below).
    @available(*, deprecated, message: "made through TaskMaking.make(core:)")
    init(core: TaskCore) {
        self.core = core
        super.init()
    }

    @available(*, deprecated, message: "made through TaskMaking.make(core:)")
    static func make(core: TaskCore) -> Self {
        Self(core: core)
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
    // Settable properties: stored here, since the abstract class has no storage on Apple platforms.
    override var taskDescription: String? {
        get { core.attributes.withLock { $0.taskDescription } }
        set { core.attributes.withLock { $0.taskDescription = newValue } }
    }
    override var priority: Float {
        get { core.attributes.withLock { $0.priority } }
        set { core.attributes.withLock { $0.priority = newValue } }
    }
    override var earliestBeginDate: Date? {
        get { core.attributes.withLock { $0.earliestBeginDate } }
        set { core.attributes.withLock { $0.earliestBeginDate = newValue } }
    }
    override var countOfBytesClientExpectsToSend: Int64 {
        get { core.attributes.withLock { $0.clientExpectsToSend } }
        set { core.attributes.withLock { $0.clientExpectsToSend = newValue } }
    }
    override var countOfBytesClientExpectsToReceive: Int64 {
        get { core.attributes.withLock { $0.clientExpectsToReceive } }
        set { core.attributes.withLock { $0.clientExpectsToReceive = newValue } }
    }
    override var delegate: (any URLSessionTaskDelegate)? {
        get { core.attributes.withLock { $0.delegate } }
        set { core.attributes.withLock { $0.delegate = newValue } }
    }
    #if !canImport(FoundationNetworking)
    override var prefersIncrementalDelivery: Bool {
        get { core.attributes.withLock { $0.prefersIncrementalDelivery } }
        set { core.attributes.withLock { $0.prefersIncrementalDelivery = newValue } }
    }
    #endif
    override func resume() { core.resume(self) }
    override func cancel() { core.cancel(self) }
    /// A replayed answer has nothing to pause; the task keeps its state.
    override func suspend() {}

    /// A replayed upload cannot be resumed later: the handler gets nil, as URLSession gives when
    /// the server does not support resumable uploads, and the task is cancelled. Apple's SDK
    /// has this method from macOS 14 / iOS 17 (the abstract class raises when it is not
    /// overridden); Linux Foundation has none.
    #if !canImport(FoundationNetworking)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    override func cancel(byProducingResumeData completionHandler: @escaping @Sendable (Data?) -> Void) {
        // Unchecked: the handler is @Sendable; TaskCore takes the download task's Linux spelling, which is not.
        core.cancel(self, resumeDataHandler: Unchecked(completionHandler))
    }
    #endif
}

/// A download task answered by a Turntable: the body is written to a temporary file, which is
/// removed once the completion handler or `didFinishDownloadingTo` returns, as URLSession does.
final class TurntableDownloadTask: URLSessionDownloadTask, TaskMaking, @unchecked Sendable {
    let core: TaskCore

    // Apple's task classes are abstract: the real ones come from a URLSession. The initializer
    // is deprecated there for that reason, so it is reached only through `TaskMaking` (below).
    @available(*, deprecated, message: "made through TaskMaking.make(core:)")
    init(core: TaskCore) {
        self.core = core
        super.init()
    }

    @available(*, deprecated, message: "made through TaskMaking.make(core:)")
    static func make(core: TaskCore) -> Self {
        Self(core: core)
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
    // Settable properties: stored here, since the abstract class has no storage on Apple platforms.
    override var taskDescription: String? {
        get { core.attributes.withLock { $0.taskDescription } }
        set { core.attributes.withLock { $0.taskDescription = newValue } }
    }
    override var priority: Float {
        get { core.attributes.withLock { $0.priority } }
        set { core.attributes.withLock { $0.priority = newValue } }
    }
    override var earliestBeginDate: Date? {
        get { core.attributes.withLock { $0.earliestBeginDate } }
        set { core.attributes.withLock { $0.earliestBeginDate = newValue } }
    }
    override var countOfBytesClientExpectsToSend: Int64 {
        get { core.attributes.withLock { $0.clientExpectsToSend } }
        set { core.attributes.withLock { $0.clientExpectsToSend = newValue } }
    }
    override var countOfBytesClientExpectsToReceive: Int64 {
        get { core.attributes.withLock { $0.clientExpectsToReceive } }
        set { core.attributes.withLock { $0.clientExpectsToReceive = newValue } }
    }
    override var delegate: (any URLSessionTaskDelegate)? {
        get { core.attributes.withLock { $0.delegate } }
        set { core.attributes.withLock { $0.delegate = newValue } }
    }
    #if !canImport(FoundationNetworking)
    override var prefersIncrementalDelivery: Bool {
        get { core.attributes.withLock { $0.prefersIncrementalDelivery } }
        set { core.attributes.withLock { $0.prefersIncrementalDelivery = newValue } }
    }
    #endif
    override func resume() { core.resume(self) }
    override func cancel() { core.cancel(self) }
    /// A replayed answer has nothing to pause; the task keeps its state.
    override func suspend() {}

    /// A replayed download cannot be resumed later: the handler gets nil, as URLSession gives
    /// for a download that cannot resume, and the task is cancelled.
    #if canImport(FoundationNetworking)
    override func cancel(byProducingResumeData completionHandler: @escaping (Data?) -> Void) {
        core.cancel(self, resumeDataHandler: Unchecked(completionHandler))
    }
    #else
    override func cancel(byProducingResumeData completionHandler: @escaping @Sendable (Data?) -> Void) {
        core.cancel(self, resumeDataHandler: Unchecked(completionHandler))
    }
    #endif
}
