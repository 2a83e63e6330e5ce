import Foundation
import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A recording session that reaches nothing: every request fails as if offline. Replay
/// tests record with it to prove the answers come from the vinyl, not a server.
struct NoNetwork: NetworkSession {
    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        throw URLError(.notConnectedToInternet)
    }

    func data(from url: URL) async throws -> (Data, URLResponse) {
        throw URLError(.notConnectedToInternet)
    }

    func dataTask(with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionDataTask {
        // Nothing calls this here; a task for a path that cannot exist fails on resume, as offline would.
        URLSession(configuration: .ephemeral).dataTask(with: URLRequest(url: URL(fileURLWithPath: "/dev/null/offline")), completionHandler: completionHandler)
    }
}

/// Where the recording tests write: one temporary folder per process, each test a subfolder.
enum RecordingFolder {
    static let root = FileManager.default.temporaryDirectory.appendingPathComponent("gramophone-testing-\(UUID().uuidString)", isDirectory: true)
}
