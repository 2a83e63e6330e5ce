import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// URLSession's task and transfer API on a Turntable. Every method funnels into
// `Turntable.answer(_:)`, so all API styles see the same tracks and the same errors.
extension Turntable {
    // MARK: Tasks

    /// A data task that reports to the delegate (if any); call `resume()` to start it.
    public func dataTask(with request: URLRequest) -> URLSessionDataTask {
        TaskCore(turntable: self, request: request, kind: .data, completion: .delegate).makeTask(EngineDataTask.self)
    }

    /// A data task for `url` that reports to the delegate (if any).
    public func dataTask(with url: URL) -> URLSessionDataTask {
        dataTask(with: URLRequest(url: url))
    }

    /// An upload task sending `bodyData` as the request's body; the body takes part in matching.
    public func uploadTask(with request: URLRequest, from bodyData: Data) -> URLSessionUploadTask {
        TaskCore(turntable: self, request: request, kind: .upload(.data(bodyData)), completion: .delegate).makeTask(EngineUploadTask.self)
    }

    /// An upload task sending `bodyData`, with a completion handler run on the delegate queue.
    public func uploadTask(with request: URLRequest, from bodyData: Data?, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionUploadTask {
        TaskCore(turntable: self, request: request, kind: .upload(.data(bodyData ?? Data())), completion: .data(completionHandler)).makeTask(EngineUploadTask.self)
    }

    /// An upload task sending the contents of `fileURL`, read when the task starts; a file that
    /// cannot be read fails the task with `URLError(.fileDoesNotExist)`.
    public func uploadTask(with request: URLRequest, fromFile fileURL: URL) -> URLSessionUploadTask {
        TaskCore(turntable: self, request: request, kind: .upload(.file(fileURL)), completion: .delegate).makeTask(EngineUploadTask.self)
    }

    /// An upload task sending the contents of `fileURL`, with a completion handler.
    public func uploadTask(with request: URLRequest, fromFile fileURL: URL, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionUploadTask {
        TaskCore(turntable: self, request: request, kind: .upload(.file(fileURL)), completion: .data(completionHandler)).makeTask(EngineUploadTask.self)
    }

    /// A download task reporting to the delegate: `didWriteData`, then `didFinishDownloadingTo`
    /// with a temporary file that is removed when that method returns.
    public func downloadTask(with request: URLRequest) -> URLSessionDownloadTask {
        TaskCore(turntable: self, request: request, kind: .download, completion: .delegate).makeTask(EngineDownloadTask.self)
    }

    /// A download task for `url` reporting to the delegate.
    public func downloadTask(with url: URL) -> URLSessionDownloadTask {
        downloadTask(with: URLRequest(url: url))
    }

    /// A download task whose handler gets a temporary file, removed when the handler returns.
    public func downloadTask(with request: URLRequest, completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void) -> URLSessionDownloadTask {
        TaskCore(turntable: self, request: request, kind: .download, completion: .download(completionHandler)).makeTask(EngineDownloadTask.self)
    }

    // MARK: Async transfers

    // `upload(for:from:)`, `upload(for:fromFile:)`, `download(for:)` and `download(from:)` are
    // NetworkSession's: they set the body (read from the file), or write the answer to a file,
    // around `data(for:)`; the body takes part in matching.

    /// The answer to `live` after the playback timing's delay, as `(body, response)`.
    /// Nonsending like everything it awaits on the way to a track, so a replay never leaves
    /// the caller's actor; only recording and dynamic stubs go elsewhere, as they must.
    nonisolated(nonsending) func answerTimed(_ live: Track.Request) async throws -> (Data, URLResponse) {
        let answer = await answerFollowingRedirects(live)
        await waitForPlayback(of: answer)
        // A streamed answer arrives whole once its last piece is due; one that broke off throws.
        // Checked first so the common, unstreamed replay copies nothing more.
        let plan = answer.stream == nil ? nil : (try? answer.outcome.get()).flatMap { streamPlan(for: answer, body: $0.1, url: live.url) }
        if let plan, plan.totalDelay > 0 { try? await Task.sleep(nanoseconds: UInt64(plan.totalDelay * 1_000_000_000)) }
        // URLSession reports a cancelled Swift task as URLError(.cancelled).
        if Task.isCancelled { throw URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: live.url]) }
        if let ending = plan?.ending { throw ending }
        let (response, body) = try answer.outcome.get()
        return (body, response)
    }
}
