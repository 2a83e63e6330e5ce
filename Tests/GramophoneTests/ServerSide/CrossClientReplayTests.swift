#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import GramophoneTestSupport
import NIOCore
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One vinyl, whichever client: recorded through URLSession and replayed through
/// AsyncHTTPClient, and the other way round, with the same bytes and the same chunks.
@Suite("Cross-client replay")
struct CrossClientReplayTests {
    static func urls() throws -> [URL] {
        let base = try HTTPBin.baseURL().absoluteString
        return [URL(string: base + "/get?client=both")!, URL(string: base + "/bytes/512?seed=3")!, URL(string: base + "/status/418")!]
    }

    @Test(.enabled(if: HTTPBin.isAvailable && StreamServer.isAvailable))
    func recordedThroughURLSessionReplaysThroughAsyncHTTPClient() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = try Turntable(vinylNamed: "urlsession", from: .folder(folder), recording: Recording(mode: .once, environment: RecordingFixtures.localEnvironment))
        var live: [Data] = []
        for url in try Self.urls() { live.append(try await recorder.data(for: URLRequest(url: url)).0) }
        let sse = try StreamServer.url("/sse?count=3&gap=20")
        let liveChunks = try await StreamingTests.collect(try await recorder.bytes(for: URLRequest(url: sse)).0).map(\.data)
        #expect(recorder.playback.recordedCount == 4, "a stream joins the vinyl before its reader sees the end")
        try recorder.eject()

        let player = try Turntable(vinylNamed: "urlsession", from: .folder(folder))
        for (url, body) in zip(try Self.urls(), live) {
            let replayed = try await AsyncHTTPClientTests.send(HTTPClientRequest(url: url.absoluteString), to: player)
            #expect(replayed.body == body, "\(url)")
        }
        #expect(try await AsyncHTTPClientTests.send(HTTPClientRequest(url: sse.absoluteString), to: player).chunks == liveChunks)
    }

    @Test(.enabled(if: HTTPBin.isAvailable && StreamServer.isAvailable))
    func recordedThroughAsyncHTTPClientReplaysThroughURLSession() async throws {
        let (recorder, folder) = try AsyncHTTPClientTests.recorder("ahc")
        defer { try? FileManager.default.removeItem(at: folder) }
        var live: [Data] = []
        for url in try Self.urls() { live.append(try await AsyncHTTPClientTests.send(HTTPClientRequest(url: url.absoluteString), to: recorder).body) }
        let sse = try StreamServer.url("/sse?count=3&gap=20")
        let liveChunks = try await AsyncHTTPClientTests.send(HTTPClientRequest(url: sse.absoluteString), to: recorder).chunks
        #expect(recorder.playback.recordedCount == 4, "a stream joins the vinyl before its reader sees the end")
        try recorder.eject()

        let player = try Turntable(vinylNamed: "ahc", from: .folder(folder))
        for (url, body) in zip(try Self.urls(), live) {
            let (replayed, response) = try await player.data(for: URLRequest(url: url))
            #expect(replayed == body, "\(url)")
            #expect((response as? HTTPURLResponse)?.statusCode == (url.path == "/status/418" ? 418 : 200))
        }
        // Through a real URLSession too, answered by the Turntable's URLProtocol.
        let session = player.makeURLSession()
        #expect(try await session.data(for: URLRequest(url: try Self.urls()[0])).0 == live[0])
        #expect(try await StreamingTests.collect(try await player.bytes(for: URLRequest(url: sse)).0).map(\.data) == liveChunks)
    }
}
#endif
