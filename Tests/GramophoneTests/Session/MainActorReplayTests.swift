import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Replay from the main actor stays on it: `NetworkSession`'s async requirements and the
/// Turntable's are `nonisolated(nonsending)`. View models and `@MainActor` tests call from there,
/// and a hop to the global executor and back costs 10-50 µs, 20-40 times the replay.
@MainActor @Suite struct MainActorReplayTests {
    /// Main-actor work queued while a test runs on the main actor.
    @MainActor final class QueuedWork {
        var ran = false
    }

    static let vinyl = Vinyl(
        name: "users",
        tracks: [
            Track("GET https://api.example.com/users/42", .json(#"{"id":42}"#)),
            Track("POST https://api.example.com/users", .json(#"{"id":43}"#, status: 201)),
        ])

    enum EntryPoint: String, CaseIterable, Sendable {
        case dataForRequest, dataFromURL, upload, uploadFromFile, download, downloadFromURL, stub
    }

    /// The proof: a job queued on the main actor before the replay cannot run until the main
    /// actor is free. Had the replay left it (for the global executor or anywhere), the job
    /// would have run while it was away, since the way back queues behind it. Nothing here waits
    /// for time to pass.
    @Test(arguments: EntryPoint.allCases)
    func replayCompletesWithoutLeavingTheMainActor(_ entry: EntryPoint) async throws {
        let turntable = Turntable(vinyl: Self.vinyl)
        turntable.stubs.add(Stub().matching(try .path("/stubbed")).responding(with: .json(#"{"stub":true}"#)))
        let session: any NetworkSession = turntable
        let user = URL(string: "https://api.example.com/users/42")!
        var create = URLRequest(url: URL(string: "https://api.example.com/users")!)
        create.httpMethod = "POST"
        let bodyFile = FileManager.default.temporaryDirectory.appendingPathComponent("gramophone-main-actor-\(UUID().uuidString)")
        try Data().write(to: bodyFile)
        defer { try? FileManager.default.removeItem(at: bodyFile) }

        let queued = QueuedWork()
        Task { @MainActor in queued.ran = true }
        let status: Int?
        switch entry {
        case .dataForRequest: status = (try await session.data(for: URLRequest(url: user)).1 as? HTTPURLResponse)?.statusCode
        case .dataFromURL: status = (try await session.data(from: user).1 as? HTTPURLResponse)?.statusCode
        case .upload: status = (try await session.upload(for: create, from: Data()).1 as? HTTPURLResponse)?.statusCode
        case .uploadFromFile: status = (try await session.upload(for: create, fromFile: bodyFile).1 as? HTTPURLResponse)?.statusCode
        case .download:
            let (file, response) = try await session.download(for: URLRequest(url: user))
            try? FileManager.default.removeItem(at: file)
            status = (response as? HTTPURLResponse)?.statusCode
        case .downloadFromURL:
            let (file, response) = try await session.download(from: user)
            try? FileManager.default.removeItem(at: file)
            status = (response as? HTTPURLResponse)?.statusCode
        case .stub: status = (try await session.data(from: URL(string: "https://api.example.com/stubbed")!).1 as? HTTPURLResponse)?.statusCode
        }
        #expect(!queued.ran, "the main actor ran queued work during the replay, so the replay left it")
        #expect(status == (entry == .upload || entry == .uploadFromFile ? 201 : 200))
        // The queued job does run once the test lets go of the main actor: the probe works.
        await Task.yield()
        while !queued.ran { await Task.yield() }
    }

    enum StreamRead: String, CaseIterable, Sendable { case bytes, lines, events, chunks }

    /// A recorded stream read on the main actor, in any of its forms, never leaves it: the
    /// readers run in the caller's isolation (`next(isolation:)`), so a view model pays no hop
    /// per byte, line or event.
    @Test(arguments: StreamRead.allCases)
    func aStreamIsReadWithoutLeavingTheMainActor(_ read: StreamRead) async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "none"))
        let events = (0..<50).map { ServerSentEvent(data: #"{"n":\#($0)}"#) }
        turntable.stubs.add(Stub().matching(try .path("/stream")).responding(with: .events(events)))
        let queued = QueuedWork()
        Task { @MainActor in queued.ran = true }
        let (bytes, _) = try await turntable.bytes(for: URLRequest(url: URL(string: "https://api.example.com/stream")!))
        var count = 0
        switch read {
        case .bytes: for try await _ in bytes { count += 1 }
        case .lines: for try await _ in bytes.lines { count += 1 }
        case .events: for try await _ in bytes.events { count += 1 }
        case .chunks: for try await _ in bytes.chunks { count += 1 }
        }
        #expect(!queued.ran, "the main actor ran queued work while the stream was read, so reading left it")
        let expected: [StreamRead: Int] = [.bytes: events.reduce(0) { $0 + $1.text.utf8.count }, .lines: 50, .events: 50, .chunks: 50]
        #expect(count == expected[read])
        await Task.yield()
        while !queued.ran { await Task.yield() }
    }

    /// A miss is answered on the main actor too, with its report.
    @Test func aMissIsReportedWithoutLeavingTheMainActor() async throws {
        let turntable = Turntable(vinyl: Self.vinyl)
        let queued = QueuedWork()
        Task { @MainActor in queued.ran = true }
        // Not `#expect(throws:)`: its closure is not on the main actor, so the hop would be the test's.
        do {
            _ = try await turntable.data(from: URL(string: "https://api.example.com/users/41")!)
            Issue.record("expected a miss")
        } catch let error as TurntableError {
            #expect(error.missReport?.nearestTrackIndex == 0)
        }
        #expect(!queued.ran, "the main actor ran queued work during the miss, so the miss left it")
    }

    /// A session of one's own: the requirement runs in the caller's isolation, so do the
    /// protocol's uploads and downloads built on it.
    struct IsolationProbe: NetworkSession {
        let seen = Locked<[Bool]>([])

        nonisolated(nonsending) func data(for request: URLRequest) async throws -> (Data, URLResponse) {
            let onMainActor = #isolation === MainActor.shared
            // Locked: the probe is Sendable and records from whatever isolation calls it.
            seen.withLock { $0.append(onMainActor) }
            return (Data("ok".utf8), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil)!)
        }

        nonisolated(nonsending) func data(from url: URL) async throws -> (Data, URLResponse) {
            try await data(for: URLRequest(url: url))
        }

        func dataTask(with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionDataTask {
            URLSession.shared.dataTask(with: request, completionHandler: completionHandler)
        }
    }

    @Test func aSessionOfYourOwnAndTheDefaultTransfersRunInTheCallersIsolation() async throws {
        let probe = IsolationProbe()
        let session: any NetworkSession = probe
        let url = URL(string: "https://api.example.com/x")!
        _ = try await session.data(for: URLRequest(url: url))
        _ = try await session.upload(for: URLRequest(url: url), from: Data("body".utf8))
        let (file, _) = try await session.download(from: url)
        try? FileManager.default.removeItem(at: file)
        #expect(probe.seen.withLock { $0 } == [true, true, true])
    }
}
