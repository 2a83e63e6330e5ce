import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A task's line to its delegates: the task's own `delegate` (if any), then the session's, the
/// queue and the `URLSession` passed as the `session` argument. Every call runs on the queue,
/// one at a time, in order.
///
/// As Apple's `URLSessionTask.delegate` does, the task's delegate receives each message before
/// the session's delegate. A notification (data, progress, completion) goes to both; a question
/// (follow this redirect? take this response?) goes to the task's delegate first, and to the
/// session's with the task delegate's answer unless that answer already stopped the task. On
/// Apple platforms a delegate that does not implement the method is skipped.
struct Delegation: @unchecked Sendable {
    // @unchecked: the delegates and queue are used exactly as URLSession uses them, from the queue.
    let delegates: [any URLSessionDelegate]
    let queue: OperationQueue
    let session: URLSession

    /// The line through `delegates`, in order; nil when there is none. An object that is both the
    /// task's delegate and the session's hears each message once.
    init?(delegates: [(any URLSessionDelegate)?], queue: OperationQueue, session: @autoclosure () -> URLSession) {
        var unique: [any URLSessionDelegate] = []
        for case let delegate? in delegates where !unique.contains(where: { $0 === delegate }) { unique.append(delegate) }
        guard !unique.isEmpty else { return nil }
        self.delegates = unique
        self.queue = queue
        self.session = session()
    }

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

    /// Asks the delegates whether to follow a redirect: the request to send, or nil to stop at
    /// the 3xx; `request` itself when no delegate implements the method.
    func willPerformRedirection(_ task: URLSessionTask, _ response: HTTPURLResponse, _ request: URLRequest) async -> URLRequest? {
        var answer = request
        for case let delegate as URLSessionTaskDelegate in delegates {
            let session = session
            let box = Unchecked((delegate, task))
            let proposed = answer
            guard
                let next = await ask({ handler in
                    let (delegate, task) = box.value
                    #if canImport(FoundationNetworking)
                    delegate.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: proposed, completionHandler: handler)
                    #else
                    if delegate.urlSession?(session, task: task, willPerformHTTPRedirection: response, newRequest: proposed, completionHandler: handler) == nil {
                        handler(proposed)
                    }
                    #endif
                })
            else { return nil }
            answer = next
        }
        return answer
    }

    /// Asks the delegates what to do with `response`: `.allow` when none implements the method,
    /// else the first answer that is not `.allow`.
    func didReceiveResponse(_ task: URLSessionTask, _ response: URLResponse) async -> URLSession.ResponseDisposition {
        guard let dataTask = task as? URLSessionDataTask else { return .allow }
        for case let delegate as URLSessionDataDelegate in delegates {
            let session = session
            let box = Unchecked((delegate, dataTask))
            let disposition: URLSession.ResponseDisposition = await ask { handler in
                let (delegate, dataTask) = box.value
                #if canImport(FoundationNetworking)
                delegate.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: handler)
                #else
                if delegate.urlSession?(session, dataTask: dataTask, didReceive: response, completionHandler: handler) == nil {
                    handler(.allow)
                }
                #endif
            }
            if disposition != .allow { return disposition }
        }
        return .allow
    }

    func didReceiveData(_ task: URLSessionTask, _ data: Data) {
        guard let dataTask = task as? URLSessionDataTask else { return }
        for case let delegate as URLSessionDataDelegate in delegates {
            #if canImport(FoundationNetworking)
            delegate.urlSession(session, dataTask: dataTask, didReceive: data)
            #else
            delegate.urlSession?(session, dataTask: dataTask, didReceive: data)
            #endif
        }
    }

    func didSendBodyData(_ task: URLSessionTask, _ sent: Int64, _ total: Int64, _ expected: Int64) {
        for case let delegate as URLSessionTaskDelegate in delegates {
            #if canImport(FoundationNetworking)
            delegate.urlSession(session, task: task, didSendBodyData: sent, totalBytesSent: total, totalBytesExpectedToSend: expected)
            #else
            delegate.urlSession?(session, task: task, didSendBodyData: sent, totalBytesSent: total, totalBytesExpectedToSend: expected)
            #endif
        }
    }

    func didWriteData(_ task: URLSessionTask, _ written: Int64, _ total: Int64, _ expected: Int64) {
        guard let downloadTask = task as? URLSessionDownloadTask else { return }
        for case let delegate as URLSessionDownloadDelegate in delegates {
            #if canImport(FoundationNetworking)
            delegate.urlSession(session, downloadTask: downloadTask, didWriteData: written, totalBytesWritten: total, totalBytesExpectedToWrite: expected)
            #else
            delegate.urlSession?(session, downloadTask: downloadTask, didWriteData: written, totalBytesWritten: total, totalBytesExpectedToWrite: expected)
            #endif
        }
    }

    func didFinishDownloading(_ task: URLSessionTask, to location: URL) {
        // A required method of URLSessionDownloadDelegate on every platform.
        guard let downloadTask = task as? URLSessionDownloadTask else { return }
        for case let delegate as URLSessionDownloadDelegate in delegates {
            delegate.urlSession(session, downloadTask: downloadTask, didFinishDownloadingTo: location)
        }
    }

    func didComplete(_ task: URLSessionTask, error: (any Error)?) {
        for case let delegate as URLSessionTaskDelegate in delegates {
            #if canImport(FoundationNetworking)
            delegate.urlSession(session, task: task, didCompleteWithError: error)
            #else
            delegate.urlSession?(session, task: task, didCompleteWithError: error)
            #endif
        }
    }
}

extension Turntable {
    /// The delegate line for `task`: its own delegate, then the Turntable's. Nil when it has
    /// neither, or when `completion` is a handler (such a task reports only its redirects, which
    /// `redirectDelegation(for:)` asks about).
    func delegation(for completion: TaskCompletion, task: URLSessionTask) -> Delegation? {
        guard case .delegate = completion else { return nil }
        return redirectDelegation(for: task)
    }

    /// The delegate line that decides `task`'s redirects, whatever hears its end.
    func redirectDelegation(for task: URLSessionTask) -> Delegation? {
        settings.withLock { settings -> Delegation? in
            Delegation(delegates: [task.delegate, settings.delegate], queue: settings.delegateQueue, session: delegateSessionLocked(&settings))
        }
    }

    /// The URLSession passed to delegate methods as `session`; answered by this Turntable too.
    private func delegateSessionLocked(_ settings: inout SessionSettings) -> URLSession {
        if let existing = settings.delegateSession { return existing }
        let session = URLSession(configuration: makeURLSessionConfigurationLocked(&settings))
        settings.delegateSession = session
        return session
    }
}

#if canImport(FoundationNetworking)
/// The delegate of a `makeURLSession()` session on Linux, where Foundation calls only the
/// session's delegate (never a task's own) and a URLProtocol cannot report a redirect: it hands
/// each message to the task's own delegate, then to the delegate given to `makeURLSession()`,
/// as a URLSession does on Apple platforms; the session's protocol class asks it about redirects.
/// On Apple platforms the session has your delegate itself.
final class TaskFirstDelegate: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate, @unchecked Sendable {
    // @unchecked: `delegate` is set once before the session exists; `session` and
    // `configuration` are set once, right after the session is made, before any task runs.
    let delegate: (any URLSessionDelegate)?
    weak var session: URLSession?
    /// The configuration the session was made from, which it copied and no one changes after.
    var configuration: URLSessionConfiguration?

    init(_ delegate: (any URLSessionDelegate)?) {
        self.delegate = delegate
    }

    /// The line for `task`: its own delegate, then yours; nil when it has neither.
    func delegation(for task: URLSessionTask, in session: URLSession) -> Delegation? {
        // Linux Foundation answers a task's `delegate` with the session's (this object) when the
        // task has none of its own.
        let own = task.delegate.flatMap { $0 === self ? nil : $0 }
        return Delegation(delegates: [own, delegate], queue: session.delegateQueue, session: session)
    }

    /// Asks `task`'s delegates whether to follow a redirect, on the session's delegate queue, as
    /// Apple's loading system does for a redirect a URLProtocol reports.
    func approveRedirect(of task: URLSessionTask, _ response: HTTPURLResponse, _ request: URLRequest) async -> URLRequest? {
        guard let session, let delegation = delegation(for: task, in: session) else { return request }
        return await delegation.willPerformRedirection(task, response, request)
    }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        delegate?.urlSession(session, didBecomeInvalidWithError: error)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // Asked here, on the delegate queue this call runs on, so nothing else reaches a delegate
        // before the answer: the task's delegate, then yours unless the task's did not allow it.
        let delegates = (delegation(for: dataTask, in: session)?.delegates ?? []).compactMap { $0 as? URLSessionDataDelegate }
        // Unchecked: used on this queue only, by the delegates' handlers, as URLSession uses them.
        let context = Unchecked((delegates, session, dataTask))
        @Sendable func ask(_ index: Int) {
            let (delegates, session, dataTask) = context.value
            guard index < delegates.count else { return completionHandler(.allow) }
            delegates[index].urlSession(session, dataTask: dataTask, didReceive: response) { disposition in
                if disposition == .allow { ask(index + 1) } else { completionHandler(disposition) }
            }
        }
        ask(0)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        delegation(for: dataTask, in: session)?.didReceiveData(dataTask, data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        delegation(for: task, in: session)?.didSendBodyData(task, bytesSent, totalBytesSent, totalBytesExpectedToSend)
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64, totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        delegation(for: downloadTask, in: session)?.didWriteData(downloadTask, bytesWritten, totalBytesWritten, totalBytesExpectedToWrite)
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        delegation(for: downloadTask, in: session)?.didFinishDownloading(downloadTask, to: location)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        delegation(for: task, in: session)?.didComplete(task, error: error)
    }
}
#endif
