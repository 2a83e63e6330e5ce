import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response's body as it arrives: what `bytes(for:)` returns, from a `URLSession` or a
/// `Turntable` alike.
///
/// Read it once, in one of four ways:
///
/// ```swift
/// let (bytes, response) = try await session.bytes(for: request)
/// for try await line in bytes.lines { … }     // text lines, as URLSession.AsyncBytes.lines
/// for try await event in bytes.events { … }   // server-sent events
/// for try await chunk in bytes.chunks { … }   // the pieces as the network delivered them
/// for try await byte in bytes { … }           // byte by byte
/// ```
///
/// The stream ends with the error the response ended with (a cut connection, a recorded
/// error). Cancelling the reading task ends it with `URLError(.cancelled)`; when nothing holds
/// the bytes any more, the request behind them is cancelled.
public struct ResponseBytes: AsyncSequence, Sendable {
    package let source: ChunkSource

    /// Bytes pulled from `source`.
    package init(_ source: ChunkSource) {
        self.source = source
    }

    /// An iterator over the bytes.
    public func makeAsyncIterator() -> Iterator {
        Iterator(source: source)
    }

    /// Reads the bytes one at a time, a piece of the body at a time underneath.
    public struct Iterator: AsyncIteratorProtocol {
        package let source: ChunkSource
        var piece = Data()
        var position = 0

        /// The next byte; nil at the end of the body.
        public mutating func next() async throws -> UInt8? {
            if position < piece.endIndex {
                defer { position += 1 }
                return piece[position]
            }
            guard let next = try await source.next() else { return nil }
            piece = next
            position = piece.startIndex + 1
            return piece[piece.startIndex]
        }
    }

    /// The body's pieces as they arrived: one per `urlSession(_:dataTask:didReceive:)` from a
    /// network, one per recorded chunk from a vinyl.
    public var chunks: AsyncThrowingStream<Data, any Error> {
        let source = source
        return AsyncThrowingStream { try await source.next() }
    }

    /// The body's lines, decoded as UTF-8, as `URLSession.AsyncBytes.lines` gives them: CR,
    /// LF, CR LF, NEL, LS and PS end a line, and empty lines are left out (read
    /// server-sent events with ``events``, which needs them).
    public var lines: AsyncThrowingStream<String, any Error> {
        let reader = LineReader(source: source, rules: .asyncLines)
        return AsyncThrowingStream { try await reader.next() }
    }

    /// The body read as server-sent events (`text/event-stream`), each as soon as the empty
    /// line that ends it has arrived, whatever the chunks' boundaries.
    public var events: AsyncThrowingStream<ServerSentEvent, any Error> {
        let reader = LineReader(source: source, rules: .eventStream)
        let parser = ParserBox()
        return AsyncThrowingStream {
            while let line = try await reader.next() {
                if let event = parser.read(line) { return event }
            }
            return nil
        }
    }
}

/// Lines pulled from a chunk source. One reader at a time (the stream that owns it).
final class LineReader: @unchecked Sendable {
    // @unchecked: used by the one AsyncThrowingStream it was made for, whose unfolding closure
    // runs one call at a time.
    private let source: ChunkSource
    private var splitter: LineSplitter
    private var ready: [String] = []
    private var head = 0
    private var ended = false

    init(source: ChunkSource, rules: LineSplitter.Rules) {
        self.source = source
        splitter = LineSplitter(rules)
    }

    func next() async throws -> String? {
        while head == ready.count {
            if ended { return nil }
            ready.removeAll(keepingCapacity: true)
            head = 0
            if let piece = try await source.next() {
                ready = splitter.lines(in: piece)
            } else {
                ended = true
                if let last = splitter.finish() { ready = [last] }
            }
        }
        defer { head += 1 }
        return ready[head]
    }
}

/// The event parser of one `events` stream.
final class ParserBox: @unchecked Sendable {
    // @unchecked: as LineReader, used by one stream's unfolding closure, one call at a time.
    private var parser = EventStreamParser()

    func read(_ line: String) -> ServerSentEvent? { parser.read(line: line) }
}
