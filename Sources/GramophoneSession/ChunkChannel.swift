import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a `ResponseBytes` gets its pieces: a function that returns the next piece of the body
/// (nil at the end, or throws the error the stream ended with), and what to do when nobody reads
/// any more (cancel the task, stop the replay).
///
/// Single consumer: a response's bytes are read once, as with `URLSession.AsyncBytes`.
package final class ChunkSource: Sendable {
    // A stored nonisolated(nonsending) closure: its type metadata made Swift 6.2 binaries crash
    // on runtimes older than macOS 15 / iOS 18. Swift 6.3, the package's floor, emits a checked
    // fallback (swiftlang/swift#86829, in 6.3 as #86852), so it is safe on every OS we support.
    private let pull: nonisolated(nonsending) @Sendable () async throws -> Data?
    private let stop: @Sendable () -> Void
    /// When the response's headers arrived from a network, when this source knows it: a time
    /// limit counted from the response holds though its reader comes to it late (a busy machine).
    package let respondedAt: ContinuousClock.Instant?
    /// The channel a network fills, when the pieces come from one: it knows when each came.
    private let arrivals: ChunkChannel?

    package init(
        pull: nonisolated(nonsending) @escaping @Sendable () async throws -> Data?, stop: @escaping @Sendable () -> Void = {},
        respondedAt: ContinuousClock.Instant? = nil, arrivals: ChunkChannel? = nil
    ) {
        self.pull = pull
        self.stop = stop
        self.respondedAt = respondedAt
        self.arrivals = arrivals
    }

    /// The pieces a network puts into `channel` (stamped with when each came), whose response's
    /// headers arrived at `respondedAt`.
    package convenience init(network channel: ChunkChannel, respondedAt: ContinuousClock.Instant?, stop: @escaping @Sendable () -> Void) {
        self.init(pull: { try await channel.next() }, stop: stop, respondedAt: respondedAt, arrivals: channel)
    }

    /// When what `next()` returned last (a piece, the end or its error) came from the network,
    /// where this source knows it; nil elsewhere (a replay, a client library's stream).
    package var arrivalOfLastTaken: ContinuousClock.Instant? {
        arrivals?.arrivalOfLastTaken
    }

    /// The pieces of a body already at hand, then the end (or `error`).
    package convenience init(chunks: [Data], ending error: (any Error)? = nil) {
        let channel = ChunkChannel()
        for chunk in chunks { channel.yield(chunk) }
        channel.finish(throwing: error)
        self.init(pull: { try await channel.next() })
    }

    /// The next piece, read on the caller's actor; nil once the body has ended.
    package nonisolated(nonsending) func next() async throws -> Data? {
        try await pull()
    }

    /// Stops what feeds this source now (cancels its task), though it is still held: a
    /// recording that reached a limit closes the connection without waiting for its release.
    package func cancel() {
        stop()
    }

    deinit {
        // Nobody reads this response any more: its task (or replay) has nothing to do.
        stop()
    }
}

/// Pieces pushed by one side (a URLSession delegate, a recording) and pulled by the reader,
/// buffered in between, with the end or error after the last piece.
package final class ChunkChannel: @unchecked Sendable {
    // @unchecked: every stored property is read and written under `lock`.
    private let lock = NSLock()
    /// Each piece, with when it was given if this channel stamps them.
    private var pieces: [(data: Data, arrival: ContinuousClock.Instant?)] = []
    private var head = 0
    private var ending: Result<Void, any Error>?
    private var endedAt: ContinuousClock.Instant?
    private var lastArrival: ContinuousClock.Instant?
    private var waiter: CheckedContinuation<Data?, any Error>?
    private var cancelled = false
    /// Whether pieces are stamped with when they came: a network's are (a time limit judges them
    /// by it); a replay's are not, which keeps the clock off its path.
    private let stampsArrivals: Bool

    package init(stampsArrivals: Bool = false) {
        self.stampsArrivals = stampsArrivals
    }

    /// When what the reader took last (a piece, the end or its error) was given to this channel:
    /// the network's time for it, however late the reader came to it.
    package var arrivalOfLastTaken: ContinuousClock.Instant? {
        lock.withLock { lastArrival }
    }

    /// Adds a piece for the reader; ignored after `finish`.
    package func yield(_ piece: Data) {
        guard !piece.isEmpty else { return }
        lock.lock()
        guard ending == nil else { lock.unlock(); return }
        if let waiter {
            self.waiter = nil
            lastArrival = stampsArrivals ? .now : nil
            lock.unlock()
            waiter.resume(returning: piece)
            return
        }
        pieces.append((piece, stampsArrivals ? .now : nil))
        lock.unlock()
    }

    /// Ends the stream after the pieces already given: normally, or with `error`. Only the first call counts.
    package func finish(throwing error: (any Error)? = nil) {
        lock.lock()
        guard ending == nil else { lock.unlock(); return }
        ending = error.map { .failure($0) } ?? .success(())
        endedAt = stampsArrivals ? .now : nil
        let waiter = self.waiter
        self.waiter = nil
        if waiter != nil { lastArrival = endedAt }
        lock.unlock()
        if let waiter {
            if let error { waiter.resume(throwing: error) } else { waiter.resume(returning: nil) }
        }
    }

    /// The next piece, waiting for it if none is buffered; nil at the end. A cancelled reading
    /// task ends the wait with `URLError(.cancelled)`, as URLSession's bytes do.
    package nonisolated(nonsending) func next() async throws -> Data? {
        // A cancelled reader stops here even when pieces are waiting (a replay hands them all at once).
        if Task.isCancelled { throw URLError(.cancelled) }
        if let ready = try takeReady() { return ready }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                lock.lock()
                if Task.isCancelled || cancelled {
                    cancelled = true
                    lock.unlock()
                    continuation.resume(throwing: URLError(.cancelled))
                    return
                }
                if head < pieces.count || ending != nil {
                    lock.unlock()
                    // Something came between the first look and now: hand it over at once.
                    return continuation.resume(with: Result { try takeReady() ?? nil })
                }
                guard waiter == nil else {
                    lock.unlock()
                    // A body is read once, by one task at a time; a second reader would take the first's pieces.
                    continuation.resume(
                        throwing: URLError(.resourceUnavailable, userInfo: [NSLocalizedDescriptionKey: "A response's bytes are read by one task at a time, and this one is already being read"]))
                    return
                }
                waiter = continuation
                lock.unlock()
            }
        } onCancel: {
            lock.lock()
            cancelled = true
            let waiter = self.waiter
            self.waiter = nil
            lock.unlock()
            waiter?.resume(throwing: URLError(.cancelled))
        }
    }

    /// A buffered piece, `.some(nil)` at the end, or nil while there is nothing yet (the reader
    /// must wait); the error the stream ended with.
    private func takeReady() throws -> Data?? {
        lock.lock()
        defer { lock.unlock() }
        if head < pieces.count {
            let (piece, arrival) = pieces[head]
            lastArrival = arrival
            head += 1
            if head == pieces.count {
                pieces.removeAll(keepingCapacity: true)
                head = 0
            }
            return .some(piece)
        }
        if ending != nil { lastArrival = endedAt }
        switch ending {
        case .none: return nil
        case .success: return .some(nil)
        case .failure(let error): throw error
        }
    }
}
