import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default recording session: an ephemeral `URLSession`, made on first use.
///
/// Why not make it at once: a `Recording` is often built long before anything records (in a
/// suite trait, at test discovery), and on Linux creating any `URLSession` fixes the protocol
/// classes the shared session will use, so an eager session defeats `HTTPStubber` and other
/// `URLProtocol` registration that comes later. A session nothing records with is never made.
final class DeferredSession: NetworkSession {
    private let made = Locked<URLSession?>(nil)
    /// A protocol class the session must not use: the process-wide stubber's, for the requests
    /// it sends on to the network itself (claimed, then answered by no stub).
    private let excluded: AnyClass?

    init(excluding protocolClass: AnyClass? = nil) {
        excluded = protocolClass
    }

    private var session: URLSession {
        made.withLock { session in
            if let session { return session }
            let configuration = URLSessionConfiguration.ephemeral
            if let excluded {
                configuration.protocolClasses = (configuration.protocolClasses ?? []).filter { $0 != excluded }
            }
            let created = URLSession(configuration: configuration)
            session = created
            return created
        }
    }

    // What the recorder and the drift check send here (`data(for:)`, a stream's `bytes(for:)`, a
    // WebSocket handshake) and `dataTask`, which has no default; uploads and downloads, which
    // nothing sends here, are the protocol's defaults in terms of `data(for:)`.
    func data(for request: URLRequest) async throws -> (Data, URLResponse) { try await session.data(for: request) }

    func bytes(for request: URLRequest) async throws -> (ResponseBytes, URLResponse) { try await session.bytes(for: request) }

    func dataTask(with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionDataTask {
        session.dataTask(with: request, completionHandler: completionHandler)
    }

    func webSocketTask(with request: URLRequest) -> any WebSocketTask {
        let task: URLSessionWebSocketTask = session.webSocketTask(with: request)
        return task
    }

    deinit {
        made.withLock { $0?.finishTasksAndInvalidate() }
    }
}
