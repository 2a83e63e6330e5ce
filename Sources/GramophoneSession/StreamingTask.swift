import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession's `bytes(for:)`: a data task whose delegate hands each piece of the body to the
/// reader as `urlSession(_:dataTask:didReceive:)` delivers it.
///
/// Not a wrapper of Apple's `bytes(for:delegate:)`: its `AsyncBytes` hides where the network's
/// pieces begin and end, and recording a stream needs exactly that. One implementation on every
/// platform; only how the delegate is attached differs (Gramophone.docc/Platforms.md).
final class StreamingTask: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: `response`, `respondedAt` and `waiter` are only touched under `lock`; the channel is Sendable.
    let channel = ChunkChannel(stampsArrivals: true)
    private let lock = NSLock()
    private var response: Result<URLResponse, any Error>?
    private var respondedAt: ContinuousClock.Instant?
    private var waiter: CheckedContinuation<URLResponse, any Error>?

    /// URLSessionTask is not Sendable everywhere; it is thread-safe, and only resumed and cancelled here.
    private struct TaskHandle: @unchecked Sendable {
        let task: URLSessionDataTask
    }

    static func start(_ request: URLRequest, in session: URLSession) async throws -> (ResponseBytes, URLResponse) {
        let streaming = StreamingTask()
        #if canImport(FoundationNetworking)
        // Foundation on Linux never calls a task's own delegate, so the task runs in a session of
        // its own with the same configuration (protocol classes included), which ends with it.
        let own = URLSession(configuration: session.configuration, delegate: streaming, delegateQueue: nil)
        let handle = TaskHandle(task: own.dataTask(with: request))
        own.finishTasksAndInvalidate()
        #else
        // Apple platforms: a task delegate on the caller's session, as `bytes(for:delegate:)` uses.
        let handle = TaskHandle(task: session.dataTask(with: request))
        handle.task.delegate = streaming
        #endif
        let response = try await withTaskCancellationHandler {
            try await streaming.waitForResponse { handle.task.resume() }
        } onCancel: {
            handle.task.cancel()
        }
        let source = ChunkSource(network: streaming.channel, respondedAt: streaming.lock.withLock { streaming.respondedAt }) { handle.task.cancel() }
        return (ResponseBytes(source), response)
    }

    private func waitForResponse(starting start: () -> Void) async throws -> URLResponse {
        try await withCheckedThrowingContinuation { continuation in
            let settled = lock.withLock {
                if response == nil { waiter = continuation }
                return response
            }
            if let settled { continuation.resume(with: settled) } else { start() }
        }
    }

    private func settle(_ result: Result<URLResponse, any Error>) {
        lock.lock()
        guard response == nil else { lock.unlock(); return }
        response = result
        respondedAt = .now
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume(with: result)
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        settle(.success(response))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        channel.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // A failure before the headers fails `bytes(for:)` itself; after them, the reading.
        settle(.failure(error ?? URLError(.badServerResponse)))
        channel.finish(throwing: error)
    }
}
