import Foundation

/// How a streamed response arrived: the pieces its body came in, when each came, and how the
/// stream ended. The body itself stays whole in `Track.Response.body`, so matching, redaction,
/// scanning and every format see it as any other body; this is the shape a replay gives it back.
struct TrackStream: Sendable, Hashable {
    /// A piece of the body: the next `length` bytes, which arrived `offset` seconds after the request was sent.
    struct Chunk: Sendable, Hashable {
        var offset: TimeInterval
        var length: Int
    }

    /// How the stream ended.
    enum End: Sendable, Hashable {
        /// The server ended it.
        case finished
        /// It broke off with this error after its last piece (a lost connection, a timeout).
        case failed(Track.Failure)
        /// The caller stopped reading and the request was cancelled.
        case cancelled
        /// The recorder stopped it at a `StreamLimit`; the text says which (`sentinel [DONE]`).
        case stopped(String)
    }

    var chunks: [Chunk]
    var end: End

    /// The chunks made to add up to a body of `count` bytes. Something may have changed the body
    /// after the chunks were taken (a `beforeRecordResponse` hook, code editing a track): the
    /// last chunk takes the bytes added, the last ones give up the bytes removed.
    func fitted(to count: Int) -> TrackStream {
        var difference = count - chunks.reduce(0) { $0 + $1.length }
        guard difference != 0 else { return self }
        var fitted = self
        if difference > 0 {
            if fitted.chunks.isEmpty { fitted.chunks = [Chunk(offset: 0, length: 0)] }
            fitted.chunks[fitted.chunks.count - 1].length += difference
            return fitted
        }
        while difference < 0, let last = fitted.chunks.indices.last {
            let taken = min(fitted.chunks[last].length, -difference)
            fitted.chunks[last].length -= taken
            difference += taken
            if fitted.chunks[last].length == 0 { fitted.chunks.removeLast() }
        }
        return fitted
    }

    /// One piece or none, given at once: a body replayed as if it was not streamed.
    var isOnePieceAtOnce: Bool { chunks.count <= 1 && chunks.allSatisfy { $0.offset == 0 } }

    /// The body's byte ranges, one per chunk.
    var ranges: [Range<Int>] {
        var start = 0
        return chunks.map { chunk in
            defer { start += chunk.length }
            return start..<(start + chunk.length)
        }
    }

    /// "12 chunks over 480 ms, stopped by sentinel [DONE]", as `gramophone inspect` shows it.
    var summary: String {
        let span = Int(((chunks.last?.offset ?? 0) * 1000).rounded())
        let ending: String
        switch end {
        case .finished: ending = "finished"
        case .cancelled: ending = "cancelled by the caller"
        case .stopped(let reason): ending = "stopped by \(reason)"
        case .failed(let failure): ending = "broke off with \(failure.domain) \(failure.code)"
        }
        return "\(chunks.count) chunk\(chunks.count == 1 ? "" : "s") over \(span) ms, \(ending)"
    }

    /// The error a reader gets after the last piece, if the stream did not end cleanly.
    func endingError(for url: URL) -> (any Error)? { failure?.makeError(for: url) }

    /// How the stream failed, if it did not end cleanly (a cancel as `URLError.cancelled`).
    var failure: Track.Failure? {
        switch end {
        case .failed(let failure): return failure
        case .cancelled: return Track.Failure(.cancelled)
        case .finished, .stopped: return nil
        }
    }
}

extension TrackStream {
    /// A stream of `pieces` arriving `interval` seconds apart, the first at once (an extension,
    /// so the memberwise `init(chunks:end:)` stays).
    init(pieces: [Int], interval: TimeInterval) {
        self.init(chunks: pieces.enumerated().map { Chunk(offset: TimeInterval($0.offset) * max(0, interval), length: $0.element) }, end: .finished)
    }
}
