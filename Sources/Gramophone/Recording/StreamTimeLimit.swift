import Foundation

/// The time a `StreamLimit` gives a stream or a conversation, counted from its response (its
/// handshake). A timer stops one nobody reads when the time is up; and its reader asks `isUp`
/// of each piece, by the time the piece came where that is known, because on a busy machine
/// the timer's task can run late while the reader takes pieces that came past the time from a
/// buffer, without waiting (CI once read an endless stream limited to 0.3 seconds to its end
/// at 30).
struct StreamTimeLimit: Sendable {
    let seconds: TimeInterval
    /// Nil when the limit sets no time (not a positive, finite number of seconds).
    private let deadline: ContinuousClock.Instant?

    /// The limit's time from `start`: when the response arrived, where its source knows it
    /// (`ChunkSource.respondedAt`), else now.
    init(_ limit: StreamLimit, from start: ContinuousClock.Instant? = nil) {
        seconds = limit.seconds
        deadline =
            limit.seconds.isFinite && limit.seconds > 0
            ? (start ?? .now).advanced(by: .seconds(min(limit.seconds, GramophoneFormat.maximumDuration))) : nil
    }

    /// Whether the time was up at `instant` (when a piece came from the network, as its source
    /// knows: `ChunkSource.arrivalOfLastTaken`), or is up now when that is not known.
    func isUp(at instant: ContinuousClock.Instant? = nil) -> Bool {
        guard let deadline else { return false }
        return (instant ?? .now) >= deadline
    }

    /// How a stream the time stopped ends: `"0.3 seconds"`, as the vinyl and `StreamLimit` spell it.
    var reason: String { "\(GramophoneFormat.formatSeconds(seconds)) seconds" }

    /// Calls `expire` when the time is up, unless the task returned is cancelled first; nil when
    /// the limit sets no time.
    func startTimer(_ expire: @escaping @Sendable () -> Void) -> Task<Void, Never>? {
        guard let deadline else { return nil }
        return Task {
            // Until the instant, not for a duration: a timer that starts late still ends on time.
            guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
            expire()
        }
    }
}
