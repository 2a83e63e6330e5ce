import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A task's line to the Turntable's delegate: the delegate, its queue and the `URLSession`
/// passed as the `session` argument. Every call runs on the queue, one at a time, in order.
struct Delegation: @unchecked Sendable {
    // @unchecked: the delegate and queue are used exactly as URLSession uses them, from the queue.
    let delegate: any URLSessionDelegate
    let queue: OperationQueue
    let session: URLSession

    /// Runs `body` on the delegate queue and waits for it.
    func perform(_ body: @escaping @Sendable () -> Void) async {
        await TaskCore.perform(on: queue, body)
    }

    /// Runs `call` on the delegate queue with a completion handler and returns what the
    /// handler is first given: a delegate may call it more than once, or from any thread.
    private func ask<Reply: Sendable>(_ call: @escaping @Sendable (@escaping @Sendable (Reply) -> Void) -> Void) async -> Reply {
        await withCheckedContinuation { (continuation: CheckedContinuation<Reply, Never>) in
            let answered = Locked(false)
            let handler: @Sendable (Reply) -> Void = { reply in
                let first = answered.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: reply) }
            }
            queue.addOperation { call(handler) }
        }
    }

    /// Asks the delegate whether to follow a redirect: the request to send, or nil to stop at
    /// the 3xx; `request` itself when the delegate does not implement the method.
    func willPerformRedirection(_ task: URLSessionTask, _ response: HTTPURLResponse, _ request: URLRequest) async -> URLRequest? {
        guard let delegate = delegate as? URLSessionTaskDelegate else { return request }
        let session = session
        let box = Unchecked((delegate, task))
        return await ask { handler in
            let (delegate, task) = box.value
            #if canImport(FoundationNetworking)
            delegate.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: request, completionHandler: handler)
            #else
            if delegate.urlSession?(session, task: task, willPerformHTTPRedirection: response, newRequest: request, completionHandler: handler) == nil {
                handler(request)
            }
            #endif
        }
    }

    /// Asks the delegate what to do with `response`; `.allow` when it does not implement the method.
    func didReceiveResponse(_ task: URLSessionTask, _ response: URLResponse) async -> URLSession.ResponseDisposition {
        guard let dataTask = task as? URLSessionDataTask, let delegate = delegate as? URLSessionDataDelegate else { return .allow }
        let session = session
        let box = Unchecked((delegate, dataTask))
        return await ask { handler in
            let (delegate, dataTask) = box.value
            #if canImport(FoundationNetworking)
            delegate.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: handler)
            #else
            if delegate.urlSession?(session, dataTask: dataTask, didReceive: response, completionHandler: handler) == nil {
                handler(.allow)
            }
            #endif
        }
    }

    func didReceiveData(_ task: URLSessionTask, _ data: Data) {
        guard let dataTask = task as? URLSessionDataTask, let delegate = delegate as? URLSessionDataDelegate else { return }
        #if canImport(FoundationNetworking)
        delegate.urlSession(session, dataTask: dataTask, didReceive: data)
        #else
        delegate.urlSession?(session, dataTask: dataTask, didReceive: data)
        #endif
    }

    func didSendBodyData(_ task: URLSessionTask, _ count: Int64) {
        guard let delegate = delegate as? URLSessionTaskDelegate else { return }
        #if canImport(FoundationNetworking)
        delegate.urlSession(session, task: task, didSendBodyData: count, totalBytesSent: count, totalBytesExpectedToSend: count)
        #else
        delegate.urlSession?(session, task: task, didSendBodyData: count, totalBytesSent: count, totalBytesExpectedToSend: count)
        #endif
    }

    func didWriteData(_ task: URLSessionTask, _ written: Int64, _ total: Int64, _ expected: Int64) {
        guard let downloadTask = task as? URLSessionDownloadTask, let delegate = delegate as? URLSessionDownloadDelegate else { return }
        #if canImport(FoundationNetworking)
        delegate.urlSession(session, downloadTask: downloadTask, didWriteData: written, totalBytesWritten: total, totalBytesExpectedToWrite: expected)
        #else
        delegate.urlSession?(session, downloadTask: downloadTask, didWriteData: written, totalBytesWritten: total, totalBytesExpectedToWrite: expected)
        #endif
    }

    func didFinishDownloading(_ task: URLSessionTask, to location: URL) {
        // A required method of URLSessionDownloadDelegate on every platform.
        guard let downloadTask = task as? URLSessionDownloadTask, let delegate = delegate as? URLSessionDownloadDelegate else { return }
        delegate.urlSession(session, downloadTask: downloadTask, didFinishDownloadingTo: location)
    }

    func didComplete(_ task: URLSessionTask, error: (any Error)?) {
        guard let delegate = delegate as? URLSessionTaskDelegate else { return }
        #if canImport(FoundationNetworking)
        delegate.urlSession(session, task: task, didCompleteWithError: error)
        #else
        delegate.urlSession?(session, task: task, didCompleteWithError: error)
        #endif
    }
}

extension Turntable {
    /// The delegate line for a task that reports to the delegate, or nil when the task has a
    /// completion handler or the Turntable has no delegate.
    func delegation(for completion: TaskCompletion) -> Delegation? {
        guard case .delegate = completion else { return nil }
        return settings.withLock { settings -> Delegation? in
            guard let delegate = settings.delegate else { return nil }
            let session: URLSession
            if let existing = settings.delegateSession {
                session = existing
            } else {
                // Delegate methods need a URLSession; this one is answered by this Turntable too.
                session = URLSession(configuration: makeURLSessionConfigurationLocked(&settings))
                settings.delegateSession = session
            }
            return Delegation(delegate: delegate, queue: settings.delegateQueue, session: session)
        }
    }
}
