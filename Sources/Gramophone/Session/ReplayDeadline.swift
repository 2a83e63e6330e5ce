import Foundation

/// When a client wants a response by (AsyncHTTPClient's `deadline`), and what it throws once that
/// has passed. A replay waiting out its timing (a stub's delay, a track's recorded duration,
/// redirect hops) stops at the deadline and throws, as the client would against a slow server.
/// Only the wait for the response counts: AsyncHTTPClient stops its deadline once the head arrives.
struct ReplayDeadline: Sendable {
    /// On `DispatchTime`'s uptime clock, as `NIODeadline` keeps it: read against the clock
    /// only when a replay has a wait to hold to it, not on every replay.
    let uptimeNanoseconds: UInt64
    /// Made only when the deadline is missed: boxing an error on every replay costs as much as
    /// a tenth of one.
    let error: @Sendable () -> any Error
}

extension Turntable {
    /// ``waitForPlayback(of:)``, stopped by `deadline`. A stub's or a track's answer that is held
    /// back is held no later than the deadline, and throws the deadline's error when it would
    /// have arrived after it. An answer not held back is never late; a live one or a miss is left alone.
    nonisolated(nonsending) func waitForPlayback(of answer: Answer, until deadline: ReplayDeadline?) async throws {
        guard let deadline else { return await waitForPlayback(of: answer) }
        // No delay for a live answer or a miss (`playbackDelay(for:)`): they are left alone.
        let delay = StreamPlan.clamped(playbackDelay(for: answer))
        guard delay > 0 else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let left = deadline.uptimeNanoseconds > now ? deadline.uptimeNanoseconds - now : 0
        let wait = UInt64(delay * 1_000_000_000)
        try? await Task.sleep(nanoseconds: min(wait, left))
        // A cancelled caller is told it was cancelled, not that it ran out of time.
        if wait < left || Task.isCancelled { return }
        throw deadline.error()
    }
}
