#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import GramophoneTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// AsyncHTTPClient code on a Turntable: recorded through a real `HTTPClient` against the local
/// httpbin and streaming server, replayed with no network, byte for byte and chunk by chunk.
@Suite("AsyncHTTPClient")
struct AsyncHTTPClientTests {
    /// A Turntable recording into a fresh folder through `HTTPClient` (nil: the one it makes).
    static func recorder(_ name: String, httpClient: HTTPClient? = .shared) throws -> (Turntable, URL) {
        let folder = try TestFiles.temporaryFolder()
        let turntable = try Turntable(
            vinylNamed: name, from: .folder(folder), recording: Recording(mode: .once, httpClient: httpClient, environment: RecordingFixtures.localEnvironment))
        return (turntable, folder)
    }

    /// What an AHC caller receives: status, headers, and the body chunk by chunk.
    struct Received: Equatable {
        var status: UInt
        var headers: [String: String]
        var chunks: [Data]
        var body: Data { chunks.reduce(Data(), +) }
    }

    static func send(_ request: HTTPClientRequest, to session: some HTTPClientSession) async throws -> Received {
        let response = try await session.execute(request, timeout: .seconds(30))
        var chunks: [Data] = []
        for try await buffer in response.body { chunks.append(Data(buffer.readableBytesView)) }
        var headers: [String: String] = [:]
        for (name, value) in response.headers { headers[name.lowercased()] = value }
        return Received(status: response.status.code, headers: headers, chunks: chunks)
    }

    static func get(_ url: URL) -> HTTPClientRequest { HTTPClientRequest(url: url.absoluteString) }

    /// Records `requests` (made anew for each run, as a stream body is read once) through AHC,
    /// ejects, and replays them on a Turntable with no recorder: each answer must equal the live one.
    static func recordAndReplay(
        _ name: String, _ requests: () throws -> [HTTPClientRequest], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (live: [Received], replayed: [Received], vinyl: Vinyl) {
        let (recorder, folder) = try Self.recorder(name)
        defer { try? FileManager.default.removeItem(at: folder) }
        var live: [Received] = []
        for request in try requests() { live.append(try await send(request, to: recorder)) }
        try recorder.eject()
        let player = try Turntable(vinylNamed: name, from: .folder(folder))
        var replayed: [Received] = []
        for request in try requests() { replayed.append(try await send(request, to: player)) }
        #expect(replayed.map(\.status) == live.map(\.status), sourceLocation: sourceLocation)
        #expect(replayed.map(\.body) == live.map(\.body), sourceLocation: sourceLocation)
        return (live, replayed, player.vinyl)
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func getWithAQueryReplaysByteForByte() async throws {
        let url = try HTTPBin.baseURL().appendingPathComponent("get")
        let (live, replayed, vinyl) = try await Self.recordAndReplay("get") { [Self.get(URL(string: url.absoluteString + "?city=Lyon&days=3")!)] }
        #expect(live[0].status == 200)
        #expect(String(decoding: live[0].body, as: UTF8.self).contains("Lyon"))
        #expect(replayed[0].headers["content-type"] == "application/json")
        #expect(vinyl.tracks.first?.request.url.query == "city=Lyon&days=3")
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func postedJSONIsCollectedMatchedAndRecorded() async throws {
        let url = try HTTPBin.baseURL().appendingPathComponent("post")
        let json = #"{"name":"Ada","languages":["en","fr"]}"#
        func request() -> HTTPClientRequest {
            var request = Self.get(url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
            return request
        }
        let (live, _, vinyl) = try await Self.recordAndReplay("post") { [request()] }
        #expect(vinyl.tracks.first?.request.body == Data(json.utf8))
        let echoed = try JSONSerialization.jsonObject(with: live[0].body) as? [String: Any]
        #expect((echoed?["json"] as? [String: Any])?["name"] as? String == "Ada")
        // Matching on the body: a different body misses, with the miss report data(for:) gives.
        let player = Turntable(vinyl: vinyl, matching: [.method, .url, .body])
        var other = request()
        other.body = .bytes(ByteBuffer(string: #"{"name":"Grace"}"#))
        await #expect(throws: TurntableError.self) { _ = try await Self.send(other, to: player) }
        #expect(player.playback.missReports.first?.differences.isEmpty == false)
    }

    @Test(.enabled(if: HTTPBin.isAvailable), arguments: [true, false])
    func aMegabytePutStreamedInPiecesIsCollected(knownLength: Bool) async throws {
        let url = try HTTPBin.baseURL().appendingPathComponent("put")
        let piece = Data((0..<1000).map { UInt8(ascii: "a") + UInt8($0 % 26) })
        func request() -> HTTPClientRequest {
            var request = Self.get(url)
            request.method = .PUT
            let pieces = AsyncStream<ByteBuffer> { continuation in
                for _ in 0..<1000 { continuation.yield(ByteBuffer(bytes: piece)) }
                continuation.finish()
            }
            request.body = .stream(pieces, length: knownLength ? .known(Int64(1_000_000)) : .unknown)
            return request
        }
        let (live, _, vinyl) = try await Self.recordAndReplay("put") { [request()] }
        #expect(live[0].status == 200)
        #expect(vinyl.tracks.first?.request.body.count == 1_000_000)
        #expect(vinyl.tracks.first?.request.body.prefix(1000) == piece)
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func statusesBinaryGzipAndRedirectsReplayAsAsyncHTTPClientSawThem() async throws {
        let base = try HTTPBin.baseURL()
        let paths = ["status/418", "bytes/2048?seed=7", "gzip", "redirect/2"]
        let (live, replayed, vinyl) = try await Self.recordAndReplay("mixed") { paths.map { Self.get(URL(string: base.absoluteString + "/" + $0)!) } }
        #expect(live.map(\.status) == [418, 200, 200, 200])
        #expect(live[1].body.count == 2048)
        // HTTPClient.shared decompresses: the body it handed over is recorded and replayed, with
        // headers that describe it (no Content-Encoding), as on every recording path.
        #expect(live[2].headers["content-encoding"] == "gzip")
        #expect(replayed[2].headers["content-encoding"] == nil)
        #expect(vinyl.tracks[2].response?.headers["Content-Encoding"] == nil)
        #expect(String(decoding: replayed[2].body, as: UTF8.self).contains("\"gzipped\": true"))
        // AsyncHTTPClient followed the redirects; the track answers the first URL with the final response.
        #expect(vinyl.tracks[3].response?.url?.path == "/get")
    }

    /// A client that does not decompress hands over gzip bytes: they are stored as they came,
    /// headers and all (they describe them), replay to it as they came, and lint passes.
    @Test(.enabled(if: HTTPBin.isAvailable))
    func aBodyStillCompressedIsStoredCompressedWithItsHeaders() async throws {
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: HTTPClient.Configuration())
        let (recorder, folder) = try Self.recorder("compressed", httpClient: client)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try HTTPBin.baseURL().appendingPathComponent("gzip")
        let live: Received
        do {
            live = try await Self.send(Self.get(url), to: recorder)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        #expect(live.body.starts(with: [0x1F, 0x8B]))
        let report = try #require(try recorder.eject())
        #expect(report.rewritten.isEmpty)
        let file = folder.appendingPathComponent("compressed.json")
        let stored = try #require(try Vinyl(contentsOf: file).tracks.first?.response)
        #expect(stored.headers["Content-Encoding"] == "gzip")
        #expect(stored.body == live.body)
        let replayed = try await Self.send(Self.get(url), to: try Turntable(vinylNamed: "compressed", from: .folder(folder)))
        #expect(replayed.body == live.body)
        #expect(replayed.headers["content-encoding"] == "gzip")
        let lint = try await CLITests.run("lint", file.path)
        #expect(lint.status == 0, "\(lint.stdout)")
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func theFinalURLAfterARedirectIsTheResponsesURL() async throws {
        let url = try HTTPBin.baseURL().appendingPathComponent("redirect/1")
        let (recorder, folder) = try Self.recorder("redirect")
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await recorder.execute(Self.get(url), timeout: .seconds(30))
        _ = try await live.body.collect(upTo: 1 << 20)
        try recorder.eject()
        let replayed = try await Turntable(vinylNamed: "redirect", from: .folder(folder)).execute(Self.get(url), timeout: .seconds(5))
        #expect(replayed.url?.path == "/get")
        #expect(replayed.url == live.url)
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func httpbinsStreamArrivesChunkByChunk() async throws {
        let url = try HTTPBin.baseURL().appendingPathComponent("stream/5")
        let (live, replayed, vinyl) = try await Self.recordAndReplay("stream") { [Self.get(url)] }
        #expect(replayed[0].chunks == live[0].chunks)
        #expect(vinyl.tracks.first?.response?.stream != nil)
        #expect(String(decoding: live[0].body, as: UTF8.self).split(separator: "\n").count == 5)
    }

    @Test(.enabled(if: StreamServer.isAvailable), arguments: ["/sse?count=4&gap=30", "/llm?gap=10", "/anthropic?gap=10", "/binary?gap=10"])
    func serverSentEventsAndBinaryStreamsReplayChunkByChunk(path: String) async throws {
        let url = try StreamServer.url(path)
        let (recorder, folder) = try Self.recorder("events")
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await Self.send(Self.get(url), to: recorder)
        #expect(recorder.playback.recordedCount == 1, "a stream joins the vinyl before its reader sees the end")
        try recorder.eject()
        let stream = try #require(Vinyl(contentsOf: folder.appendingPathComponent("events.json")).tracks.first?.response?.stream)
        #expect(stream.chunks.count == live.chunks.count)

        let player = try Turntable(vinylNamed: "events", from: .folder(folder))
        #expect(try await Self.send(Self.get(url), to: player).chunks == live.chunks)
        // Re-cut as bytes(for:) re-cuts it: one event per chunk.
        guard path != "/binary?gap=10" else { return }
        player.chunking = .eventPerChunk
        let cut = try await Self.send(Self.get(url), to: player)
        #expect(cut.body == live.body)
        #expect(cut.chunks.allSatisfy { String(decoding: $0, as: UTF8.self).hasSuffix("\n\n") })
    }

    @Test(.enabled(if: StreamServer.isAvailable))
    func recordedPacingIsReplayedAsBytesForReplaysIt() async throws {
        let url = try StreamServer.url("/sse?count=3&gap=80")
        let (recorder, folder) = try Self.recorder("paced")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await Self.send(Self.get(url), to: recorder)
        #expect(recorder.playback.recordedCount == 1, "a stream joins the vinyl before its reader sees the end")
        try recorder.eject()
        let player = try Turntable(vinylNamed: "paced", from: .folder(folder))
        player.timing = .recordedDuration()
        let offsets = try #require(player.vinyl.tracks.first?.response?.stream).chunks.map(\.offset)
        let start = ContinuousClock.now
        let response = try await player.execute(Self.get(url), timeout: .seconds(5))
        var arrivals: [Double] = []
        for try await _ in response.body {
            let elapsed = ContinuousClock.now - start
            arrivals.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        #expect(arrivals.count == offsets.count)
        // Each chunk no earlier than it was recorded (scheduling may only make it later).
        for (arrival, offset) in zip(arrivals, offsets) { #expect(arrival >= offset * 0.95) }
    }

    @Test func stubsAnswerFirstAndAMissThrowsTheMissReport() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        _ = turntable.stubs.add(Stub("ping").matching(.url(URL(string: "https://api.example.com/ping")!)).responding(with: .json(#"{"pong":true}"#)))
        let pong = try await Self.send(Self.get(URL(string: "https://api.example.com/ping")!), to: turntable)
        #expect(pong.status == 200 && pong.body == Data(#"{"pong":true}"#.utf8))
        await #expect(throws: TurntableError.self) {
            _ = try await turntable.execute(Self.get(URL(string: "https://api.example.com/missing")!), timeout: .seconds(1))
        }
        #expect(turntable.playback.misses == 1)
        #expect(turntable.playback.missReports.first?.request.url.path == "/missing")
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func redactionAppliesAndTheTokenedRequestStillMatches() async throws {
        let url = URL(string: try HTTPBin.baseURL().absoluteString + "/get?access_token=s3cr3t-t0ken-value&page=2")!
        let (recorder, folder) = try Self.recorder("redacted", httpClient: nil)
        defer { try? FileManager.default.removeItem(at: folder) }
        var request = Self.get(url)
        request.headers.add(name: "Authorization", value: "Bearer s3cr3t-t0ken-value")
        _ = try await Self.send(request, to: recorder)
        // The client made for the recording is shut down here; the vinyl is written.
        try recorder.eject()
        let text = try String(contentsOf: folder.appendingPathComponent("redacted.json"), encoding: .utf8)
        #expect(!text.contains("s3cr3t-t0ken-value"))
        let replayed = try await Self.send(request, to: try Turntable(vinylNamed: "redacted", from: .folder(folder)))
        #expect(replayed.status == 200)
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func repeatedHeaderFieldsStayApartRecordedAndReplayed() async throws {
        // AsyncHTTPClient keeps repeated fields apart (two Set-Cookie lines must not become one):
        // so does the vinyl it records, and so does the replay.
        let url = URL(string: try HTTPBin.baseURL().absoluteString + "/response-headers?X-Repeat=one&X-Repeat=two")!
        let (recorder, folder) = try Self.recorder("repeats")
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await recorder.execute(Self.get(url), timeout: .seconds(30))
        #expect(live.headers["X-Repeat"] == ["one", "two"])
        try recorder.eject()
        let player = try Turntable(vinylNamed: "repeats", from: .folder(folder))
        #expect(player.vinyl.tracks.first?.response?.headers.values(for: "X-Repeat") == ["one", "two"])
        let replayed = try await player.execute(Self.get(url), timeout: .seconds(30))
        #expect(replayed.headers["X-Repeat"] == ["one", "two"])
        #expect(replayed.status == .ok)
    }

    @Test func aStubsRepeatedFieldsArriveApart() async throws {
        // As HTTPClient hands a server's two Set-Cookie lines over: two fields, not one joined.
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let url = URL(string: "https://api.example.com/login")!
        let cookies = Headers([Headers.Field(name: "Set-Cookie", value: "a=1; Path=/"), Headers.Field(name: "Set-Cookie", value: "b=2")])
        _ = turntable.stubs.add(Stub("login").matching(.url(url)).responding(with: .json("{}", headers: cookies)))
        let response = try await turntable.execute(Self.get(url), timeout: .seconds(5))
        #expect(response.headers["Set-Cookie"] == ["a=1; Path=/", "b=2"])
    }

    @Test(arguments: ["ftp://example.com/file", "http:///no-host", "https://:8080/no-host", "no-scheme/path", "http+unix:///no-socket", "http://%FF/"])
    func aURLHTTPClientRefusesIsRefusedWithItsError(url: String) async throws {
        // What HTTPClient throws for the URL before it connects anywhere, the Turntable throws too.
        let fromHTTPClient = await #expect(throws: HTTPClientError.self) {
            _ = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
        }
        let fromTurntable = await #expect(throws: HTTPClientError.self) {
            _ = try await Turntable(vinyl: Vinyl(name: "empty")).execute(HTTPClientRequest(url: url), timeout: .seconds(5))
        }
        #expect(fromTurntable == fromHTTPClient)
    }

    @Test(.enabled(if: HTTPBin.isAvailable), arguments: ["HTTP://", "hTTp://", "http://someone@"])
    func aURLHTTPClientSendsIsTakenAsItIs(prefix: String) async throws {
        // Spellings HTTPClient sends (checked against the local httpbin) reach the vinyl: a miss
        // here, not a URL error.
        let port = try #require(try HTTPBin.baseURL().port)
        let url = "\(prefix)127.0.0.1:\(port)/get"
        #expect(try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30)).status == .ok)
        await #expect(throws: TurntableError.self) {
            _ = try await Turntable(vinyl: Vinyl(name: "empty")).execute(HTTPClientRequest(url: url), timeout: .seconds(5))
        }
    }

    @Test(.enabled(if: HTTPBin.isAvailable), .timeLimit(.minutes(1)))
    func aResponseSlowerThanTheDeadlineThrowsDeadlineExceededAsHTTPClientDoes() async throws {
        let url = try HTTPBin.baseURL().appendingPathComponent("delay/1")
        // Live, HTTPClient gives up at the deadline... (asked of a ten-second answer: HTTPClient
        // cancels through a task on the cooperative pool, which a loaded run can hold up for a
        // second, as CI's did once)
        await #expect(throws: HTTPClientError.deadlineExceeded) {
            _ = try await HTTPClient.shared.execute(Self.get(HTTPBin.baseURL().appendingPathComponent("delay/10")), timeout: .milliseconds(200))
        }
        let (recorder, folder) = try Self.recorder("slow")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await Self.send(Self.get(url), to: recorder)
        try recorder.eject()
        // ...and so does a replay that plays the recorded second back.
        let player = try Turntable(vinylNamed: "slow", from: .folder(folder))
        player.timing = .recordedDuration()
        await #expect(throws: HTTPClientError.deadlineExceeded) {
            _ = try await player.execute(Self.get(url), timeout: .milliseconds(200))
        }
        // Given the time, the same replay answers.
        #expect(try await Self.send(Self.get(url), to: player).status == 200)
    }

    @Test(.timeLimit(.minutes(1)))
    func aStubDelayedPastTheDeadlineThrowsDeadlineExceededAtTheDeadline() async throws {
        // Ten minutes of delay: only the deadline ends this test within the time limit.
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let url = URL(string: "https://api.example.com/slow")!
        _ = turntable.stubs.add(Stub("slow").matching(.url(url)).responding(with: StubResponse.json("{}").delivered(.delayed(600))))
        await #expect(throws: HTTPClientError.deadlineExceeded) {
            _ = try await turntable.execute(Self.get(url), timeout: .milliseconds(100))
        }
        // A wait well inside the deadline is waited out, also against NIO's farthest deadline.
        let soon = URL(string: "https://api.example.com/soon")!
        _ = turntable.stubs.add(Stub("soon").matching(.url(soon)).responding(with: StubResponse.json("{}").delivered(.delayed(0.05))))
        #expect(try await turntable.execute(Self.get(soon), deadline: .distantFuture).status == .ok)
        #expect(try await turntable.execute(Self.get(soon), timeout: .seconds(30)).status == .ok)
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func productionCodeTakesHTTPClientAsAnHTTPClientSession() async throws {
        let session: any HTTPClientSession = HTTPClient.shared
        let received = try await Self.send(Self.get(try HTTPBin.baseURL().appendingPathComponent("uuid")), to: session)
        #expect(received.status == 200)
    }
}
#endif
