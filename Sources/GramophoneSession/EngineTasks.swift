import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The task objects a Turntable and a `NetworkSession` of your own hand out. They are
// URLSession's own task classes, so code that stores, compares or casts tasks keeps working;
// every property a caller can read or set is answered, since on Apple platforms the base classes
// are abstract and an unanswered one raises "unrecognized selector" (Vinyl's issues #13 and #74).
// The behaviour lives in a `TaskEngine`; these classes only forward to it, one class per
// Foundation superclass, since data, upload and download tasks cannot share a superclass of ours.

/// What runs a task: its state, counters and the calls a URLSession makes (the Turntable's
/// `TaskCore`, or `SessionTaskCore` for a session that implements only the async methods).
package protocol TaskEngine: AnyObject, Sendable {
    var request: URLRequest { get }
    var identifier: Int { get }
    /// The task's state and counters as they are now.
    var snapshot: TaskSnapshot { get }
    var attributes: TaskAttributes { get }
    var progress: Progress { get }
    func resume(_ task: URLSessionTask)
    func cancel(_ task: URLSessionTask)
    /// Cancels the task; the handler gets nil (a replayed transfer has no resume data).
    func cancel(_ task: URLSessionTask, resumeDataHandler: @escaping @Sendable (Data?) -> Void)
}

/// A task's state and counters, read at once.
package struct TaskSnapshot {
    package var state: URLSessionTask.State = .suspended
    package var response: URLResponse?
    package var error: (any Error)?
    package var received: Int64 = 0
    package var expectedToReceive: Int64 = 0
    package var sent: Int64 = 0
    package var expectedToSend: Int64 = 0

    package init() {}
}

/// What callers may set on a task (`taskDescription`, `priority`…), stored by the engine: the
/// abstract classes have no storage on Apple platforms. Kept apart from the engine's state
/// because a key-value observer of the run's changes may read these.
package final class TaskAttributes: @unchecked Sendable {
    // Unchecked: every stored value is read and written under `lock`; the delegate is a
    // reference Foundation does not mark Sendable, stored and handed back as URLSessionTask does.
    package struct Values {
        package var taskDescription: String?
        package var priority: Float = 0.5
        package var earliestBeginDate: Date?
        package var clientExpectsToSend: Int64 = -1
        package var clientExpectsToReceive: Int64 = -1
        package var delegate: (any URLSessionTaskDelegate)?
        package var prefersIncrementalDelivery = true
    }

    private let lock = NSLock()
    private var values = Values()

    package init() {}

    package subscript<Value>(_ key: WritableKeyPath<Values, Value>) -> Value {
        get { lock.withLock { values[keyPath: key] } }
        set { lock.withLock { values[keyPath: key] = newValue } }
    }
}

/// How the tasks are made. `URLSessionTask.init()` is deprecated on Apple platforms; the classes'
/// own `init(engine:)` is deprecated too, so the call to it is not warned about, and it is
/// reached through this requirement, which is not deprecated.
package protocol EngineTaskMaking: URLSessionTask {
    init(engine: any TaskEngine)
}

extension TaskEngine {
    /// A new task of type `Task`, run by this engine.
    package func makeTask<Task: EngineTaskMaking>(_ type: Task.Type) -> Task {
        Task(engine: self)
    }
}

/// A data task: nothing happens before `resume()`, as with URLSession.
package final class EngineDataTask: URLSessionDataTask, EngineTaskMaking, @unchecked Sendable {
    // Unchecked: the engine is Sendable; the superclass's storage is never used.
    package let engine: any TaskEngine

    @available(*, deprecated, message: "made through TaskEngine.makeTask(_:)")
    package init(engine: any TaskEngine) {
        self.engine = engine
        super.init()
    }

    // The overrides below are the same in the three classes: each has another Foundation superclass.
    override package var originalRequest: URLRequest? { engine.request }
    override package var currentRequest: URLRequest? { engine.request }
    override package var response: URLResponse? { engine.snapshot.response }
    override package var error: (any Error)? { engine.snapshot.error }
    override package var state: URLSessionTask.State { engine.snapshot.state }
    override package var taskIdentifier: Int { engine.identifier }
    override package var countOfBytesReceived: Int64 { engine.snapshot.received }
    override package var countOfBytesExpectedToReceive: Int64 { engine.snapshot.expectedToReceive }
    override package var countOfBytesSent: Int64 { engine.snapshot.sent }
    override package var countOfBytesExpectedToSend: Int64 { engine.snapshot.expectedToSend }
    override package var progress: Progress { engine.progress }
    override package var taskDescription: String? {
        get { engine.attributes[\.taskDescription] }
        set { engine.attributes[\.taskDescription] = newValue }
    }
    override package var priority: Float {
        get { engine.attributes[\.priority] }
        set { engine.attributes[\.priority] = newValue }
    }
    override package var earliestBeginDate: Date? {
        get { engine.attributes[\.earliestBeginDate] }
        set { engine.attributes[\.earliestBeginDate] = newValue }
    }
    override package var countOfBytesClientExpectsToSend: Int64 {
        get { engine.attributes[\.clientExpectsToSend] }
        set { engine.attributes[\.clientExpectsToSend] = newValue }
    }
    override package var countOfBytesClientExpectsToReceive: Int64 {
        get { engine.attributes[\.clientExpectsToReceive] }
        set { engine.attributes[\.clientExpectsToReceive] = newValue }
    }
    override package var delegate: (any URLSessionTaskDelegate)? {
        get { engine.attributes[\.delegate] }
        set { engine.attributes[\.delegate] = newValue }
    }
    #if !canImport(FoundationNetworking)
    override package var prefersIncrementalDelivery: Bool {
        get { engine.attributes[\.prefersIncrementalDelivery] }
        set { engine.attributes[\.prefersIncrementalDelivery] = newValue }
    }
    #endif
    override package func resume() { engine.resume(self) }
    override package func cancel() { engine.cancel(self) }
    /// A replayed answer has nothing to pause; the task keeps its state.
    override package func suspend() {}
}

/// An upload task; its body takes part in matching.
package final class EngineUploadTask: URLSessionUploadTask, EngineTaskMaking, @unchecked Sendable {
    // Unchecked: the engine is Sendable; the superclass's storage is never used.
    package let engine: any TaskEngine

    @available(*, deprecated, message: "made through TaskEngine.makeTask(_:)")
    package init(engine: any TaskEngine) {
        self.engine = engine
        super.init()
    }

    override package var originalRequest: URLRequest? { engine.request }
    override package var currentRequest: URLRequest? { engine.request }
    override package var response: URLResponse? { engine.snapshot.response }
    override package var error: (any Error)? { engine.snapshot.error }
    override package var state: URLSessionTask.State { engine.snapshot.state }
    override package var taskIdentifier: Int { engine.identifier }
    override package var countOfBytesReceived: Int64 { engine.snapshot.received }
    override package var countOfBytesExpectedToReceive: Int64 { engine.snapshot.expectedToReceive }
    override package var countOfBytesSent: Int64 { engine.snapshot.sent }
    override package var countOfBytesExpectedToSend: Int64 { engine.snapshot.expectedToSend }
    override package var progress: Progress { engine.progress }
    override package var taskDescription: String? {
        get { engine.attributes[\.taskDescription] }
        set { engine.attributes[\.taskDescription] = newValue }
    }
    override package var priority: Float {
        get { engine.attributes[\.priority] }
        set { engine.attributes[\.priority] = newValue }
    }
    override package var earliestBeginDate: Date? {
        get { engine.attributes[\.earliestBeginDate] }
        set { engine.attributes[\.earliestBeginDate] = newValue }
    }
    override package var countOfBytesClientExpectsToSend: Int64 {
        get { engine.attributes[\.clientExpectsToSend] }
        set { engine.attributes[\.clientExpectsToSend] = newValue }
    }
    override package var countOfBytesClientExpectsToReceive: Int64 {
        get { engine.attributes[\.clientExpectsToReceive] }
        set { engine.attributes[\.clientExpectsToReceive] = newValue }
    }
    override package var delegate: (any URLSessionTaskDelegate)? {
        get { engine.attributes[\.delegate] }
        set { engine.attributes[\.delegate] = newValue }
    }
    #if !canImport(FoundationNetworking)
    override package var prefersIncrementalDelivery: Bool {
        get { engine.attributes[\.prefersIncrementalDelivery] }
        set { engine.attributes[\.prefersIncrementalDelivery] = newValue }
    }
    #endif
    override package func resume() { engine.resume(self) }
    override package func cancel() { engine.cancel(self) }
    override package func suspend() {}

    /// A replayed upload cannot be resumed later: the handler gets nil, as URLSession gives when
    /// the server does not support resumable uploads, and the task is cancelled. Apple's SDK
    /// has this method from macOS 14 / iOS 17 (the abstract class raises when it is not
    /// overridden); Linux Foundation has none.
    #if !canImport(FoundationNetworking)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    override package func cancel(byProducingResumeData completionHandler: @escaping @Sendable (Data?) -> Void) {
        engine.cancel(self, resumeDataHandler: completionHandler)
    }
    #endif
}

/// A download task: the body is written to a temporary file, which is removed once the
/// completion handler or `didFinishDownloadingTo` returns, as URLSession does.
package final class EngineDownloadTask: URLSessionDownloadTask, EngineTaskMaking, @unchecked Sendable {
    // Unchecked: the engine is Sendable; the superclass's storage is never used.
    package let engine: any TaskEngine

    @available(*, deprecated, message: "made through TaskEngine.makeTask(_:)")
    package init(engine: any TaskEngine) {
        self.engine = engine
        super.init()
    }

    override package var originalRequest: URLRequest? { engine.request }
    override package var currentRequest: URLRequest? { engine.request }
    override package var response: URLResponse? { engine.snapshot.response }
    override package var error: (any Error)? { engine.snapshot.error }
    override package var state: URLSessionTask.State { engine.snapshot.state }
    override package var taskIdentifier: Int { engine.identifier }
    override package var countOfBytesReceived: Int64 { engine.snapshot.received }
    override package var countOfBytesExpectedToReceive: Int64 { engine.snapshot.expectedToReceive }
    override package var countOfBytesSent: Int64 { engine.snapshot.sent }
    override package var countOfBytesExpectedToSend: Int64 { engine.snapshot.expectedToSend }
    override package var progress: Progress { engine.progress }
    override package var taskDescription: String? {
        get { engine.attributes[\.taskDescription] }
        set { engine.attributes[\.taskDescription] = newValue }
    }
    override package var priority: Float {
        get { engine.attributes[\.priority] }
        set { engine.attributes[\.priority] = newValue }
    }
    override package var earliestBeginDate: Date? {
        get { engine.attributes[\.earliestBeginDate] }
        set { engine.attributes[\.earliestBeginDate] = newValue }
    }
    override package var countOfBytesClientExpectsToSend: Int64 {
        get { engine.attributes[\.clientExpectsToSend] }
        set { engine.attributes[\.clientExpectsToSend] = newValue }
    }
    override package var countOfBytesClientExpectsToReceive: Int64 {
        get { engine.attributes[\.clientExpectsToReceive] }
        set { engine.attributes[\.clientExpectsToReceive] = newValue }
    }
    override package var delegate: (any URLSessionTaskDelegate)? {
        get { engine.attributes[\.delegate] }
        set { engine.attributes[\.delegate] = newValue }
    }
    #if !canImport(FoundationNetworking)
    override package var prefersIncrementalDelivery: Bool {
        get { engine.attributes[\.prefersIncrementalDelivery] }
        set { engine.attributes[\.prefersIncrementalDelivery] = newValue }
    }
    #endif
    override package func resume() { engine.resume(self) }
    override package func cancel() { engine.cancel(self) }
    override package func suspend() {}

    /// A replayed download cannot be resumed later: the handler gets nil, as URLSession gives
    /// for a download that cannot resume, and the task is cancelled.
    #if canImport(FoundationNetworking)
    override package func cancel(byProducingResumeData completionHandler: @escaping (Data?) -> Void) {
        // Unchecked: Linux spells the handler without @Sendable; the engine calls it once, on the delegate queue.
        let handler = UncheckedHandler(completionHandler)
        engine.cancel(self) { handler.call($0) }
    }
    #else
    override package func cancel(byProducingResumeData completionHandler: @escaping @Sendable (Data?) -> Void) {
        engine.cancel(self, resumeDataHandler: completionHandler)
    }
    #endif
}

#if canImport(FoundationNetworking)
/// Linux's resume-data handler, which its SDK does not mark `@Sendable`, carried to the engine.
private struct UncheckedHandler: @unchecked Sendable {
    // Unchecked: called once, by the engine, on the delegate queue, as URLSession calls it.
    let call: (Data?) -> Void
    init(_ call: @escaping (Data?) -> Void) { self.call = call }
}
#endif
