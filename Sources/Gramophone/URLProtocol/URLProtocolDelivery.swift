import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The calls a URLProtocol makes to its client, made as the URL loading system expects: on
/// Apple platforms on the thread that called `startLoading` (through its run loop), and on
/// every platform never after `stopLoading`.
final class ProtocolClientCalls: @unchecked Sendable {
    // @unchecked: the protocol and (on Apple platforms) the run loop are only used from the
    // loading thread, by blocks scheduled on it; `stopped` is locked. Weak: the protocol holds
    // its load, and the loading system holds the protocol while it loads.
    private weak var urlProtocol: URLProtocol?
    private let stopped = Locked(false)
    #if !canImport(FoundationNetworking)
    private let runLoop: CFRunLoop
    #endif

    /// Made in `startLoading`, on the loading thread.
    init(_ urlProtocol: URLProtocol) {
        self.urlProtocol = urlProtocol
        #if !canImport(FoundationNetworking)
        runLoop = CFRunLoopGetCurrent()
        #endif
    }

    /// From `stopLoading`: nothing more reaches the client.
    func stop() { stopped.withLock { $0 = true } }

    var isStopped: Bool { stopped.withLock { $0 } }

    /// Makes `call` with the client, unless the load was stopped by then.
    func send(_ call: @escaping @Sendable (URLProtocolClient, URLProtocol) -> Void) {
        #if !canImport(FoundationNetworking)
        // Apple expects client calls on the loading thread; its run loop runs this block there,
        // in order, and `stopLoading` (also on that thread) cannot come between check and call.
        CFRunLoopPerformBlock(runLoop, CFRunLoopMode.commonModes.rawValue) { [self] in
            guard !isStopped, let urlProtocol, let client = urlProtocol.client else { return }
            call(client, urlProtocol)
        }
        CFRunLoopWakeUp(runLoop)
        #else
        // Linux Foundation calls URLProtocols from its own queues and takes client calls from any thread.
        guard !isStopped, let urlProtocol, let client = urlProtocol.client else { return }
        call(client, urlProtocol)
        #endif
    }
}

/// What both URLProtocol classes of ours (the Turntable's and the stubber's) share: the current
/// load, started from a Turntable and stopped by `stopLoading`. Each says which requests it takes.
class LoadingURLProtocol: URLProtocol {
    /// Locked: set by startLoading and read by stopLoading, which the system may call from other threads.
    let load = Locked<ProtocolLoad?>(nil)

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// Answers this protocol's request from `turntable`; call from `startLoading`.
    func start(from turntable: Turntable) {
        let started = ProtocolSlots.load(self, from: turntable)
        load.withLock { $0 = started }
    }

    override func stopLoading() {
        load.withLock { $0?.stop() }
    }
}

/// One load of a URLProtocol: the task producing the answer and the client calls it makes;
/// `stop()` is `stopLoading`.
final class ProtocolLoad: Sendable {
    let calls: ProtocolClientCalls
    private let task: Task<Void, Never>

    /// Starts `work`; call from `startLoading`, on the loading thread.
    init(_ urlProtocol: URLProtocol, _ work: @escaping @Sendable (ProtocolClientCalls) async -> Void) {
        let calls = ProtocolClientCalls(urlProtocol)
        self.calls = calls
        task = Task { await work(calls) }
    }

    func stop() {
        calls.stop()
        task.cancel()
    }

    /// Returns when the work has ended (tests wait on it instead of sleeping).
    func finished() async { await task.value }
}

/// The one routine by which both URLProtocol classes (the Turntable's and the stubber's) hand
/// an answer to the URL loading system, so every URLSession path delivers the same bytes.
enum URLProtocolDelivery {
    /// Whether a task must get the body in one `didLoad`: on Linux, completion-handler and
    /// async tasks keep only the last piece (Foundation stores rather than appends), while a
    /// delegate task hears each (`LoadingTask.receivesPieces`). Apple keeps every piece.
    #if canImport(FoundationNetworking)
    static let joinsPieces = true
    #else
    static let joinsPieces = false
    #endif

    /// Tells the client the outcome: the response, the body in `chunks` (each after its
    /// delay; in one piece, once their time has passed, when `inOnePiece`), then the end, or
    /// `ending` (a stream that broke off); nothing once the load is stopped.
    static func deliver(
        _ outcome: Result<(HTTPURLResponse, Data), any Error>, to calls: ProtocolClientCalls,
        cachePolicy: URLCache.StoragePolicy = .notAllowed, chunks: [(delay: TimeInterval, size: Int)], ending: (any Error)? = nil,
        inOnePiece: Bool = joinsPieces
    ) async {
        switch outcome {
        case .failure(let error):
            let failure = Unchecked(error)
            calls.send { client, urlProtocol in client.urlProtocol(urlProtocol, didFailWithError: failure.value) }
        case .success(let (response, body)):
            let decodedResponse = decoded(response, bodyLength: body.count)
            calls.send { client, urlProtocol in client.urlProtocol(urlProtocol, didReceive: decodedResponse, cacheStoragePolicy: cachePolicy) }
            if inOnePiece {
                // Linux Foundation keeps only the last `didLoad` for completion-handler and async
                // tasks (it stores rather than appends), so the body goes in one piece there, once
                // the time its chunks would take has passed (Gramophone.docc/Platforms.md).
                guard await wait(chunks.reduce(0) { $0 + $1.delay }) else { return }
                if !body.isEmpty { calls.send { client, urlProtocol in client.urlProtocol(urlProtocol, didLoad: body) } }
            } else {
                var offset = body.startIndex
                for chunk in chunks {
                    guard await wait(chunk.delay) else { return }
                    let end = body.index(offset, offsetBy: min(chunk.size, body.endIndex - offset))
                    let piece = body.subdata(in: offset..<end)
                    calls.send { client, urlProtocol in client.urlProtocol(urlProtocol, didLoad: piece) }
                    offset = end
                }
            }
            if let ending {
                let failure = Unchecked(ending)
                calls.send { client, urlProtocol in client.urlProtocol(urlProtocol, didFailWithError: failure.value) }
                return
            }
            calls.send { client, urlProtocol in client.urlProtocolDidFinishLoading(urlProtocol) }
        }
    }

    /// Tells the client of a live response and hands on each piece of its body as it arrives,
    /// then the end or the error it ended with. Stopping the load stops reading (a recording
    /// ends as cancelled by the caller, as with any reader that goes away).
    static func relay(_ response: HTTPURLResponse, from source: ChunkSource, to calls: ProtocolClientCalls) async {
        let head = decoded(response, bodyLength: nil)
        calls.send { client, urlProtocol in client.urlProtocol(urlProtocol, didReceive: head, cacheStoragePolicy: .notAllowed) }
        do {
            while let piece = try await source.next() {
                guard !calls.isStopped, !Task.isCancelled else { return source.cancel() }
                calls.send { client, urlProtocol in client.urlProtocol(urlProtocol, didLoad: piece) }
            }
        } catch {
            let failure = Unchecked(error)
            calls.send { client, urlProtocol in client.urlProtocol(urlProtocol, didFailWithError: failure.value) }
            return
        }
        calls.send { client, urlProtocol in client.urlProtocolDidFinishLoading(urlProtocol) }
    }

    #if !canImport(FoundationNetworking)
    /// Tells the client of a redirect; the URL loading system asks the delegates and, when they
    /// follow it, stops this load and makes a new one for `request`. When they refuse it, the
    /// system goes on with this load, which then delivers the 3xx (`response` and `body`, no
    /// error), as URLSession delivers a refused redirect: OHHTTPStubs' way since its #175, read,
    /// not run here. (Apple's CustomHTTPProtocol sample ends the load with NSUserCancelledError
    /// instead, which is what a refused redirect would then get.)
    static func redirect(to request: URLRequest, after response: HTTPURLResponse, body: Data, through calls: ProtocolClientCalls) async {
        calls.send { client, urlProtocol in client.urlProtocol(urlProtocol, wasRedirectedTo: request, redirectResponse: response) }
        await deliver(.success((response, body)), to: calls, chunks: immediateChunks(byteCount: body.count, size: max(1, body.count)))
    }
    #endif

    /// The pieces of a streamed answer, as `deliver` takes them.
    static func chunks(of plan: StreamPlan) -> [(delay: TimeInterval, size: Int)] {
        plan.pieces.map { ($0.delay, $0.data.count) }
    }

    /// `byteCount` bytes in pieces of `size`, all due at once.
    static func immediateChunks(byteCount: Int, size: Int) -> [(delay: TimeInterval, size: Int)] {
        stride(from: 0, to: byteCount, by: max(1, size)).map { (0, min(size, byteCount - $0)) }
    }

    /// Sleeps; false when the load was stopped meanwhile (the client must hear nothing more).
    static func wait(_ seconds: TimeInterval) async -> Bool {
        if seconds > 0 {
            do { try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000)) } catch { return false }
        }
        return !Task.isCancelled
    }

    /// The response without `Content-Encoding`: a vinyl holds bodies as the client saw them
    /// (already decoded), so nothing on this path may decode them a second time.
    /// `bodyLength` nil (a body still arriving): `Content-Length` is dropped with the encoding,
    /// as it counted the encoded bytes.
    static func decoded(_ response: HTTPURLResponse, bodyLength: Int?) -> HTTPURLResponse {
        let headers = response.allHeaderFields
        // Most answers need no change: that is found out before anything is built.
        var encoded = false
        var lengthDiffers = false
        for case let (name as String, value as String) in headers {
            if name.caseInsensitiveEquals("content-encoding") {
                encoded = true
            } else if let bodyLength, name.caseInsensitiveEquals("content-length"), value != String(bodyLength) {
                lengthDiffers = true
            }
        }
        guard encoded || lengthDiffers, let url = response.url else { return response }
        var fields: [String: String] = [:]
        for case let (name as String, value as String) in headers where !name.caseInsensitiveEquals("content-encoding") {
            guard name.caseInsensitiveEquals("content-length") else {
                fields[name] = value
                continue
            }
            // Without a length (a body still arriving), the encoded count is dropped with the encoding.
            if let bodyLength { fields[name] = String(bodyLength) } else if !encoded { fields[name] = value }
        }
        return HTTPURLResponse(url: url, statusCode: response.statusCode, httpVersion: "HTTP/1.1", headerFields: fields) ?? response
    }
}
