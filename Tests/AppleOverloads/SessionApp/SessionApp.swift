// An app's networking file, as on Apple platforms: it imports Foundation and GramophoneSession
// (and, on Linux, the stand-in for what Apple's SDK adds to URLSession), and calls URLSession
// directly as well as through `any NetworkSession`. Built, not run: an overload clash between
// Gramophone and the SDK fails the build here (Gramophone.docc/Platforms.md). Not a product.
import AppleSDKStandIn
import Foundation
import GramophoneSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every Apple-SDK method that GramophoneSession also declares, called plainly on a URLSession:
/// each must stay the SDK's (its result type pins the choice where the types differ).
func plainCalls(_ session: URLSession, _ request: URLRequest, _ file: URL) async throws {
    let (data, _) = try await session.data(for: request)
    let (fromURL, _) = try await session.data(from: request.url!)
    let (uploaded, _) = try await session.upload(for: request, from: data)
    let (uploadedFile, _) = try await session.upload(for: request, fromFile: file)
    let (downloaded, _) = try await session.download(for: request)
    let (downloadedURL, _) = try await session.download(from: request.url!)
    let (bytes, _) = try await session.bytes(for: request)
    let (bytesFrom, _) = try await session.bytes(from: request.url!)
    let sdkBytes: [URLSession.AsyncBytes] = [bytes, bytesFrom]
    _ = (fromURL, uploaded, uploadedFile, downloaded, downloadedURL, sdkBytes)
    // URLSession's own spellings with a task delegate stay reachable too.
    _ = try await session.data(for: request, delegate: nil)
    _ = try await session.download(for: request, delegate: nil)
}

/// URLSession.shared, as app code most often writes it.
func sharedSessionCalls(_ request: URLRequest) async throws -> Data {
    try await URLSession.shared.data(for: request).0
}

/// The same calls through `any NetworkSession`: Gramophone's requirements, on a URLSession or
/// a Turntable alike; `bytes(for:)` is Gramophone's `ResponseBytes` there.
func protocolCalls(_ session: any NetworkSession, _ request: URLRequest, _ file: URL) async throws {
    let (data, _) = try await session.data(for: request)
    _ = try await session.data(from: request.url!)
    _ = try await session.upload(for: request, from: data)
    _ = try await session.upload(for: request, fromFile: file)
    _ = try await session.download(for: request)
    _ = try await session.download(from: request.url!)
    let (bytes, _) = try await session.bytes(for: request)
    let gramophoneBytes: ResponseBytes = bytes
    _ = gramophoneBytes
    taskCalls(session, request, file)
}

/// The completion-handler tasks older code calls, through `any NetworkSession`.
func taskCalls(_ session: any NetworkSession, _ request: URLRequest, _ file: URL) {
    session.dataTask(with: request) { _, _, _ in }.resume()
    session.dataTask(with: request.url!) { _, _, _ in }.resume()
    let upload: URLSessionUploadTask = session.uploadTask(with: request, from: Data()) { _, _, _ in }
    let uploadFile: URLSessionUploadTask = session.uploadTask(with: request, fromFile: file) { _, _, _ in }
    let download: URLSessionDownloadTask = session.downloadTask(with: request) { _, _, _ in }
    let downloadURL: URLSessionDownloadTask = session.downloadTask(with: request.url!) { _, _, _ in }
    for task in [upload, uploadFile, download, downloadURL] as [URLSessionTask] { task.resume() }
}

/// The same task methods called plainly on a URLSession: URLSession's own.
func plainTaskCalls(_ session: URLSession, _ request: URLRequest, _ file: URL) {
    session.dataTask(with: request) { _, _, _ in }.resume()
    session.dataTask(with: request.url!) { _, _, _ in }.resume()
    session.uploadTask(with: request, from: nil) { _, _, _ in }.resume()
    session.uploadTask(with: request, fromFile: file) { _, _, _ in }.resume()
    session.downloadTask(with: request) { _, _, _ in }.resume()
    session.downloadTask(with: request.url!) { _, _, _ in }.resume()
}

/// A generic caller, as a network layer written against the protocol is.
func genericCalls<Session: NetworkSession>(_ session: Session, _ request: URLRequest) async throws -> ResponseBytes {
    _ = try await session.data(for: request)
    return try await session.bytes(for: request).0
}

/// URLSession handed over as `any NetworkSession`, the production default.
func productionDefault(_ request: URLRequest, _ file: URL) async throws {
    try await protocolCalls(URLSession.shared, request, file)
    _ = try await genericCalls(URLSession.shared, request)
}
