import Foundation

/// Runs blocking work (waiting for a child process, a loop that sleeps between kills) on a
/// thread of its own and waits for it without holding a thread of Swift concurrency's pool.
///
/// Why: the pool has one thread per core, two on a two-core CI machine. A test that blocks one
/// of them (`waitUntilExit()`, `usleep`) halves what every other test in the process gets, and
/// two such tests at once stop them all; on a busy machine those stalls ran for minutes and
/// made tests that wait for something fail (RELIABILITY.md, "A busy machine").
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try work() })
        }
    }
}

/// A child process (the `gramophone` CLI, a probe) run to its end on a thread of its own: how
/// it ended and what it wrote.
public struct ChildProcess: Sendable {
    /// The exit status, or the signal that ended it.
    public var status: Int32
    /// It was ended by a signal rather than exiting.
    public var killedBySignal: Bool
    /// What it wrote to standard output and standard error.
    public var stdout: String
    public var stderr: String

    /// Runs `executable` with `arguments` (and `environment`, when given, instead of this
    /// process's) and waits for it without holding a thread of the concurrency pool.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) async throws -> ChildProcess {
        try await offThePool {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            if let environment { process.environment = environment }
            // Files, not pipes: a chatty process cannot fill a pipe and hang the test.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gramophone-child-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let out = folder.appendingPathComponent("out"), err = folder.appendingPathComponent("err")
            try Data().write(to: out)
            try Data().write(to: err)
            let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
            process.standardOutput = outHandle
            process.standardError = errHandle
            try process.run()
            process.waitUntilExit()
            try outHandle.close()
            try errHandle.close()
            return ChildProcess(
                status: process.terminationStatus, killedBySignal: process.terminationReason == .uncaughtSignal,
                stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self), stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
        }
    }
}
