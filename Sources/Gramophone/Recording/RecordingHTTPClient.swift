#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `HTTPClient` a recording reaches the network through for requests that came in through
/// `HTTPClientSession`: the recording's own, or one made on first use (configured as
/// `HTTPClient.shared` is) and shut down on `eject()`. A recording that never records over
/// AsyncHTTPClient makes none.
final class RecordingHTTPClient: Sendable {
    private let given: HTTPClient?
    private let made = Locked<HTTPClient?>(nil)

    init(_ given: HTTPClient?) {
        self.given = given
    }

    var client: HTTPClient {
        if let given { return given }
        return made.withLock { made in
            if let made { return made }
            let created = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .singletonConfiguration)
            made = created
            return created
        }
    }

    /// Shuts the client made here down (never the recording's own); a later recording makes another.
    func shutDown() {
        let client = made.withLock { made -> HTTPClient? in
            defer { made = nil }
            return made
        }
        client?.shutdown { _ in }
    }

    deinit {
        shutDown()
    }
}

extension Recorder {
    /// Opens `live` through the recording's `HTTPClient` and hands its body on as it arrives.
    func relayThroughHTTPClient(_ live: Track.Request, deadline: NIODeadline) async -> Answer {
        do {
            let response = try await httpClient.client.execute(live.httpClientRequest, deadline: deadline)
            guard let head = HTTPURLResponse(response, requestURL: live.url) else {
                return Answer(outcome: .failure(RecordingError.notHTTP(live.url)), source: .network)
            }
            let reader = HTTPClientBodyReader(response.body)
            return Answer(
                outcome: .success((head, Data())), source: .network, relayed: ChunkSource(pull: { try await reader.next() }),
                head: ResponseHead(head, headers: Headers(response.headers.map { Headers.Field(name: $0.name, value: $0.value) })))
        } catch {
            return Answer(outcome: .failure(error), source: .network)
        }
    }
}

/// AsyncHTTPClient's response body, read piece by piece for a `ChunkSource`.
final class HTTPClientBodyReader: @unchecked Sendable {
    // @unchecked: `iterator` is touched by `next()` only, and a ChunkSource has one reader at a time.
    private var iterator: HTTPClientResponse.Body.AsyncIterator

    init(_ body: HTTPClientResponse.Body) {
        iterator = body.makeAsyncIterator()
    }

    func next() async throws -> Data? {
        guard let buffer = try await iterator.next() else { return nil }
        return Data(buffer.readableBytesView)
    }
}
#endif
