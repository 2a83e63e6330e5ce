import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The part of `URLSession` a network layer needs, so it can take a `Turntable` in tests
/// and `URLSession.shared` in production without a change.
///
/// ```swift
/// struct UsersClient {
///     var session: any NetworkSession = URLSession.shared
///     func user(_ id: Int) async throws -> User { … try await session.data(for: request) … }
/// }
/// ```
///
/// The async requirements are `nonisolated(nonsending)`: they run on the caller's actor, so a
/// `@MainActor` view model or test that awaits a `Turntable` is answered without leaving the
/// main actor (a plain `async` method would hop to the global executor and back, 10-50 µs).
/// A conformance whose methods are plain `async` still satisfies them; it hops as before.
public protocol NetworkSession: Sendable {
    /// Sends `request` and returns the response's body and metadata.
    nonisolated(nonsending) func data(for request: URLRequest) async throws -> (Data, URLResponse)
    /// Sends a `GET` for `url` and returns the response's body and metadata.
    nonisolated(nonsending) func data(from url: URL) async throws -> (Data, URLResponse)
    /// Sends `bodyData` as the request's body.
    nonisolated(nonsending) func upload(for request: URLRequest, from bodyData: Data) async throws -> (Data, URLResponse)
    /// Sends the contents of `fileURL` as the request's body.
    nonisolated(nonsending) func upload(for request: URLRequest, fromFile fileURL: URL) async throws -> (Data, URLResponse)
    /// Downloads the answer into a temporary file the caller owns.
    nonisolated(nonsending) func download(for request: URLRequest) async throws -> (URL, URLResponse)
    /// Downloads the answer for `url` into a temporary file the caller owns.
    nonisolated(nonsending) func download(from url: URL) async throws -> (URL, URLResponse)
    /// Sends `request` and returns the response as soon as its headers arrive, with its body as
    /// it arrives (`bytes.lines`, `bytes.events`, `bytes.chunks`): for streamed responses such
    /// as server-sent events. See ``ResponseBytes``.
    nonisolated(nonsending) func bytes(for request: URLRequest) async throws -> (ResponseBytes, URLResponse)
    /// A task that, once resumed, sends `request` and calls `completionHandler` with the outcome.
    func dataTask(with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionDataTask
    /// A task that, once resumed, sends a `GET` for `url` and calls `completionHandler` with the outcome.
    func dataTask(with url: URL, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionDataTask
    /// A task that, once resumed, sends `bodyData` as the request's body and calls
    /// `completionHandler` with the outcome.
    func uploadTask(with request: URLRequest, from bodyData: Data?, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void)
        -> URLSessionUploadTask
    /// A task that, once resumed, sends the contents of `fileURL` as the request's body and calls
    /// `completionHandler` with the outcome.
    func uploadTask(with request: URLRequest, fromFile fileURL: URL, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void)
        -> URLSessionUploadTask
    /// A task that, once resumed, downloads the answer into a temporary file and calls
    /// `completionHandler` with it; the file is removed when the handler returns.
    func downloadTask(with request: URLRequest, completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void) -> URLSessionDownloadTask
    /// A task that, once resumed, downloads the answer for `url` as `downloadTask(with:completionHandler:)` does.
    func downloadTask(with url: URL, completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void) -> URLSessionDownloadTask
    /// A WebSocket task for the handshake `request`; call `resume()` to connect. See ``WebSocketTask``.
    func webSocketTask(with request: URLRequest) -> any WebSocketTask
}

// URLSession's own task methods satisfy the task requirements on every platform. Its async
// methods take a `delegate:` argument with a default value, which does not satisfy a protocol
// requirement, so the extension below forwards to them. Apple's SDK also has `data(for:)`,
// `data(from:)`, `upload(for:from:)` and `upload(for:fromFile:)` without `delegate:`, with these
// exact signatures (Linux Foundation has none of them): each method here is a disfavored
// overload, so a plain `URLSession.shared.data(for: request)` in a module that imports
// Gramophone stays the SDK's call and is not ambiguous. The conformance is matched by signature,
// which the attribute does not affect: through `any NetworkSession` these methods are called.
// Tests/AppleOverloads builds calls of each against a Linux stand-in of Apple's methods.
extension URLSession: NetworkSession {
    /// URLSession's `data(for:delegate:)` without a task delegate.
    @_disfavoredOverload
    public nonisolated(nonsending) func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await data(for: request, delegate: nil)
    }

    /// URLSession's `data(from:delegate:)` without a task delegate.
    @_disfavoredOverload
    public nonisolated(nonsending) func data(from url: URL) async throws -> (Data, URLResponse) {
        try await data(from: url, delegate: nil)
    }

    /// URLSession's `upload(for:from:delegate:)` without a task delegate.
    @_disfavoredOverload
    public nonisolated(nonsending) func upload(for request: URLRequest, from bodyData: Data) async throws -> (Data, URLResponse) {
        try await upload(for: request, from: bodyData, delegate: nil)
    }

    /// URLSession's `upload(for:fromFile:delegate:)` without a task delegate.
    @_disfavoredOverload
    public nonisolated(nonsending) func upload(for request: URLRequest, fromFile fileURL: URL) async throws -> (Data, URLResponse) {
        try await upload(for: request, fromFile: fileURL, delegate: nil)
    }

    /// URLSession's `download(for:delegate:)` without a task delegate.
    @_disfavoredOverload
    public nonisolated(nonsending) func download(for request: URLRequest) async throws -> (URL, URLResponse) {
        try await download(for: request, delegate: nil)
    }

    /// URLSession's `download(from:delegate:)` without a task delegate.
    @_disfavoredOverload
    public nonisolated(nonsending) func download(from url: URL) async throws -> (URL, URLResponse) {
        try await download(from: url, delegate: nil)
    }

    // Disfavored like the others, so Apple's `bytes(for:delegate:)` (whose `delegate:` has a
    // default) wins a direct call.
    /// The response once its headers arrive, and its body piece by piece as the network
    /// delivers it, on every platform (Foundation on Linux has no `bytes(for:)` of its own).
    ///
    /// It is this method through `any NetworkSession` or a generic `NetworkSession`, and where
    /// the result is annotated `(ResponseBytes, URLResponse)`. A plain
    /// `URLSession.shared.bytes(for: request)` on Apple platforms stays Apple's
    /// `bytes(for:delegate:)`, returning `URLSession.AsyncBytes`: importing Gramophone does not
    /// change what app code that already calls it gets.
    @_disfavoredOverload
    public nonisolated(nonsending) func bytes(for request: URLRequest) async throws -> (ResponseBytes, URLResponse) {
        try await StreamingTask.start(request, in: self)
    }
}

// Uploads, downloads, bytes and their tasks in terms of `data(for:)`, so a session of your own
// (a fake, a logging wrapper) needs only the data methods. URLSession and Turntable implement
// most of them natively.
extension NetworkSession {
    /// The answer to a `GET` of `url`: `data(for:)` with that request.
    public nonisolated(nonsending) func data(from url: URL) async throws -> (Data, URLResponse) {
        try await data(for: URLRequest(url: url))
    }

    /// A data task for `url`: `dataTask(with:completionHandler:)` with a `GET` request.
    public func dataTask(with url: URL, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionDataTask {
        dataTask(with: URLRequest(url: url), completionHandler: completionHandler)
    }

    /// An upload task that runs `upload(for:from:)` once resumed (a nil body sends an empty one)
    /// and hands its outcome to `completionHandler`; `cancel()` ends it with `URLError(.cancelled)`.
    public func uploadTask(
        with request: URLRequest, from bodyData: Data?, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionUploadTask {
        let body = bodyData ?? Data()
        return SessionTaskCore.handing(request: request, to: completionHandler) { [self] in try await upload(for: request, from: body) }.makeTask(EngineUploadTask.self)
    }

    /// An upload task that runs `upload(for:fromFile:)` once resumed and hands its outcome to
    /// `completionHandler`.
    public func uploadTask(
        with request: URLRequest, fromFile fileURL: URL, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionUploadTask {
        SessionTaskCore.handing(request: request, to: completionHandler) { [self] in try await upload(for: request, fromFile: fileURL) }.makeTask(EngineUploadTask.self)
    }

    /// A download task that runs `download(for:)` once resumed and hands the file to
    /// `completionHandler`, removing it when the handler returns, as URLSession does.
    public func downloadTask(with request: URLRequest, completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void) -> URLSessionDownloadTask {
        SessionTaskCore.handing(request: request, to: completionHandler, work: { [self] in try await download(for: request) }) { file in
            // As URLSession does, the file is gone once the handler returns.
            try? FileManager.default.removeItem(at: file)
        }.makeTask(EngineDownloadTask.self)
    }

    /// A download task for `url`: `downloadTask(with:completionHandler:)` with a `GET` request.
    public func downloadTask(with url: URL, completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void) -> URLSessionDownloadTask {
        downloadTask(with: URLRequest(url: url), completionHandler: completionHandler)
    }

    // Disfavored too: otherwise, on a URLSession, this default would outrank URLSession's own
    // (disfavored) method wherever the SDK's `bytes(for:delegate:)` does not fit (Linux, or a
    // result annotated `ResponseBytes`), and the stream would come in one piece.
    /// The whole answer of `data(for:)`, handed over as one piece once it has arrived.
    @_disfavoredOverload
    public nonisolated(nonsending) func bytes(for request: URLRequest) async throws -> (ResponseBytes, URLResponse) {
        let (body, response) = try await data(for: request)
        return (ResponseBytes(ChunkSource(chunks: [body])), response)
    }

    /// `data(for:)` with `bodyData` as the request's body: the default for a session of one's own.
    public nonisolated(nonsending) func upload(for request: URLRequest, from bodyData: Data) async throws -> (Data, URLResponse) {
        var request = request
        request.httpBody = bodyData
        return try await data(for: request)
    }

    /// `upload(for:from:)` with the contents of `fileURL`; `URLError(.fileDoesNotExist)` when it cannot be read.
    public nonisolated(nonsending) func upload(for request: URLRequest, fromFile fileURL: URL) async throws -> (Data, URLResponse) {
        try await upload(for: request, from: readUploadFile(fileURL))
    }

    /// `data(for:)` written to a temporary file, whose URL is returned; the caller removes it.
    public nonisolated(nonsending) func download(for request: URLRequest) async throws -> (URL, URLResponse) {
        let (body, response) = try await data(for: request)
        return (try writeDownloadFile(body), response)
    }

    /// `download(for:)` with a `GET` request for `url`.
    public nonisolated(nonsending) func download(from url: URL) async throws -> (URL, URLResponse) {
        try await download(for: URLRequest(url: url))
    }
}

/// An upload's file, read when the transfer starts; `URLError(.fileDoesNotExist)` when it cannot be.
package func readUploadFile(_ url: URL) throws -> Data {
    do { return try Data(contentsOf: url) } catch {
        throw URLError(.fileDoesNotExist, userInfo: [NSURLErrorFailingURLErrorKey: url, NSLocalizedDescriptionKey: "The upload file \(url.path) cannot be read"])
    }
}

/// Writes a download's body where URLSession puts downloads: a fresh file in the temporary folder.
package func writeDownloadFile(_ body: Data) throws -> URL {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("Gramophone-\(UUID().uuidString).tmp")
    do {
        try body.write(to: file)
    } catch {
        throw URLError(
            .cannotCreateFile, userInfo: [NSURLErrorFailingURLErrorKey: file, NSLocalizedDescriptionKey: "Cannot write the download to \(file.path): \(error.localizedDescription)"])
    }
    return file
}
