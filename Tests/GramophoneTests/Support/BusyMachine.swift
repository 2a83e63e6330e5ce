import Foundation

/// A busy machine, made on purpose: the threads of Swift's cooperative pool held, as CI's 700
/// tests on two cores once held them long enough that a 0.3-second stream limit's timer began
/// 30 seconds late. A task waiting for a thread meanwhile (a timer's, to start) waits.
enum BusyMachine {
    /// Runs `work` while every thread of the pool but the one `work` runs on is held; `work`
    /// holds its own with `keepThisThread(for:)`.
    static func holdingThePool<T>(_ work: () async throws -> T) async rethrows -> T {
        // One thread per core is the pool's width on Linux and Apple platforms.
        let others = max(ProcessInfo.processInfo.activeProcessorCount - 1, 0)
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        for _ in 0..<others {
            // At the caller's priority: each priority has a pool of its own.
            Task.detached(priority: Task.currentPriority) {
                held.signal()
                // Never held for ever, whatever the test does.
                _ = wait(release, seconds: 60)
            }
        }
        for _ in 0..<others { _ = wait(held, seconds: 60) }
        defer { for _ in 0..<others { release.signal() } }
        return try await work()
    }

    /// Keeps the caller's thread for `seconds` without letting it go: what the network sends
    /// meanwhile is buffered, read by nobody.
    static func keepThisThread(for seconds: TimeInterval) {
        Thread.sleep(forTimeInterval: seconds)
    }

    // Synchronous, so that it holds the thread it runs on: that is the point here.
    private static func wait(_ semaphore: DispatchSemaphore, seconds: TimeInterval) -> DispatchTimeoutResult {
        semaphore.wait(timeout: .now() + seconds)
    }
}
