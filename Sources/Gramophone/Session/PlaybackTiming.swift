import Foundation

/// When a Turntable's answers arrive.
///
/// By default every answer arrives at once. Code that must cope with slow or out-of-order
/// responses (spinners, timeouts, races between concurrent requests) can replay the timing
/// the vinyl recorded instead.
public enum PlaybackTiming: Sendable, Hashable {
    /// Each answer as soon as it is asked for: the default, and the fastest.
    case immediate
    /// Each answer after the track's recorded `duration` (divided by `speed`), counted from
    /// when it was asked for ("momentary" timing). Tracks without a duration answer at once.
    case recordedDuration(speed: Double = 1)
    /// Concurrent requests complete in the order they completed when recorded: a track answers
    /// at `recordedAt + duration` on the recording's clock, replayed from the moment the first
    /// request reached the Turntable (and from the next request after `timing` is set again),
    /// divided by `speed`.
    /// Tracks without `recordedAt` fall back to `recordedDuration`.
    case chronological(speed: Double = 1)
    /// Each chunk of a streamed response arrives `seconds` after the one before (the response's
    /// headers at once); any other body arrives whole after `seconds`.
    case chunkInterval(TimeInterval)
}

/// The clock the chronological mode replays against.
struct PlaybackClock: Sendable {
    /// Wall-clock start and the recording's start it stands for, set by the first request.
    var origin: (wall: Date, recording: Date)?
}

extension Turntable {
    /// How long to hold `answer` back, in seconds: a stub's delay as its network condition
    /// says (whatever the timing), a track's as the timing says, nothing for the network.
    /// A streamed answer's pieces carry their own delays (`streamPlan`); this is the wait
    /// before its response, none unless a stub's condition delays it.
    func playbackDelay(for answer: Answer) -> TimeInterval {
        if answer.stream != nil, case .track = answer.source { return 0 }
        switch answer.source {
        case .stub(let delay): return delay
        case .network, .miss: return 0
        case .track(let index, let duration): return trackDelay(index: index, recordedDuration: duration)
        }
    }

    private func trackDelay(index: Int, recordedDuration duration: TimeInterval?) -> TimeInterval {
        let (timing, clock) = settings.withLock { ($0.timing, $0.clock) }
        switch timing {
        case .immediate:
            return 0
        case .chunkInterval(let seconds):
            return StreamPlan.clamped(seconds)
        case .recordedDuration(let speed):
            return Self.scaled(duration ?? 0, speed)
        case .chronological(let speed):
            let (recordedAt, start) = deck.withLock { deck -> (Date?, Date?) in
                guard deck.index.tracks.indices.contains(index) else { return (nil, nil) }
                return (deck.index.tracks[index].recordedAt, deck.index.tracks.compactMap(\.recordedAt).min())
            }
            guard let recordedAt, let start else { return Self.scaled(duration ?? 0, speed) }
            let now = Date()
            let origin =
                clock.origin
                ?? settings.withLock { settings in
                    // The first request sets the origin; a racing second one keeps the first's.
                    if settings.clock.origin == nil { settings.clock.origin = (now, start) }
                    return settings.clock.origin ?? (now, start)
                }
            let finishedInRecording = recordedAt.addingTimeInterval(duration ?? 0).timeIntervalSince(origin.recording)
            let due = origin.wall.addingTimeInterval(Self.scaled(finishedInRecording, speed))
            return max(0, due.timeIntervalSince(now))
        }
    }

    /// Waits out `answer`'s delay; returns early (without throwing) when the task is cancelled.
    nonisolated(nonsending) func waitForPlayback(of answer: Answer) async {
        // At most a day, whatever a tiny `speed` or a huge interval asks: the conversion to
        // nanoseconds must not overflow.
        let delay = StreamPlan.clamped(playbackDelay(for: answer))
        guard delay > 0 else { return }
        try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
    }

    private static func scaled(_ seconds: TimeInterval, _ speed: Double) -> TimeInterval {
        guard seconds.isFinite, seconds > 0, speed.isFinite, speed > 0 else { return 0 }
        return seconds / speed
    }
}
