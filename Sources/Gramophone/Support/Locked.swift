import Foundation

/// A value guarded by a lock.
///
/// `Mutex` from the Synchronization module would do, but it needs macOS 15 / iOS 18;
/// `NSLock` keeps the library usable on older Apple systems and costs ~20 ns here.
package final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) { self.state = state }

    @inline(__always)
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
