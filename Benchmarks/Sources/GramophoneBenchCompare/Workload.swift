import Foundation

/// One benchmark as `scripts/bench-compare` runs it: `run(n)` does `n` operations and returns the
/// seconds they took, timed by the workload itself so its setup (building a vinyl, restoring a
/// file) stays out of the figure.
struct Workload: Sendable {
    let name: String
    /// Operations a call should do to take about a millisecond: replays are timed a thousand at a
    /// time, so reading the clock is not part of the figure.
    let batch: Int
    let run: @Sendable (Int) async throws -> Double

    init(_ name: String, batch: Int = 1, run: @escaping @Sendable (Int) async throws -> Double) {
        self.name = name
        self.batch = batch
        self.run = run
    }
}

/// Times `count` calls of `operation`, in seconds.
func timed(_ count: Int, _ operation: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    for _ in 0..<count { try await operation() }
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// The same, on the main actor (where view models and `@MainActor` tests call from).
@MainActor func timedOnMain(_ count: Int, _ operation: @MainActor () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    for _ in 0..<count { try await operation() }
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
