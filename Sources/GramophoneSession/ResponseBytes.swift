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
public typealias ResponseBytes = ResponseStream<UInt8>

/// A response's body read as it arrives: bytes (``ResponseBytes``), or the `lines`, `events`
/// or `chunks` made of them.
///
/// Reading runs on the reader's own actor (`next(isolation:)`): a `@MainActor` test or view
/// model reads a replayed stream without a thread hop per element.
public struct ResponseStream<Element: Sendable>: AsyncSequence, Sendable {
    let reader: any ResponseReader<Element>

    init(_ reader: any ResponseReader<Element>) {
        self.reader = reader
    }

    /// An iterator over the elements; every iterator of one stream reads the same body, once.
    public func makeAsyncIterator() -> Iterator {
        Iterator(reader: reader)
    }

    /// Reads the next element. Underneath, a piece of the body at a time: the elements it holds
    /// are handed out without another suspension point (inlined into the reader's code).
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let reader: any ResponseReader<Element>
        @usableFromInline var batch: [Element] = []
        @usableFromInline var position = 0

        init(reader: any ResponseReader<Element>) {
            self.reader = reader
        }

        /// The next element, on the caller's actor; nil at the end of the body.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> Element? {
            if position < batch.count {
                defer { position += 1 }
                return batch[position]
            }
            return try await refill()
        }

        /// The next element; nil at the end of the body. Nonsending too, for the deployment
        /// targets whose `for try await` calls this rather than `next(isolation:)`.
        @inlinable
        public nonisolated(nonsending) mutating func next() async throws -> Element? {
            try await next(isolation: #isolation)
        }

        /// Reads the next piece's elements and returns the first; nil at the end.
        @usableFromInline
        nonisolated(nonsending) mutating func refill() async throws -> Element? {
            repeat {
                guard let next = try await reader.nextBatch() else { return nil }
                batch = next
            } while batch.isEmpty
            position = 1
            return batch[0]
        }
    }
}

extension ResponseStream where Element == UInt8 {
    /// Bytes pulled from `source`.
    package init(_ source: ChunkSource) {
        self.init(PieceReader(source) { Array($0) })
    }

    /// Where these bytes come from.
    package var source: ChunkSource {
        // Every ResponseBytes is made from a source by the initialiser above.
        (reader as? PieceReader<UInt8>)?.source ?? ChunkSource(chunks: [])
    }

    /// The body's pieces as they arrived: one per `urlSession(_:dataTask:didReceive:)` from a
    /// network, one per recorded chunk from a vinyl.
    public var chunks: ResponseStream<Data> {
        ResponseStream<Data>(PieceReader(source) { [$0] })
    }

    /// The body's lines, decoded as UTF-8, as `URLSession.AsyncBytes.lines` gives them: CR,
    /// LF, CR LF, NEL, LS and PS end a line, and empty lines are left out (read
    /// server-sent events with ``events``, which needs them).
    public var lines: ResponseStream<String> {
        ResponseStream<String>(LineReader(source: source, rules: .asyncLines))
    }

    /// The body read as server-sent events (`text/event-stream`), each as soon as the empty
    /// line that ends it has arrived, whatever the chunks' boundaries.
    public var events: ResponseStream<ServerSentEvent> {
        ResponseStream<ServerSentEvent>(EventReader(LineReader(source: source, rules: .eventStream)))
    }
}

/// What a `ResponseStream` reads its elements from. Readers are classes read by one consumer
/// at a time (a response's body is read once), on the consumer's actor.
@usableFromInline
protocol ResponseReader<Element>: AnyObject, Sendable {
    associatedtype Element
    /// The elements of the next piece of the body (possibly none); nil at its end.
    nonisolated(nonsending) func nextBatch() async throws -> [Element]?
}

/// The body a piece at a time, each piece made into its elements: its bytes, or itself.
final class PieceReader<Element: Sendable>: ResponseReader {
    let source: ChunkSource
    let elements: @Sendable (Data) -> [Element]

    init(_ source: ChunkSource, elements: @escaping @Sendable (Data) -> [Element]) {
        self.source = source
        self.elements = elements
    }

    nonisolated(nonsending) func nextBatch() async throws -> [Element]? {
        try await source.next().map(elements)
    }
}

/// Lines pulled from a chunk source, as many as each piece completes.
final class LineReader: ResponseReader, @unchecked Sendable {
    // @unchecked: the splitter belongs to the one consumer reading the body.
    private let source: ChunkSource
    private var splitter: LineSplitter
    private var ended = false

    init(source: ChunkSource, rules: LineSplitter.Rules) {
        self.source = source
        splitter = LineSplitter(rules)
    }

    /// The lines the next piece completes; at the end, the last line if it had no terminator.
    nonisolated(nonsending) func nextBatch() async throws -> [String]? {
        if ended { return nil }
        if let piece = try await source.next() { return splitter.lines(in: piece) }
        ended = true
        return splitter.finish().map { [$0] } ?? []
    }
}

/// Server-sent events read from event-stream lines.
final class EventReader: ResponseReader, @unchecked Sendable {
    // @unchecked: the parser belongs to the one consumer reading the body.
    private let lines: LineReader
    private var parser = EventStreamParser()

    init(_ lines: LineReader) { self.lines = lines }

    nonisolated(nonsending) func nextBatch() async throws -> [ServerSentEvent]? {
        guard let lines = try await lines.nextBatch() else { return nil }
        return lines.compactMap { parser.read(line: $0) }
    }
}
