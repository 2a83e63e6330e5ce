// A test file of an app, as on Apple platforms: it imports Foundation and Gramophone (and, on
// Linux, the stand-in for what Apple's SDK adds to URLSession), and calls URLSession directly,
// a Turntable, and both through `any NetworkSession`. Built, not run: an overload clash between
// Gramophone and the SDK fails the build here (Gramophone.docc/Platforms.md). Not a product.
import AppleSDKStandIn
import Foundation
import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every Apple-SDK method Gramophone also declares, called plainly on a URLSession made by a
/// Turntable: each stays the SDK's.
func plainCalls(_ turntable: Turntable, _ request: URLRequest, _ file: URL) async throws {
    let session = turntable.makeURLSession()
    let (data, _) = try await session.data(for: request)
    _ = try await session.data(from: request.url!)
    _ = try await session.upload(for: request, from: data)
    _ = try await session.upload(for: request, fromFile: file)
    _ = try await session.download(for: request)
    _ = try await session.download(from: request.url!)
    let (bytes, _) = try await session.bytes(for: request)
    let (bytesFrom, _) = try await session.bytes(from: request.url!)
    let sdkBytes: [URLSession.AsyncBytes] = [bytes, bytesFrom]
    _ = sdkBytes
    _ = try await URLSession.shared.data(for: request)
}

/// The Turntable itself, called as the code under test calls its session.
func turntableCalls(_ turntable: Turntable, _ request: URLRequest, _ file: URL) async throws {
    let (data, _) = try await turntable.data(for: request)
    _ = try await turntable.data(from: request.url!)
    _ = try await turntable.upload(for: request, from: data)
    _ = try await turntable.upload(for: request, fromFile: file)
    _ = try await turntable.download(for: request)
    _ = try await turntable.download(from: request.url!)
    let (bytes, _) = try await turntable.bytes(for: request)
    let gramophoneBytes: ResponseBytes = bytes
    _ = gramophoneBytes
}

/// Both through `any NetworkSession`: Gramophone's requirements.
func protocolCalls(_ turntable: Turntable, _ request: URLRequest, _ file: URL) async throws {
    let sessions: [any NetworkSession] = [turntable, turntable.makeURLSession(), URLSession.shared]
    for session in sessions {
        let (data, _) = try await session.data(for: request)
        _ = try await session.data(from: request.url!)
        _ = try await session.upload(for: request, from: data)
        _ = try await session.upload(for: request, fromFile: file)
        _ = try await session.download(for: request)
        _ = try await session.download(from: request.url!)
        let (bytes, _) = try await session.bytes(for: request)
        let gramophoneBytes: ResponseBytes = bytes
        _ = gramophoneBytes
        session.dataTask(with: request) { _, _, _ in }.resume()
        session.uploadTask(with: request, from: data) { _, _, _ in }.resume()
        session.uploadTask(with: request, fromFile: file) { _, _, _ in }.resume()
        session.downloadTask(with: request) { _, _, _ in }.resume()
        session.downloadTask(with: request.url!) { _, _, _ in }.resume()
    }
}

/// A networking layer injected by `init`, as the DVR migration guide has it: typed
/// `any NetworkSession` where it was `URLSession`, its completion-handler calls unchanged.
final class UploadsClient {
    let session: any NetworkSession
    init(session: any NetworkSession = URLSession.shared) { self.session = session }

    func send(_ body: Data, to request: URLRequest, done: @escaping @Sendable (Int?) -> Void) {
        session.uploadTask(with: request, from: body) { _, response, _ in done((response as? HTTPURLResponse)?.statusCode) }.resume()
    }

    func fetch(_ url: URL, done: @escaping @Sendable (URL?) -> Void) {
        session.downloadTask(with: url) { file, _, _ in done(file) }.resume()
    }
}
