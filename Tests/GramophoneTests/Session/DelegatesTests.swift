import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Turntable delegates")
struct DelegatesTests {
    /// Runs `make`'s task on a real URLSession against httpbin and on a Turntable holding a track
    /// for the same request, and returns both delegates' folded call sequences.
    private func orders(path: String, body: Data = Data(repeating: 0x61, count: 70_000), make: @escaping (URLRequest, _ session: Any) -> URLSessionTask) async throws -> (
        real: [String], replayed: [String], replayedRecorder: DelegateRecorder
    ) {
        let url = try HTTPBin.baseURL().appendingPathComponent(path)
        var request = URLRequest(url: url)
        if path == "post" { request.httpMethod = "POST" }

        let real = DelegateRecorder()
        let session = URLSession(configuration: .ephemeral, delegate: real, delegateQueue: real.queue)
        defer { session.finishTasksAndInvalidate() }
        make(request, session).resume()
        #expect(await real.waitForCompletion())

        let replayed = DelegateRecorder()
        let track = Track(request: Track.Request(method: request.httpMethod ?? "GET", url: url), response: Track.Response(body: body))
        // The delegate's order is the point: the track answers whatever body was uploaded.
        let turntable = Turntable(vinyl: Vinyl(name: "order", tracks: [track]), matching: [.method, .url]).delegating(to: replayed, queue: replayed.queue)
        make(request, turntable).resume()
        #expect(await replayed.waitForCompletion())
        return (real.foldedEvents, replayed.foldedEvents, replayed)
    }

    @Test("a data task's delegate calls come in a real URLSession's order", .enabled(if: HTTPBin.isAvailable))
    func dataOrder() async throws {
        let (real, replayed, recorder) = try await orders(path: "bytes/70000") { request, session in
            (session as? Turntable)?.dataTask(with: request) ?? (session as! URLSession).dataTask(with: request)
        }
        #expect(real == ["response", "data", "complete"])
        #expect(replayed == real)
        // 70,000 bytes arrive in several chunks, as from a network.
        #expect(recorder.log.withLock { $0.chunks.count } > 1)
        #expect(recorder.log.withLock { $0.offQueue }.isEmpty)
    }

    @Test("an upload task's delegate calls come in a real URLSession's order", .enabled(if: HTTPBin.isAvailable))
    func uploadOrder() async throws {
        let (real, replayed, recorder) = try await orders(path: "post", body: Data("{}".utf8)) { request, session in
            (session as? Turntable)?.uploadTask(with: request, from: Data("hello".utf8)) ?? (session as! URLSession).uploadTask(with: request, from: Data("hello".utf8))
        }
        #expect(real == ["sentBody", "response", "data", "complete"])
        #expect(replayed == real)
        #expect(recorder.log.withLock { $0.offQueue }.isEmpty)
    }

    @Test("a download task's delegate calls come in a real URLSession's order", .enabled(if: HTTPBin.isAvailable))
    func downloadOrder() async throws {
        let (real, replayed, recorder) = try await orders(path: "bytes/100", body: Data(repeating: 7, count: 100)) { request, session in
            (session as? Turntable)?.downloadTask(with: request) ?? (session as! URLSession).downloadTask(with: request)
        }
        #expect(real == ["wroteData", "finishedDownloading", "complete"])
        #expect(replayed == real)
        #expect(recorder.log.withLock { $0.downloaded } == Data(repeating: 7, count: 100))
        #expect(recorder.log.withLock { $0.offQueue }.isEmpty)
    }

    @Test("a recorded error reaches the delegate as didCompleteWithError only")
    func errorOrder() async {
        let recorder = DelegateRecorder()
        let turntable = SessionVinyl.turntable(delegate: recorder, queue: recorder.queue)
        turntable.dataTask(with: SessionVinyl.offline).resume()
        #expect(await recorder.waitForCompletion())
        #expect(recorder.foldedEvents == ["complete"])
        #expect((recorder.log.withLock { $0.error } as? URLError)?.code == .notConnectedToInternet)
    }

    @Test("a body arrives in as many didReceive data calls as bodyChunkSize makes")
    func chunkedBody() async {
        let recorder = DelegateRecorder()
        let body = Data((0..<25).map { UInt8($0) })
        let turntable = Turntable(vinyl: Vinyl(name: "chunks", tracks: [Track("GET https://example.com/c", .data(body))])).delegating(to: recorder, queue: recorder.queue)
        turntable.bodyChunkSize = 10
        turntable.dataTask(with: URL(string: "https://example.com/c")!).resume()
        #expect(await recorder.waitForCompletion())
        let chunks = recorder.log.withLock { $0.chunks }
        #expect(chunks.map(\.count) == [10, 10, 5])
        #expect(chunks.reduce(Data(), +) == body)
    }

    @Test("answering .cancel to the response ends the task with URLError(.cancelled) and no data")
    func cancelDisposition() async {
        let recorder = DelegateRecorder()
        recorder.disposition = .cancel
        let turntable = SessionVinyl.turntable(delegate: recorder, queue: recorder.queue)
        let task = turntable.dataTask(with: SessionVinyl.users)
        task.resume()
        #expect(await recorder.waitForCompletion())
        #expect(recorder.foldedEvents == ["response", "complete"])
        #expect((recorder.log.withLock { $0.error } as? URLError)?.code == .cancelled)
        #expect((task.error as? URLError)?.code == .cancelled)
    }

    @Test("completion handlers run on the delegate queue, and the delegate hears nothing of those tasks")
    func handlersOnDelegateQueue() async {
        let recorder = DelegateRecorder()
        let queue = recorder.queue
        let turntable = SessionVinyl.turntable(delegate: recorder, queue: queue)
        let onQueue = await withCheckedContinuation { continuation in
            turntable.dataTask(with: SessionVinyl.users) { _, _, _ in continuation.resume(returning: OperationQueue.current === queue) }.resume()
        }
        #expect(onQueue)
        let downloadOnQueue = await withCheckedContinuation { continuation in
            turntable.downloadTask(with: SessionVinyl.users) { _, _, _ in continuation.resume(returning: OperationQueue.current === queue) }.resume()
        }
        #expect(downloadOnQueue)
        #expect(recorder.log.withLock { $0.events }.isEmpty)
    }

    @Test("a task reports its properties before, during and after a request")
    func propertiesThroughALifetime() async throws {
        let recorder = DelegateRecorder()
        let turntable = SessionVinyl.turntable(delegate: recorder, queue: recorder.queue)
        turntable.bodyChunkSize = 30_000
        let request = URLRequest(url: SessionVinyl.big)
        let task = turntable.dataTask(with: request)

        // Before resume.
        #expect(task.state == .suspended)
        #expect(task.originalRequest == request)
        #expect(task.currentRequest == request)
        #expect(task.response == nil)
        #expect(task.error == nil)
        #expect(task.countOfBytesReceived == 0)
        #expect(task.countOfBytesSent == 0)
        #expect(task.progress.completedUnitCount == 0)

        // During: read from inside didReceive data.
        let during = Locked<[(URLSessionTask.State, Int?, Int64, Int64, Int64)]>([])
        recorder.onData = { task in
            during.withLock {
                $0.append((task.state, (task.response as? HTTPURLResponse)?.statusCode, task.countOfBytesReceived, task.countOfBytesExpectedToReceive, task.progress.completedUnitCount))
            }
        }
        task.resume()
        #expect(await recorder.waitForCompletion())
        let total = Int64(SessionVinyl.bigBody.count)
        let seen = during.withLock { $0 }
        #expect(seen.count == 3)
        #expect(seen.allSatisfy { $0.0 == .running && $0.1 == 200 && $0.3 == total })
        #expect(seen.map(\.2) == [30_000, 60_000, total])
        #expect(seen.map(\.4) == [30_000, 60_000, total])

        // After.
        #expect(task.state == .completed)
        #expect((task.response as? HTTPURLResponse)?.statusCode == 200)
        #expect(task.error == nil)
        #expect(task.countOfBytesReceived == total)
        #expect(task.countOfBytesExpectedToReceive == total)
        #expect(task.progress.fractionCompleted == 1)
        #expect(task.currentRequest == request)

        // An upload counts what it sent.
        var post = URLRequest(url: SessionVinyl.upload)
        post.httpMethod = "POST"
        let upload = turntable.uploadTask(with: post, from: Data("first".utf8))
        #expect(upload.countOfBytesExpectedToSend == 5)
        #expect(upload.countOfBytesSent == 0)
        upload.resume()
        #expect(await recorder.waitForCompletion())
        #expect(upload.countOfBytesSent == 5)
        #expect(upload.state == .completed)
        #expect((upload.response as? HTTPURLResponse)?.statusCode == 201)

        // A failed task keeps its error and has no response.
        let failed = turntable.dataTask(with: SessionVinyl.offline)
        failed.resume()
        #expect(await recorder.waitForCompletion())
        #expect(failed.state == .completed)
        #expect((failed.error as? URLError)?.code == .notConnectedToInternet)
        #expect(failed.response == nil)
    }
}
