import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Turntable-backed URLSession")
struct URLSessionBackedTests {
    @Test("a real URLSession from a Turntable answers like the Turntable, in every API style", arguments: TasksTests.requests)
    func answersLikeTheTurntable(url: URL) async throws {
        let turntable = SessionVinyl.turntable()
        let session = turntable.makeURLSession()
        defer { session.finishTasksAndInvalidate() }
        let direct = await Seen.async { try await turntable.data(for: URLRequest(url: url)) }
        let viaAsync = await Seen.async { try await session.data(for: URLRequest(url: url)) }
        let viaHandler = await Seen.handler { session.dataTask(with: URLRequest(url: url), completionHandler: $0) }
        #expect(viaAsync.body == direct.body)
        #expect(viaAsync.status == direct.status)
        #expect(viaAsync.errorDomain == direct.errorDomain)
        #expect(viaAsync.errorCode == direct.errorCode)
        #expect(viaHandler.body == direct.body)
        #expect(viaHandler.errorCode == direct.errorCode)
        if direct.status != nil {
            #expect(viaAsync.headers["x-page"] == direct.headers["x-page"])
        }
    }

    @Test("a URLSession from a Turntable calls its delegate in a real session's order")
    func delegateOrder() async {
        let recorder = DelegateRecorder()
        let turntable = SessionVinyl.turntable()
        turntable.bodyChunkSize = 16 * 1024
        let session = turntable.makeURLSession(delegate: recorder, delegateQueue: recorder.queue)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: SessionVinyl.big).resume()
        #expect(await recorder.waitForCompletion())
        #expect(recorder.foldedEvents == ["response", "data", "complete"])
        #expect(recorder.log.withLock { $0.chunks.reduce(Data(), +) } == SessionVinyl.bigBody)
    }

    @Test("a delegate data task on a Turntable's session gets a replayed stream chunk by chunk, on Linux too")
    func replayedStreamReachesDelegateInChunks() async {
        var response = Track.Response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data("data: 1\n\ndata: 2\n\ndata: 3\n\n".utf8))
        response.stream = TrackStream(pieces: [9, 9, 9], interval: 0.01)
        let turntable = Turntable(vinyl: Vinyl(name: "s", tracks: [Track(request: Track.Request(url: URL(string: "https://api.example.com/s")!), outcome: .response(response))]))
        let recorder = DelegateRecorder()
        let session = turntable.makeURLSession(delegate: recorder, delegateQueue: recorder.queue)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: URL(string: "https://api.example.com/s")!).resume()
        #expect(await recorder.waitForCompletion())
        let chunks = recorder.log.withLock { $0.chunks }
        #expect(chunks.reduce(Data(), +) == response.body)
        #if canImport(FoundationNetworking)
        // Apple may join pieces that arrive back to back; Linux hands each on as it was recorded.
        #expect(chunks.map { String(decoding: $0, as: UTF8.self) } == ["data: 1\n\n", "data: 2\n\n", "data: 3\n\n"])
        #endif
    }

    @Test("each Turntable has its own URLProtocol class, kept for its lifetime")
    func protocolClassPerTurntable() {
        let first = SessionVinyl.turntable()
        let second = SessionVinyl.turntable()
        #expect(ObjectIdentifier(first.urlProtocolClass) == ObjectIdentifier(first.urlProtocolClass))
        #expect(ObjectIdentifier(first.urlProtocolClass) != ObjectIdentifier(second.urlProtocolClass))
        let configuration = first.makeURLSessionConfiguration()
        #expect(configuration.protocolClasses?.first.map(ObjectIdentifier.init) == ObjectIdentifier(first.urlProtocolClass))
    }

    @Test("slot numbers name distinct marker chains")
    func markersAreDistinct() {
        let names = Set((0..<512).map { String(reflecting: ProtocolSlots.marker(for: $0)) })
        #expect(names.count == 512)
    }

    @Test("two Turntable-backed URLSessions used at once never see each other's tracks")
    func sessionsStayIsolated() async throws {
        let url = URL(string: "https://api.example.com/whoami")!
        let alpha = Turntable(vinyl: Vinyl(name: "alpha", tracks: [Track("GET https://api.example.com/whoami", .text("alpha"))]))
        let beta = Turntable(vinyl: Vinyl(name: "beta", tracks: [Track("GET https://api.example.com/whoami", .text("beta"))]))
        let empty = Turntable(vinyl: Vinyl(name: "empty"))
        let sessions = [("alpha", alpha.makeURLSession()), ("beta", beta.makeURLSession()), ("miss", empty.makeURLSession())]
        defer { for (_, session) in sessions { session.finishTasksAndInvalidate() } }

        let answers = await withTaskGroup(of: (String, String).self) { group in
            for _ in 0..<100 {
                for (name, session) in sessions {
                    let request = URLRequest(url: url)
                    group.addTask {
                        do {
                            let (data, _) = try await session.data(for: request)
                            return (name, String(decoding: data, as: UTF8.self))
                        } catch {
                            return (name, "error \((error as NSError).code)")
                        }
                    }
                }
            }
            return await group.reduce(into: [(String, String)]()) { $0.append($1) }
        }
        #expect(answers.count == 300)
        for (name, answer) in answers {
            switch name {
            case "miss": #expect(answer.hasPrefix("error"), "the empty Turntable's session answered \(answer)")
            default: #expect(answer == name)
            }
        }
        #expect(alpha.playback.requestsAnswered == 100)
        #expect(beta.playback.requestsAnswered == 100)
        #expect(empty.playback.misses == 100)
    }

    @Test("a recorded gzip body (stored decoded) is not decoded again through a URLSession")
    func contentEncodingIsDropped() async throws {
        let body = Data(#"{"gzipped":true}"#.utf8)
        let track = Track(
            request: "GET https://api.example.com/gz",
            response: Track.Response(headers: ["Content-Encoding": "gzip", "Content-Type": "application/json", "Content-Length": "33"], body: body))
        let turntable = Turntable(vinyl: Vinyl(name: "gz", tracks: [track]))
        let session = turntable.makeURLSession()
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(from: URL(string: "https://api.example.com/gz")!)
        #expect(data == body)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.value(forHTTPHeaderField: "Content-Encoding") == nil)
        #expect(http.value(forHTTPHeaderField: "Content-Length") == String(body.count))
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test("a session outliving its Turntable fails its requests instead of answering from another")
    func orphanedSession() async throws {
        var turntable: Turntable? = SessionVinyl.turntable()
        let session = try #require(turntable?.makeURLSession())
        defer { session.finishTasksAndInvalidate() }
        turntable = nil
        let other = SessionVinyl.turntable()
        _ = other.urlProtocolClass
        let error = await #expect(throws: URLError.self) { try await session.data(from: SessionVinyl.users) }
        #expect(error?.code == .cannotConnectToHost)
    }
}
