#if OpenAPI
import Foundation
import GramophoneTestSupport
import HTTPTypes
import OpenAPIURLSession
import Testing

@_spi(Generated) import OpenAPIRuntime
@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The shape of what swift-openapi-generator writes for two operations of an httpbin-like API:
/// a `Client` over `UniversalClient`, each operation a serializer and a deserializer.
struct GeneratedStyleClient: Sendable {
    let client: UniversalClient

    init(serverURL: URL, transport: any ClientTransport) {
        client = UniversalClient(serverURL: serverURL, transport: transport)
    }

    struct Echo: Sendable, Equatable {
        var status: Int
        var body: Data
    }

    /// `GET /anything/users/{id}?verbose=true`
    func getUser(id: Int) async throws -> Echo {
        try await client.send(
            input: id, forOperation: "getUser",
            serializer: { id in
                (HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/anything/users/\(id)?verbose=true", headerFields: [.accept: "application/json"]), nil)
            },
            deserializer: { response, body in
                Echo(status: response.status.code, body: try await Data(collecting: body ?? HTTPBody(), upTo: 1 << 20))
            })
    }

    /// `POST /post` with a JSON body.
    func createUser(json: String) async throws -> Echo {
        try await client.send(
            input: json, forOperation: "createUser",
            serializer: { json in
                (HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/post", headerFields: [.contentType: "application/json"]), HTTPBody(json))
            },
            deserializer: { response, body in
                Echo(status: response.status.code, body: try await Data(collecting: body ?? HTTPBody(), upTo: 1 << 20))
            })
    }

    /// `GET /status/418`: an undocumented status a generated client hands on as `.undocumented`.
    func teapot() async throws -> Int {
        try await client.send(
            input: (), forOperation: "teapot",
            serializer: { _ in (HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/status/418"), nil) },
            deserializer: { response, _ in response.status.code })
    }
}

/// A Turntable as an OpenAPI `ClientTransport`: a generated-style client recorded against the
/// local httpbin, replayed offline; one vinyl through both the Turntable and URLSessionTransport.
@Suite("OpenAPI transport")
struct OpenAPITransportTests {
    static func recorder(_ name: String) throws -> (Turntable, URL) {
        let folder = try TestFiles.temporaryFolder()
        return (try Turntable(vinylNamed: name, from: .folder(folder), recording: Recording(mode: .once, environment: RecordingFixtures.localEnvironment)), folder)
    }

    /// The call sequence through `transport`.
    static func calls(_ transport: any ClientTransport) async throws -> [GeneratedStyleClient.Echo] {
        let client = GeneratedStyleClient(serverURL: try HTTPBin.baseURL(), transport: transport)
        return [
            try await client.getUser(id: 42),
            try await client.createUser(json: #"{"name":"Ada"}"#),
            GeneratedStyleClient.Echo(status: try await client.teapot(), body: Data()),
        ]
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func aGeneratedStyleCallSequenceRecordsAndReplaysOffline() async throws {
        let (recorder, folder) = try Self.recorder("openapi")
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await Self.calls(recorder)
        try recorder.eject()
        #expect(live.map(\.status) == [200, 200, 418])
        #expect(String(decoding: live[0].body, as: UTF8.self).contains("/anything/users/42?verbose=true"))
        let player = try Turntable(vinylNamed: "openapi", from: .folder(folder))
        #expect(try await Self.calls(player) == live)
        #expect(player.vinyl.tracks[1].request.body == Data(#"{"name":"Ada"}"#.utf8))
        #expect(player.vinyl.tracks[0].request.headers["Accept"] == "application/json")
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func recordedThroughURLSessionTransportReplaysThroughTheTurntableAndBack() async throws {
        let (recorder, folder) = try Self.recorder("transports")
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await Self.calls(URLSessionTransport(configuration: .init(session: recorder.makeURLSession())))
        try recorder.eject()
        let player = try Turntable(vinylNamed: "transports", from: .folder(folder))
        #expect(try await Self.calls(player) == live)

        // The reverse: recorded with the Turntable as the transport, replayed through URLSessionTransport.
        let (second, otherFolder) = try Self.recorder("reverse")
        defer { try? FileManager.default.removeItem(at: otherFolder) }
        let direct = try await Self.calls(second)
        try second.eject()
        let replayer = try Turntable(vinylNamed: "reverse", from: .folder(otherFolder))
        #expect(try await Self.calls(URLSessionTransport(configuration: .init(session: replayer.makeURLSession()))) == direct)
    }

    @Test(.enabled(if: StreamServer.isAvailable))
    func aRecordedStreamArrivesAsHTTPBodyChunkByChunk() async throws {
        let (recorder, folder) = try Self.recorder("stream")
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = try StreamServer.url("")
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/sse?count=4&gap=30")
        func chunks(_ body: HTTPBody?) async throws -> [Data] {
            var chunks: [Data] = []
            for try await chunk in try #require(body) { chunks.append(Data(chunk)) }
            return chunks
        }
        let live = try await chunks(try await recorder.send(request, body: nil, baseURL: base, operationID: "events").1)
        #expect(recorder.playback.recordedCount == 1, "a stream joins the vinyl before its reader sees the end")
        try recorder.eject()
        let player = try Turntable(vinylNamed: "stream", from: .folder(folder))
        let (response, body) = try await player.send(request, body: nil, baseURL: base, operationID: "events")
        #expect(response.headerFields[.contentType]?.hasPrefix("text/event-stream") == true)
        #expect(try await chunks(body) == live)
        #expect(live.count > 1)
    }

    @Test func aMissThrowsTheMissReportThroughTheClient() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        let client = GeneratedStyleClient(serverURL: URL(string: "https://api.example.com/v1")!, transport: turntable)
        let error = await #expect(throws: ClientError.self) { _ = try await client.getUser(id: 1) }
        #expect(error?.underlyingError is TurntableError)
        #expect(turntable.playback.missReports.first?.request.url.absoluteString == "https://api.example.com/v1/anything/users/1?verbose=true")
    }
}
#endif
