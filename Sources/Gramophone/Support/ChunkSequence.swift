#if AsyncHTTPClient || OpenAPI
import Foundation

/// A response body's pieces as an `AsyncSequence`, for the client libraries that take one
/// (AsyncHTTPClient's `HTTPClientResponse.Body`, OpenAPI's `HTTPBody`). Read once, by one reader.
struct ChunkSequence: AsyncSequence, Sendable {
    typealias Element = Data
    let source: ChunkSource

    struct AsyncIterator: AsyncIteratorProtocol {
        let source: ChunkSource
        mutating func next() async throws -> Data? { try await source.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: source) }
}
#endif
