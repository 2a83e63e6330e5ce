import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Vinyl chose a task's track when the task was made and answered on one serial queue; code
// ported from it (and any code that resumes tasks in a row) relies on the order holding. These
// tests resume tasks in a row many times, with the CPU busy beside them, and ask for that order
// every time. The suite's name holds "Concurrency", so scripts/test runs it under ThreadSanitizer.
@Suite("Task order (Concurrency)")
struct TaskOrderConcurrencyTests {
    static let taskCount = 5
    static let rounds = 1_000

    /// Five tracks at five URLs, or (`sameURL`) five answers to one URL, the n-th saying "n".
    static func vinyl(sameURL: Bool) -> Vinyl {
        Vinyl(
            name: "order",
            tracks: (0..<taskCount).map { index in
                let url = URL(string: "https://api.example.com/items/\(sameURL ? 0 : index)")!
                return Track(request: Track.Request(method: "GET", url: url), response: Track.Response(body: Data("\(index)".utf8)))
            })
    }

    @Test("Data tasks resumed in a row call their handlers in that order, every time, on a busy machine")
    func handlersRunInResumeOrder() async throws {
        try await CPULoad.beside {
            for round in 0..<Self.rounds {
                let turntable = Turntable(vinyl: Self.vinyl(sameURL: false))
                let order = try await Self.resumeInARow(on: turntable) { index in URL(string: "https://api.example.com/items/\(index)")! }
                try #require(order.map(\.index) == Array(0..<Self.taskCount), "round \(round): handlers ran in the order \(order.map(\.index))")
                try #require(order.map(\.body) == (0..<Self.taskCount).map { "\($0)" }, "round \(round)")
            }
        }
    }

    @Test("With .trackOrder(), the n-th resumed task gets the n-th track, every time, on a busy machine")
    func trackOrderFollowsResumeOrder() async throws {
        try await CPULoad.beside {
            for round in 0..<Self.rounds {
                let turntable = Turntable(vinyl: Self.vinyl(sameURL: true), matching: .trackOrder())
                let order = try await Self.resumeInARow(on: turntable) { _ in URL(string: "https://api.example.com/items/0")! }
                try #require(order.map(\.index) == Array(0..<Self.taskCount), "round \(round): handlers ran in the order \(order.map(\.index))")
                try #require(order.map(\.body) == (0..<Self.taskCount).map { "\($0)" }, "round \(round): task n got track \(order.map(\.body))")
            }
        }
    }

    @Test("Data, upload and download tasks resumed in a row complete in that order for a delegate")
    func delegatesHearCompletionsInResumeOrder() async throws {
        try await CPULoad.beside {
            for round in 0..<200 {
                let recorder = DelegateRecorder()
                let turntable = Turntable(vinyl: Self.vinyl(sameURL: false)).delegating(to: recorder, queue: recorder.queue)
                var tasks: [URLSessionTask] = []
                for index in 0..<Self.taskCount {
                    let url = URL(string: "https://api.example.com/items/\(index)")!
                    let task: URLSessionTask
                    switch index % 3 {
                    case 0: task = turntable.dataTask(with: url)
                    case 1: task = turntable.uploadTask(with: URLRequest(url: url), from: Data())
                    default: task = turntable.downloadTask(with: url)
                    }
                    task.taskDescription = "\(index)"
                    tasks.append(task)
                }
                for task in tasks { task.resume() }
                for _ in tasks { try #require(await recorder.waitForCompletion()) }
                let identifiers = tasks.map(\.taskIdentifier)
                let completedOrder = recorder.log.withLock { $0.completedTasks }
                try #require(completedOrder == identifiers, "round \(round): completed \(completedOrder), resumed \(identifiers)")
            }
        }
    }

    /// Resumes one data task per track in a row and returns each handler's task index and body,
    /// in the order the handlers ran.
    static func resumeInARow(on turntable: Turntable, url: (Int) -> URL) async throws -> [(index: Int, body: String)] {
        let calls = Locked<[(index: Int, body: String)]>([])
        let done = DispatchGroup()
        let tasks = (0..<taskCount).map { index in
            done.enter()
            return turntable.dataTask(with: url(index)) { data, _, _ in
                calls.withLock { $0.append((index, data.map { String(decoding: $0, as: UTF8.self) } ?? "error")) }
                done.leave()
            }
        }
        for task in tasks { task.resume() }
        await withCheckedContinuation { continuation in done.notify(queue: .global()) { continuation.resume() } }
        return calls.withLock { $0 }
    }
}

/// Busy threads beside a test, one a core: a test of ordering must hold when the machine is
/// loaded (as CI's is), not only when it is idle.
enum CPULoad {
    static func beside<T>(_ work: () async throws -> T) async rethrows -> T {
        let stop = Locked(false)
        let finished = DispatchGroup()
        for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
            finished.enter()
            Thread.detachNewThread {
                while !stop.withLock({ $0 }) { spin() }
                finished.leave()
            }
        }
        defer {
            stop.withLock { $0 = true }
            finished.wait()
        }
        return try await work()
    }

    /// A little arithmetic the optimizer cannot drop.
    private static func spin() {
        var x: UInt64 = 1
        for i in 0..<10_000 { x = x &* 6_364_136_223_846_793_005 &+ UInt64(i) }
        if x == 42 { print("") }
    }
}
