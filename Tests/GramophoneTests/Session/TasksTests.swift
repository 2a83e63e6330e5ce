import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One vinyl the task, delegate and URLSession suites share.
enum SessionVinyl {
    static let users = URL(string: "https://api.example.com/users")!
    static let offline = URL(string: "https://api.example.com/offline")!
    static let custom = URL(string: "https://api.example.com/custom-error")!
    static let upload = URL(string: "https://api.example.com/upload")!
    static let big = URL(string: "https://api.example.com/big")!
    static let bigBody = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    static var vinyl: Vinyl {
        Vinyl(
            name: "session",
            tracks: [
                Track("GET https://api.example.com/users", .json(#"[{"id":1}]"#, headers: ["X-Page": "1"])),
                Track("GET https://api.example.com/offline", .error(.notConnectedToInternet)),
                Track(request: "GET https://api.example.com/custom-error", outcome: .failure(Track.Failure(domain: "com.example.Custom", code: 42, description: "custom"))),
                Track(Track.Request("POST https://api.example.com/upload").body(Data("first".utf8)), .text("got first", status: 201)),
                Track(Track.Request("POST https://api.example.com/upload").body(Data("second".utf8)), .text("got second", status: 202)),
                Track("GET https://api.example.com/big", .data(bigBody)),
            ])
    }

    /// Method, URL and body, so uploads with different bodies find different tracks.
    static let matching = MatchingStrategy.attributes([.method, .url, .body])

    static func turntable(delegate: (any URLSessionDelegate)? = nil, queue: OperationQueue? = nil) -> Turntable {
        Turntable(vinyl: vinyl, matching: matching).delegating(to: delegate, queue: queue)
    }
}

/// What a client sees of one exchange, comparable across API styles.
struct Seen: Equatable {
    var body: Data?
    var status: Int?
    var headers: [String: String] = [:]
    var errorDomain: String?
    var errorCode: Int?

    init(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        body = error == nil ? data : nil
        if let http = response as? HTTPURLResponse {
            status = http.statusCode
            for case let (name as String, value as String) in http.allHeaderFields { headers[name.lowercased()] = value }
        }
        if let error {
            errorDomain = (error as NSError).domain
            errorCode = (error as NSError).code
        }
    }

    static func async(_ body: () async throws -> (Data, URLResponse)) async -> Seen {
        do {
            let (data, response) = try await body()
            return Seen(data, response, nil)
        } catch {
            return Seen(nil, nil, error)
        }
    }

    static func handler(_ start: (@escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionTask) async -> Seen {
        await withCheckedContinuation { continuation in
            start { data, response, error in continuation.resume(returning: Seen(data, response, error)) }.resume()
        }
    }

    static func delegate(_ make: (Turntable) -> URLSessionTask) async -> Seen {
        let recorder = DelegateRecorder()
        let turntable = SessionVinyl.turntable(delegate: recorder, queue: recorder.queue)
        make(turntable).resume()
        _ = await recorder.waitForCompletion()
        return recorder.log.withLock { log in
            let body = log.downloaded ?? log.chunks.reduce(Data(), +)
            return Seen(body, log.response, log.error)
        }
    }
}

@Suite("Turntable tasks")
struct TasksTests {
    static let requests: [URL] = [SessionVinyl.users, SessionVinyl.offline, SessionVinyl.custom, SessionVinyl.big]

    @Test("data tasks: async, completion handler and delegate see the same data, response and error", arguments: requests)
    func dataStylesAgree(url: URL) async throws {
        let turntable = SessionVinyl.turntable()
        let viaAsync = await Seen.async { try await turntable.data(for: URLRequest(url: url)) }
        let viaHandler = await Seen.handler { turntable.dataTask(with: URLRequest(url: url), completionHandler: $0) }
        let viaDelegate = await Seen.delegate { $0.dataTask(with: url) }
        #expect(viaAsync == viaHandler)
        #expect(viaAsync == viaDelegate)
        #expect(viaAsync.status != nil || viaAsync.errorCode != nil)
    }

    @Test("upload tasks: the body takes part in matching, in every API style")
    func uploadStylesAgree() async throws {
        var request = URLRequest(url: SessionVinyl.upload)
        request.httpMethod = "POST"
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("second.txt")
        try Data("second".utf8).write(to: file)

        let turntable = SessionVinyl.turntable()
        let first = await Seen.async { try await turntable.upload(for: request, from: Data("first".utf8)) }
        #expect(first.body == Data("got first".utf8))
        #expect(first.status == 201)
        #expect(await Seen.handler { turntable.uploadTask(with: request, from: Data("first".utf8), completionHandler: $0) } == first)
        #expect(await Seen.delegate { $0.uploadTask(with: request, from: Data("first".utf8)) } == first)

        let second = await Seen.async { try await turntable.upload(for: request, fromFile: file) }
        #expect(second.body == Data("got second".utf8))
        #expect(second.status == 202)
        #expect(await Seen.handler { turntable.uploadTask(with: request, fromFile: file, completionHandler: $0) } == second)
        #expect(await Seen.delegate { $0.uploadTask(with: request, fromFile: file) } == second)
    }

    @Test("an upload from a missing file fails with fileDoesNotExist")
    func uploadFromMissingFile() async {
        var request = URLRequest(url: SessionVinyl.upload)
        request.httpMethod = "POST"
        let missing = URL(fileURLWithPath: "/nonexistent/gramophone-\(UUID().uuidString)")
        let seen = await Seen.handler { SessionVinyl.turntable().uploadTask(with: request, fromFile: missing, completionHandler: $0) }
        #expect(seen.errorCode == URLError.fileDoesNotExist.rawValue)
    }

    @Test("download tasks: all styles get the body in a file; handler and delegate files are removed afterwards")
    func downloadStylesAgree() async throws {
        let turntable = SessionVinyl.turntable()
        let request = URLRequest(url: SessionVinyl.users)
        let (file, response) = try await turntable.download(for: request)
        defer { try? FileManager.default.removeItem(at: file) }
        // The async method hands the file over: it is still there.
        let viaAsync = Seen(try Data(contentsOf: file), response, nil)
        #expect(viaAsync.body == Data(#"[{"id":1}]"#.utf8))

        let handed = Locked<URL?>(nil)
        let viaHandler = await withCheckedContinuation { continuation in
            turntable.downloadTask(with: request) { url, response, error in
                handed.withLock { $0 = url }
                continuation.resume(returning: Seen(url.flatMap { try? Data(contentsOf: $0) }, response, error))
            }.resume()
        }
        #expect(viaHandler == viaAsync)
        let handedFile = try #require(handed.withLock { $0 })
        // The file goes right after the handler returns, on the delegate queue: wait for the queue.
        await TaskCore.perform(on: turntable.delegateQueue) {}
        #expect(!FileManager.default.fileExists(atPath: handedFile.path))

        #expect(await Seen.delegate { $0.downloadTask(with: request) } == viaAsync)
    }

    @Test("a failed download reports the recorded error, and no file")
    func downloadFailure() async {
        let turntable = SessionVinyl.turntable()
        let seen: (URL?, Seen) = await withCheckedContinuation { continuation in
            turntable.downloadTask(with: SessionVinyl.offline) { url, response, error in
                continuation.resume(returning: (url, Seen(nil, response, error)))
            }.resume()
        }
        #expect(seen.0 == nil)
        #expect(seen.1.errorCode == URLError.notConnectedToInternet.rawValue)
    }

    @Test("recorded errors replay as the same URLError or NSError (domain and code)")
    func recordedErrors() async throws {
        let turntable = SessionVinyl.turntable()
        let urlError = await #expect(throws: URLError.self) { try await turntable.data(from: SessionVinyl.offline) }
        #expect(urlError?.code == .notConnectedToInternet)
        #expect((urlError as NSError?)?.domain == NSURLErrorDomain)
        do {
            _ = try await turntable.data(from: SessionVinyl.custom)
            Issue.record("the custom error track answered with data")
        } catch {
            #expect((error as NSError).domain == "com.example.Custom")
            #expect((error as NSError).code == 42)
        }
    }

    @Test("nothing starts before resume()")
    func nothingBeforeResume() async throws {
        let turntable = SessionVinyl.turntable()
        let called = Locked(false)
        let task = turntable.dataTask(with: SessionVinyl.users) { _, _, _ in called.withLock { $0 = true } }
        // Another request through the same Turntable and a pass through its delegate queue:
        // whatever the unresumed task would have done by now has had its turn.
        _ = try await turntable.data(from: SessionVinyl.users)
        await TaskCore.perform(on: turntable.delegateQueue) {}
        #expect(task.state == .suspended)
        #expect(turntable.playback.requestsAnswered == 1)
        #expect(!called.withLock { $0 })
    }

    @Test("every property a caller may set reads back on every task class (Apple's are abstract)")
    func settableProperties() throws {
        let turntable = SessionVinyl.turntable()
        let tasks: [URLSessionTask] = [
            turntable.dataTask(with: SessionVinyl.users),
            turntable.uploadTask(with: URLRequest(url: SessionVinyl.upload), from: Data()),
            turntable.downloadTask(with: SessionVinyl.users),
        ]
        final class TaskDelegate: NSObject, URLSessionTaskDelegate {}
        let delegate = TaskDelegate()
        for task in tasks {
            #expect(task.taskDescription == nil && task.delegate == nil)
            #expect(task.countOfBytesClientExpectsToSend == -1 && task.countOfBytesClientExpectsToReceive == -1)
            task.taskDescription = "avatar upload"
            task.priority = URLSessionTask.highPriority
            task.countOfBytesClientExpectsToSend = 80
            task.countOfBytesClientExpectsToReceive = 1_024
            task.delegate = delegate
            #expect(task.taskDescription == "avatar upload")
            #expect(task.priority == URLSessionTask.highPriority)
            #expect(task.countOfBytesClientExpectsToSend == 80 && task.countOfBytesClientExpectsToReceive == 1_024)
            #expect(task.delegate === delegate)
            #if !canImport(FoundationNetworking)
            // Deprecated on Linux, where background sessions do not exist.
            #expect(task.earliestBeginDate == nil)
            let date = Date(timeIntervalSince1970: 1_800_000_000)
            task.earliestBeginDate = date
            #expect(task.earliestBeginDate == date)
            task.prefersIncrementalDelivery = false
            #expect(!task.prefersIncrementalDelivery)
            #endif
            // Read-only ones answer too.
            _ = (task.originalRequest, task.currentRequest, task.response, task.error, task.progress, task.countOfBytesSent)
        }
    }

    @Test("cancel(byProducingResumeData:) hands nil to its handler and cancels the download")
    func cancelProducingResumeData() async throws {
        let turntable = SessionVinyl.turntable()
        let (resumeData, seen): (Data?, Seen) = await withCheckedContinuation { continuation in
            let finished = Locked<(resume: Data??, seen: Seen?)>((nil, nil))
            // Both handlers run on the delegate queue; the second to arrive resumes.
            let arrive: @Sendable ((inout (resume: Data??, seen: Seen?)) -> Void) -> Void = { change in
                finished.withLock { state in
                    change(&state)
                    if let resume = state.resume, let seen = state.seen { continuation.resume(returning: (resume, seen)) }
                }
            }
            let task = turntable.downloadTask(with: SessionVinyl.users) { file, response, error in
                arrive { $0.seen = Seen(file.flatMap { try? Data(contentsOf: $0) }, response, error) }
            }
            task.resume()
            task.cancel(byProducingResumeData: { data in arrive { $0.resume = .some(data) } })
        }
        #expect(resumeData == nil)
        #expect(seen.errorCode == URLError.cancelled.rawValue || seen.status == 200)
    }

    #if !canImport(FoundationNetworking)
    // Apple platforms only: Linux Foundation's upload task has no cancel(byProducingResumeData:).
    @Test("An upload task's cancel(byProducingResumeData:) hands nil to its handler and cancels the upload")
    func uploadCancelProducingResumeData() async throws {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let turntable = SessionVinyl.turntable()
        let task = turntable.uploadTask(with: URLRequest(url: SessionVinyl.users), from: Data("body".utf8))
        let resumeData: Data? = await withCheckedContinuation { continuation in
            task.cancel(byProducingResumeData: { continuation.resume(returning: $0) })
        }
        #expect(resumeData == nil)
        #expect(task.state == .canceling || task.state == .completed)
    }
    #endif

    @Test("cancel() completes with URLError(.cancelled), before resume and while running")
    func cancel() async throws {
        let turntable = SessionVinyl.turntable()
        let beforeResume = turntable.dataTask(with: SessionVinyl.users)
        let early = await withCheckedContinuation { continuation in
            let task = turntable.dataTask(with: SessionVinyl.users) { data, response, error in continuation.resume(returning: Seen(data, response, error)) }
            task.cancel()
            #expect(task.state == .canceling || task.state == .completed)
        }
        #expect(early.errorCode == URLError.cancelled.rawValue)
        #expect(early.errorDomain == NSURLErrorDomain)
        #expect(beforeResume.state == .suspended)

        // A track that takes a second to answer is still running when cancelled.
        let slow = Turntable(vinyl: Vinyl(name: "slow", tracks: [Track(request: "GET https://api.example.com/slow", response: Track.Response(body: Data("late".utf8)), duration: 1)]))
        slow.timing = .recordedDuration()
        let running = slow.dataTask(with: URLRequest(url: URL(string: "https://api.example.com/slow")!)) { _, _, _ in }
        let midway = await withCheckedContinuation { continuation in
            let task = slow.dataTask(with: URLRequest(url: URL(string: "https://api.example.com/slow")!)) { data, response, error in continuation.resume(returning: Seen(data, response, error)) }
            task.resume()
            #expect(task.state == .running)
            task.cancel()
        }
        #expect(midway.errorCode == URLError.cancelled.rawValue)
        #expect(midway.body == nil)
        #expect(running.state == .suspended)
    }

    @Test("every task gets its own taskIdentifier")
    func uniqueIdentifiers() {
        let turntable = SessionVinyl.turntable()
        let tasks: [URLSessionTask] = [
            turntable.dataTask(with: SessionVinyl.users),
            turntable.dataTask(with: SessionVinyl.users) { _, _, _ in },
            turntable.uploadTask(with: URLRequest(url: SessionVinyl.upload), from: Data()),
            turntable.downloadTask(with: SessionVinyl.users),
        ]
        #expect(Set(tasks.map(\.taskIdentifier)).count == tasks.count)
    }

    #if !canImport(FoundationNetworking)
    /// Apple platforms: task properties are key-value observable, and observers run synchronously
    /// on the thread that changes them. One that reads the task from inside its change (state,
    /// response, counters, progress) must neither deadlock on the task's lock nor miss a change.
    @Test("key-value observers of state and progress see every change and may read the task", .timeLimit(.minutes(1)))
    func keyValueObserversMayReadTheTask() async throws {
        let turntable = SessionVinyl.turntable()
        let task = turntable.dataTask(with: SessionVinyl.users)
        let seen = Locked<[URLSessionTask.State]>([])
        let progressSeen = Locked(0)
        let stateObservation = task.observe(\.state, options: [.new]) { task, _ in
            // Reading other properties inside the observer re-enters the task.
            _ = (task.response, task.countOfBytesReceived, task.error)
            seen.withLock { $0.append(task.state) }
        }
        let progressObservation = task.progress.observe(\.completedUnitCount) { progress, _ in
            // Progress changes outside the task's lock; its own properties are safe to read here.
            _ = progress.fractionCompleted
            progressSeen.withLock { $0 = Int(progress.completedUnitCount) }
        }
        defer { stateObservation.invalidate(); progressObservation.invalidate() }
        task.resume()
        // Waits for the change to happen, however long a busy machine takes (the test's time
        // limit catches a hang); it does not prove that something did not happen.
        while task.state != .completed { try await Task.sleep(for: .milliseconds(1)) }
        #expect(task.state == .completed)
        #expect(seen.withLock { $0 }.contains(.running))
        #expect(seen.withLock { $0 }.last == .completed)
        #expect(progressSeen.withLock { $0 } == Int(task.countOfBytesReceived))
    }
    #endif
}
