import Foundation

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A session delegate that writes down every call it gets, in order, and whether it ran on
/// the expected queue: the yardstick for "calls what a real URLSession calls".
final class DelegateRecorder: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate, @unchecked Sendable {
    struct Log {
        var events: [String] = []
        var offQueue: [String] = []
        var chunks: [Data] = []
        var downloaded: Data?
        var error: (any Error)?
        var response: HTTPURLResponse?
        var completed = 0
        /// The tasks that completed, by identifier, in the order they did.
        var completedTasks: [Int] = []
        var consumed = 0
        var waiters: [(id: UUID, continuation: CheckedContinuation<Bool, Never>)] = []
    }

    let log = Locked(Log())
    let queue: OperationQueue
    var disposition: URLSession.ResponseDisposition = .allow
    /// Runs inside `didReceive data`, e.g. to read task properties mid-flight.
    var onData: (@Sendable (URLSessionDataTask) -> Void)?

    /// Whether `willPerformHTTPRedirection` follows (the request) or refuses (nil).
    var followsRedirects = true
    /// Where a task's delegate and its session's both write `"LABEL event"`, to see who heard what first.
    let shared: (label: String, log: Locked<[String]>)?

    init(queue: OperationQueue = OperationQueue(), shared: (label: String, log: Locked<[String]>)? = nil) {
        self.queue = queue
        self.shared = shared
        queue.maxConcurrentOperationCount = 1
    }

    private func note(_ event: String, _ change: (inout Log) -> Void = { _ in }) {
        let onQueue = OperationQueue.current === queue
        if let shared { shared.log.withLock { $0.append("\(shared.label) \(event)") } }
        log.withLock { log in
            log.events.append(event)
            if !onQueue { log.offQueue.append(event) }
            change(&log)
        }
    }

    /// Waits for the next `didCompleteWithError` not yet waited for; false after `seconds`.
    /// (No blocking wait: blocked threads would starve the queues the calls arrive on.)
    // A bound, not a measurement: generous, so a loaded machine (the sanitizer passes) cannot fail it.
    func waitForCompletion(seconds: Double = 120) async -> Bool {
        let id = UUID()
        let log = log
        return await withCheckedContinuation { continuation in
            let ready = log.withLock { log -> Bool in
                if log.completed > log.consumed {
                    log.consumed += 1
                    return true
                }
                log.waiters.append((id, continuation))
                return false
            }
            if ready { return continuation.resume(returning: true) }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                let expired = log.withLock { log -> CheckedContinuation<Bool, Never>? in
                    guard let index = log.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return log.waiters.remove(at: index).continuation
                }
                expired?.resume(returning: false)
            }
        }
    }

    /// The events with runs of the same event (chunks) folded into one, since chunk sizes are
    /// up to the network.
    var foldedEvents: [String] {
        log.withLock { $0.events }.reduce(into: []) { folded, event in
            if folded.last != event { folded.append(event) }
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        note("response") { $0.response = response as? HTTPURLResponse }
        completionHandler(disposition)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        onData?(dataTask)
        note("data") { $0.chunks.append(data) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        note("redirect \(response.statusCode)")
        completionHandler(followsRedirects ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        note("sentBody")
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64, totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        note("wroteData")
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        let contents = try? Data(contentsOf: location)
        note("finishedDownloading") { $0.downloaded = contents }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // Download tasks get no response call; their response is on the task.
        let response = task.response as? HTTPURLResponse
        var waiter: CheckedContinuation<Bool, Never>?
        note("complete") { log in
            log.error = error
            log.completedTasks.append(task.taskIdentifier)
            log.completed += 1
            if log.response == nil { log.response = response }
            if !log.waiters.isEmpty {
                waiter = log.waiters.removeFirst().continuation
                log.consumed += 1
            }
        }
        waiter?.resume(returning: true)
    }
}

extension Turntable {
    /// The Turntable reporting to `delegate` on `queue`, as a URLSession made with both.
    func delegating(to delegate: (any URLSessionDelegate)?, queue: OperationQueue?) -> Turntable {
        setDelegate(delegate, queue: queue)
        return self
    }
}
