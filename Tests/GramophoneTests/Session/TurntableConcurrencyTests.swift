import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// scripts/test runs suites whose name contains "Concurrency" under ThreadSanitizer.
@Suite("Turntable Concurrency")
struct TurntableConcurrencyTests {
    static let trackCount = 50

    static var vinyl: Vinyl {
        Vinyl(
            name: "many",
            tracks: (0..<trackCount).flatMap { index in
                [
                    Track(request: Track.Request(method: "GET", url: URL(string: "https://api.example.com/items/\(index)")!), response: Track.Response(body: Data("item \(index)".utf8))),
                    Track(
                        request: Track.Request(method: "POST", url: URL(string: "https://api.example.com/items/\(index)")!, body: Data("up \(index)".utf8)),
                        response: Track.Response(status: 201, body: Data("stored \(index)".utf8))),
                ]
            })
    }

    @Test("1,000 concurrent requests from many tasks, in every API style, through one Turntable")
    func thousandRequests() async throws {
        let recorder = DelegateRecorder()
        let turntable = Turntable(vinyl: Self.vinyl, matching: .attributes([.method, .url, .body])).delegating(to: recorder, queue: recorder.queue)
        let wrong = Locked<[String]>([])

        await withTaskGroup(of: Void.self) { group in
            for request in 0..<1_000 {
                let index = request % Self.trackCount
                let url = URL(string: "https://api.example.com/items/\(index)")!
                group.addTask {
                    let expected: String
                    let got: String?
                    switch request % 5 {
                    case 0:
                        expected = "item \(index)"
                        got = try? String(decoding: await turntable.data(from: url).0, as: UTF8.self)
                    case 1:
                        expected = "item \(index)"
                        got = await withCheckedContinuation { continuation in
                            turntable.dataTask(with: url) { data, _, _ in continuation.resume(returning: data.map { String(decoding: $0, as: UTF8.self) }) }.resume()
                        }
                    case 2:
                        expected = "stored \(index)"
                        var post = URLRequest(url: url)
                        post.httpMethod = "POST"
                        got = try? String(decoding: await turntable.upload(for: post, from: Data("up \(index)".utf8)).0, as: UTF8.self)
                    case 3:
                        expected = "stored \(index)"
                        var post = URLRequest(url: url)
                        post.httpMethod = "POST"
                        got = await withCheckedContinuation { continuation in
                            turntable.uploadTask(with: post, from: Data("up \(index)".utf8)) { data, _, _ in continuation.resume(returning: data.map { String(decoding: $0, as: UTF8.self) }) }.resume()
                        }
                    default:
                        expected = "item \(index)"
                        got = await withCheckedContinuation { continuation in
                            turntable.downloadTask(with: url) { file, _, _ in
                                continuation.resume(returning: file.flatMap { try? Data(contentsOf: $0) }.map { String(decoding: $0, as: UTF8.self) })
                            }.resume()
                        }
                    }
                    if got != expected { wrong.withLock { $0.append("#\(request): expected \(expected), got \(got ?? "nil")") } }
                }
            }
            // Delegate tasks alongside, each read and cancelled from other tasks at the same time.
            for request in 0..<100 {
                let url = URL(string: "https://api.example.com/items/\(request % Self.trackCount)")!
                group.addTask {
                    let task = turntable.dataTask(with: url)
                    task.resume()
                    _ = (task.state, task.response, task.countOfBytesReceived, task.error)
                    if request.isMultiple(of: 10) { task.cancel() }
                }
            }
        }
        #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0.prefix(5) })")
        // Every delegate task completes exactly once, cancelled or not.
        for _ in 0..<100 { #expect(await recorder.waitForCompletion()) }
        #expect(recorder.log.withLock { $0.completed } == 100)
        let playback = turntable.playback
        #expect(playback.misses == 0)
        #expect(playback.requestsAnswered >= 1_090)
    }

    @Test("task identifiers stay unique when tasks are made from many threads")
    func identifiersUnderContention() async {
        let turntable = Turntable(vinyl: Self.vinyl)
        let ids = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<500 {
                group.addTask { turntable.dataTask(with: URL(string: "https://api.example.com/items/1")!).taskIdentifier }
            }
            return await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(ids.count == 500)
    }
}
