import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 36, items 3 and 4: a task's own `delegate` hears its messages before the session's
/// delegate, as Apple's `URLSessionTask.delegate` does; and a redirect a delegate refuses ends
/// with the 3xx response, as URLSession delivers it, through the Turntable's tasks and through
/// `makeURLSession()`.
@Suite("Task delegates and refused redirects")
struct TaskDelegateTests {
    static let plain = URL(string: "https://api.example.com/plain")!
    static let start = URL(string: "https://api.example.com/start")!

    static func turntable() -> Turntable {
        Turntable(
            vinyl: Vinyl(
                name: "delegates",
                tracks: [
                    Track("GET https://api.example.com/plain", .text("hello")),
                    Track("GET https://api.example.com/start", .text("moved", status: 302, headers: ["Location": "/target"])),
                    Track("GET https://api.example.com/target", .text("arrived")),
                ]))
    }

    /// A session delegate and a task delegate writing to one log, on one queue.
    static func recorders() -> (session: DelegateRecorder, task: DelegateRecorder, log: Locked<[String]>) {
        let log = Locked<[String]>([])
        let session = DelegateRecorder(shared: ("session", log))
        let task = DelegateRecorder(queue: session.queue, shared: ("task", log))
        return (session, task, log)
    }

    /// The task's delegate heard every event, each before the session's delegate heard it
    /// (whether the session's hears it too after a question, as Gramophone does, or not).
    static func expectTaskDelegateFirst(_ log: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let taskEvents = log.filter { $0.hasPrefix("task ") }.map { $0.dropFirst(5) }
        #expect(taskEvents == ["response", "data", "complete"], "log: \(log)", sourceLocation: sourceLocation)
        for (index, entry) in log.enumerated() where entry.hasPrefix("session ") {
            let event = entry.dropFirst(8)
            #expect(log[..<index].contains("task \(event)"), "the session's delegate heard \(event) first: \(log)", sourceLocation: sourceLocation)
        }
        #expect(log.contains("session complete"), "the session's delegate still hears the end: \(log)", sourceLocation: sourceLocation)
    }

    @Test("Turntable task: its own delegate hears response, data and completion before the Turntable's delegate")
    func turntableTaskDelegateFirst() async {
        let turntable = Self.turntable()
        let (session, task, log) = Self.recorders()
        turntable.setDelegate(session, queue: session.queue)
        let dataTask = turntable.dataTask(with: Self.plain)
        dataTask.delegate = task
        dataTask.resume()
        #expect(await session.waitForCompletion())
        Self.expectTaskDelegateFirst(log.withLock { $0 })
        #expect(task.log.withLock { $0.chunks.reduce(Data(), +) } == Data("hello".utf8))
    }

    @Test("Turntable task without a session delegate: its own delegate hears everything")
    func turntableTaskDelegateAlone() async {
        let turntable = Self.turntable()
        let (_, task, log) = Self.recorders()
        let dataTask = turntable.dataTask(with: Self.plain)
        dataTask.delegate = task
        dataTask.resume()
        #expect(await task.waitForCompletion())
        #expect(log.withLock { $0 } == ["task response", "task data", "task complete"])
    }

    @Test("A completion-handler task asks its own delegate about a redirect")
    func completionHandlerTaskAsksItsDelegate() async {
        let turntable = Self.turntable()
        let (_, task, log) = Self.recorders()
        let seen = await Seen.handler { handler in
            let dataTask = turntable.dataTask(with: URLRequest(url: Self.start), completionHandler: handler)
            dataTask.delegate = task
            return dataTask
        }
        #expect(log.withLock { $0 } == ["task redirect 302"])
        #expect(seen.body == Data("arrived".utf8))
    }

    @Test("makeURLSession(): a task's own delegate hears its messages before the session's delegate")
    func urlSessionTaskDelegateFirst() async {
        let turntable = Self.turntable()
        let (session, task, log) = Self.recorders()
        let urlSession = turntable.makeURLSession(delegate: session, delegateQueue: session.queue)
        defer { urlSession.finishTasksAndInvalidate() }
        let dataTask = urlSession.dataTask(with: Self.plain)
        dataTask.delegate = task
        dataTask.resume()
        #expect(await session.waitForCompletion())
        Self.expectTaskDelegateFirst(log.withLock { $0 })
    }

    // MARK: Refused redirects

    /// What a refusing delegate and a refusing task see of `/start`: the 302, its body, no error.
    static func expectThe302(_ recorder: DelegateRecorder, sourceLocation: SourceLocation = #_sourceLocation) {
        recorder.log.withLock { log in
            #expect(log.error == nil, "\(String(describing: log.error))", sourceLocation: sourceLocation)
            #expect(log.response?.statusCode == 302, sourceLocation: sourceLocation)
            #expect(log.chunks.reduce(Data(), +) == Data("moved".utf8), sourceLocation: sourceLocation)
        }
        #expect(recorder.foldedEvents == ["redirect 302", "response", "data", "complete"], sourceLocation: sourceLocation)
    }

    @Test("Turntable task: a redirect the delegate refuses delivers the 3xx")
    func turntableRefusedRedirect() async {
        let turntable = Self.turntable()
        let recorder = DelegateRecorder()
        recorder.followsRedirects = false
        turntable.setDelegate(recorder, queue: recorder.queue)
        turntable.dataTask(with: Self.start).resume()
        #expect(await recorder.waitForCompletion())
        Self.expectThe302(recorder)
        // A completion handler gets the 3xx too when the delegate refuses.
        let seen = await Seen.handler { turntable.dataTask(with: URLRequest(url: Self.start), completionHandler: $0) }
        #expect(seen.status == 302)
        #expect(seen.body == Data("moved".utf8))
    }

    @Test("makeURLSession(): a redirect the delegate refuses delivers the 3xx")
    func urlSessionRefusedRedirect() async {
        let turntable = Self.turntable()
        let recorder = DelegateRecorder()
        recorder.followsRedirects = false
        let session = turntable.makeURLSession(delegate: recorder, delegateQueue: recorder.queue)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: Self.start).resume()
        #expect(await recorder.waitForCompletion())
        Self.expectThe302(recorder)
    }

    @Test("makeURLSession(): a redirect the task's own delegate refuses delivers the 3xx")
    func urlSessionTaskDelegateRefusesRedirect() async {
        let turntable = Self.turntable()
        let (session, task, _) = Self.recorders()
        task.followsRedirects = false
        let urlSession = turntable.makeURLSession(delegate: session, delegateQueue: session.queue)
        defer { urlSession.finishTasksAndInvalidate() }
        let dataTask = urlSession.dataTask(with: Self.start)
        dataTask.delegate = task
        dataTask.resume()
        #expect(await session.waitForCompletion())
        #expect(task.log.withLock { $0.events }.contains("redirect 302"))
        session.log.withLock { log in
            #expect(log.error == nil, "\(String(describing: log.error))")
            #expect(log.response?.statusCode == 302)
            #expect(log.chunks.reduce(Data(), +) == Data("moved".utf8))
        }
    }
}
