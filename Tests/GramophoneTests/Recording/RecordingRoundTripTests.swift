import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Recording against a real server, then replaying without it: what the client sees must not change.
@Suite("Recording round trip")
struct RecordingRoundTripTests {
    struct Exchange {
        var name: String
        var request: URLRequest
    }

    /// Two POSTs go to /post: the body tells them apart.
    static let byBody = MatchingStrategy.attributes([.method, .url, .body])

    static func exchanges(_ base: URL) -> [Exchange] {
        func url(_ path: String) -> URL { URL(string: base.absoluteString + path)! }
        return [
            Exchange(name: "GET with query", request: RecordingFixtures.request("GET", url("/get?q=swift&page=2"))),
            Exchange(name: "POST JSON", request: RecordingFixtures.request("POST", url("/post"), headers: ["Content-Type": "application/json"], body: Data(#"{"name":"gramophone","tracks":3}"#.utf8))),
            Exchange(
                name: "POST form",
                request: RecordingFixtures.request("POST", url("/post"), headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("artist=Nina+Simone&year=1965".utf8))),
            Exchange(name: "PUT text", request: RecordingFixtures.request("PUT", url("/put"), headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data("hello vinyl".utf8))),
            Exchange(name: "DELETE", request: RecordingFixtures.request("DELETE", url("/delete"))),
            Exchange(name: "PNG", request: RecordingFixtures.request("GET", url("/image/png"))),
            Exchange(name: "gzip", request: RecordingFixtures.request("GET", url("/gzip"))),
            Exchange(name: "404", request: RecordingFixtures.request("GET", url("/status/404"))),
            Exchange(name: "500", request: RecordingFixtures.request("GET", url("/status/500"))),
            Exchange(name: "redirect", request: RecordingFixtures.request("GET", url("/redirect/1"))),
            Exchange(name: "response headers", request: RecordingFixtures.request("GET", url("/response-headers?X-Foo=bar"))),
        ]
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func replayWithoutTheServerGivesWhatWasSeenLive() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let exchanges = Self.exchanges(base)

        var live: [(data: Data, response: HTTPURLResponse)] = []
        do {
            let recorder = try Turntable(
                vinylNamed: "roundtrip", from: .folder(folder), matching: Self.byBody, recording: Recording(mode: .newEpisodes, environment: RecordingFixtures.localEnvironment))
            for exchange in exchanges {
                let (data, response) = try await recorder.data(for: exchange.request)
                live.append((data, try #require(response as? HTTPURLResponse, "\(exchange.name)")))
            }
            #expect(recorder.playback.recordedCount == exchanges.count)
            try recorder.eject()
        }

        // The server is not used again: a session that counts calls proves it.
        let offline = OfflineSession()
        let player = try Turntable(
            vinylNamed: "roundtrip", from: .folder(folder), matching: Self.byBody, recording: Recording(mode: .never, session: offline, environment: RecordingFixtures.localEnvironment))
        for (exchange, seen) in zip(exchanges, live) {
            let (data, response) = try await player.data(for: exchange.request)
            let replayed = try #require(response as? HTTPURLResponse)
            #expect(replayed.statusCode == seen.response.statusCode, "\(exchange.name)")
            #expect(data == seen.data, "\(exchange.name): body bytes differ")
            // A body the client decoded is stored with headers that describe it (no Content-Encoding).
            var expected = RecordingFixtures.comparableHeaders(seen.response)
            if expected.removeValue(forKey: "content-encoding") != nil, expected["content-length"] != nil { expected["content-length"] = String(data.count) }
            #expect(RecordingFixtures.comparableHeaders(replayed) == expected, "\(exchange.name)")
            #expect(replayed.url == seen.response.url, "\(exchange.name): final URL differs")
        }
        #expect(offline.requestCount == 0)
        #expect(player.playback.requestsAnswered == exchanges.count)
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func recordedTracksKeepTheirKindDateAndDuration() async throws {
        let base = try HTTPBin.baseURL()
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = Date()
        do {
            let turntable = try Turntable(vinylNamed: "kinds", from: .folder(folder), recording: Recording(environment: RecordingFixtures.localEnvironment))
            _ = try await turntable.data(from: URL(string: base.absoluteString + "/image/png")!)
            _ = try await turntable.data(from: URL(string: base.absoluteString + "/redirect/1")!)
            _ = try await turntable.data(from: URL(string: base.absoluteString + "/gzip")!)
            try turntable.eject()
        }
        let vinyl = try Vinyl(contentsOf: folder.appendingPathComponent("kinds.json"))
        #expect(vinyl.tracks.count == 3)
        for track in vinyl.tracks {
            let recordedAt = try #require(track.recordedAt)
            #expect(recordedAt.timeIntervalSince(before) > -1)
            #expect(try #require(track.duration) >= 0)
        }
        let png = try #require(vinyl.tracks[0].response)
        #expect(png.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // The redirect's track holds where it ended up.
        #expect(vinyl.tracks[1].response?.url?.path == "/get")
        // Compressed responses are stored as the client saw them, decoded, with headers that say
        // so: no Content-Encoding, the stored body's length (Recording.keepsContentEncoding).
        let gzip = try #require(vinyl.tracks[2].response)
        #expect(gzip.headers["Content-Encoding"] == nil)
        #expect(gzip.headers["Content-Length"].flatMap { Int($0) } == gzip.body.count)
        #expect(gzip.body.first == UInt8(ascii: "{"))
    }
}
