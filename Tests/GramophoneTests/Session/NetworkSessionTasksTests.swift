import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 38, item 4: code that called `uploadTask`/`downloadTask` with a completion handler on a
/// `URLSession`, retyped `any NetworkSession` as the DVR migration guide says, keeps compiling and
/// gets the same answers from a Turntable, a URLSession and a session of one's own.
@Suite("Completion-handler tasks through any NetworkSession")
struct NetworkSessionTasksTests {
    /// A session of one's own, as a user writes a fake or a logging wrapper: the required data
    /// methods only, forwarding to a Turntable; its tasks come from `NetworkSession`'s defaults.
    struct DataOnly: NetworkSession {
        let turntable: Turntable
        func data(for request: URLRequest) async throws -> (Data, URLResponse) { try await turntable.data(for: request) }
        func data(from url: URL) async throws -> (Data, URLResponse) { try await turntable.data(from: url) }
        func dataTask(with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionDataTask {
            turntable.dataTask(with: request, completionHandler: completionHandler)
        }
    }

    static var post: URLRequest {
        var request = URLRequest(url: SessionVinyl.upload)
        request.httpMethod = "POST"
        return request
    }

    static func upload(_ session: any NetworkSession, _ body: Data?) async -> Seen {
        await Seen.handler { session.uploadTask(with: post, from: body, completionHandler: $0) }
    }

    /// What a download task's handler saw: the file's contents while it ran.
    static func download(_ make: (@escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void) -> URLSessionDownloadTask) async -> Seen {
        await withCheckedContinuation { continuation in
            make { file, response, error in
                let contents = file.flatMap { try? Data(contentsOf: $0) }
                continuation.resume(returning: Seen(contents, response, error))
            }.resume()
        }
    }

    @Test("uploadTask(with:from:) and (with:fromFile:): the body takes part in matching, on a Turntable and a session of one's own")
    func uploadsMatchOnTheirBody() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("second.txt")
        try Data("second".utf8).write(to: file)
        let turntable = SessionVinyl.turntable()
        for session in [turntable, DataOnly(turntable: turntable)] as [any NetworkSession] {
            let first = await Self.upload(session, Data("first".utf8))
            #expect(first.status == 201)
            #expect(first.body == Data("got first".utf8))
            let second = await Seen.handler { session.uploadTask(with: Self.post, fromFile: file, completionHandler: $0) }
            #expect(second.status == 202)
            #expect(second.body == Data("got second".utf8))
        }
    }

    @Test("uploadTask through any NetworkSession on a URLSession is URLSession's own")
    func uploadThroughAURLSession() async throws {
        // Upload bodies do not reach a URLProtocol on Linux: match on method and URL here.
        let turntable = Turntable(vinyl: SessionVinyl.vinyl)
        let session: any NetworkSession = turntable.makeURLSession()
        let seen = await Self.upload(session, Data("first".utf8))
        #expect(seen.status == 201)
        #expect(seen.body == Data("got first".utf8))
        withExtendedLifetime(turntable) {}
    }

    // A URLSession's download task is URLSession's own; through a URLProtocol on Linux its
    // handler gets no file (issue 37's lane), so it is not among these sessions.
    @Test("downloadTask(with:) hands the handler a file with the body, on a Turntable and a session of one's own")
    func downloadsHandOverAFile() async throws {
        let turntable = SessionVinyl.turntable()
        for session in [turntable, DataOnly(turntable: turntable)] as [any NetworkSession] {
            let viaRequest = await Self.download { session.downloadTask(with: URLRequest(url: SessionVinyl.users), completionHandler: $0) }
            #expect(viaRequest.status == 200)
            #expect(viaRequest.body == Data(#"[{"id":1}]"#.utf8), "\(type(of: session))")
            let viaURL = await Self.download { session.downloadTask(with: SessionVinyl.users, completionHandler: $0) }
            #expect(viaURL == viaRequest)
            let viaDataTask = await Seen.handler { session.dataTask(with: SessionVinyl.users, completionHandler: $0) }
            #expect(viaDataTask == viaRequest)
        }
    }

    @Test("A default task answers as URLSession's: nothing before resume, cancel ends it with URLError(.cancelled) once")
    func defaultTasksBehaveAsURLSessions() async throws {
        let session = DataOnly(turntable: SessionVinyl.turntable())
        let calls = Locked(0)
        let seen = await withCheckedContinuation { (continuation: CheckedContinuation<Seen, Never>) in
            let task = session.uploadTask(with: Self.post, from: Data("first".utf8)) { data, response, error in
                calls.withLock { $0 += 1 }
                continuation.resume(returning: Seen(data, response, error))
            }
            #expect(task.state == .suspended)
            #expect(task.originalRequest?.url == SessionVinyl.upload)
            task.cancel()
            #expect(task.state == .completed)
            task.resume()
            #expect(task.state == .completed, "a cancelled task does not start")
        }
        #expect(seen.errorDomain == NSURLErrorDomain)
        #expect(seen.errorCode == URLError.cancelled.rawValue)
        #expect(calls.withLock { $0 } == 1)

        let task = session.downloadTask(with: SessionVinyl.users) { _, _, _ in }
        let identifiers = Set([task.taskIdentifier, session.downloadTask(with: SessionVinyl.users) { _, _, _ in }.taskIdentifier])
        #expect(identifiers.count == 2, "each task has its own identifier")
    }
}
