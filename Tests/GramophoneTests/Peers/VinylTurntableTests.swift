import Foundation
import Gramophone
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Vinyl's own `TurntableTests`, ported to Gramophone as the Vinyl guide (<doc:MigratingFromVinyl>)
/// spells each call, against Vinyl's fixture files unchanged, every assertion kept. Vinyl's
/// default strategy played each track once: `.attributes([.method, .url], playOnce: true)`.
@Suite struct VinylTurntableTests {
    static let vinylDefault = MatchingStrategy.attributes([.method, .url], playOnce: true)

    // MARK: Playing fixtures

    @Test func vinylSingle() async throws {
        try await singleCall(Peers.turntable("vinyl/vinyl_single", matching: Self.vinylDefault))
    }

    @Test func dvrSingle() async throws {
        try await singleCall(Peers.turntable("vinyl/dvr_single", matching: Self.vinylDefault))
    }

    @Test func vinylMultiple() async throws {
        try await multipleCall(Peers.turntable("vinyl/vinyl_multiple", matching: Self.vinylDefault))
    }

    @Test func dvrMultiple() async throws {
        try await multipleCall(Peers.turntable("vinyl/dvr_multiple", matching: Self.vinylDefault))
    }

    @Test func vinylMultipleDifferentMethods() async throws {
        let turntable = try Peers.turntable("vinyl/vinyl_multiple", matching: .attributes([.url], playOnce: true))
        var request1 = URLRequest(url: URL(string: "http://api.test1.com")!)
        request1.httpMethod = "POST"
        var request2 = URLRequest(url: URL(string: "http://api.test2.com")!)
        request2.httpMethod = "POST"
        let calls = HandlerCalls<HandlerCall>()
        turntable.dataTask(with: request1, completionHandler: calls.handler).resume()
        turntable.dataTask(with: request2, completionHandler: calls.handler).resume()
        let seen = await calls.first(2)
        #expect(seen[0].url == "http://api.test1.com")
        #expect(seen[1].url == "http://api.test2.com")
    }

    @Test func vinylMultipleAndNotUniquely() async throws {
        let turntable = try Peers.turntable("vinyl/vinyl_multiple", matching: .attributes([.url], playOnce: false))
        let url1 = "http://api.test1.com"
        let url2 = "http://api.test2.com"
        let calls = HandlerCalls<HandlerCall>()
        for url in [url1, url2, url2, url2] {
            turntable.dataTask(with: URL(string: url)!, completionHandler: calls.handler).resume()
        }
        let seen = await calls.first(4)
        #expect(seen[0].url == url1)
        for call in seen[1...3] { #expect(call.url == url2) }
    }

    /// Vinyl's `errorHandler` heard of the third request for a track played once; in Gramophone
    /// that request's task completes with `TurntableError.noMatchingTrack`.
    @Test func vinylMultipleUniquely() async throws {
        let turntable = try Peers.turntable("vinyl/vinyl_multiple", matching: .attributes([.url], playOnce: true))
        let url1 = "http://api.test1.com"
        let url2 = "http://api.test2.com"
        let calls = HandlerCalls<HandlerCall>()
        for url in [url1, url2, url2, url2, url2] {
            turntable.dataTask(with: URL(string: url)!, completionHandler: calls.handler).resume()
        }
        let seen = await calls.first(5)
        #expect(seen[0].url == url1)
        #expect(seen[1].url == url2)
        for call in seen[2...] {
            guard case .noMatchingTrack = call.error as? TurntableError else {
                Issue.record("expected noMatchingTrack, got \(String(describing: call.error))")
                continue
            }
        }
    }

    @Test func vinylUpload() async throws {
        let turntable = try Peers.turntable("vinyl/vinyl_upload", matching: .attributes([.method, .url, .body], playOnce: true))
        let urlString = "http://api.test.com"
        var request = URLRequest(url: URL(string: urlString)!)
        request.httpMethod = "POST"
        request.addValue("application/json", forHTTPHeaderField: "Content-Type")
        let upload = try JSONSerialization.data(withJSONObject: ["username": "ziggy", "password": "stardust"])
        let calls = HandlerCalls<HandlerCall>()
        turntable.uploadTask(with: request, from: upload, completionHandler: calls.handler).resume()
        let call = try #require(await calls.first(1).first)
        #expect(call.error == nil)
        let data = try #require(call.data)
        let body = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(call.url == urlString)
        #expect(call.status == 200)
        #expect(body == ["token": "thespidersfrommars"])
    }

    // MARK: Vinyls built in code, loaded later

    /// `TrackFactory.createValidTrack(url:body:headers:)`, `Vinyl(tracks:)`, `turntable.load(vinyl:)`.
    @Test func playVinyl() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"), matching: Self.vinylDefault)
        let track = Track(Track.Request(url: URL(string: "http://api.test.com")!), .data(Data("hello".utf8), contentType: nil))
        turntable.load(vinyl: Vinyl(name: "code", tracks: [track]))
        try await singleCall(turntable)
    }

    @Test func playVinylFile() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"), matching: Self.vinylDefault)
        try turntable.load(vinylNamed: "Fixtures/vinyl/vinyl_single", from: .bundle(.module))
        try await singleCall(turntable)
    }

    @Test func playCassetteFile() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"), matching: Self.vinylDefault)
        try turntable.load(vinylNamed: "Fixtures/vinyl/dvr_single", from: .bundle(.module))
        try await singleCall(turntable)
    }

    // MARK: Track order

    /// `.trackOrder`: the n-th request gets the n-th track, whatever it asks for.
    @Test func vinylWithTrackOrder() async throws {
        let tracks = [
            Track(Track.Request(url: URL(string: "http://feelGoodINC.com/request/2")!), .data(Data(), contentType: nil, headers: ["header1": "value1"])),
            Track(
                Track.Request(url: URL(string: "http://feelGoodINC.com/request/1")!),
                .data(Data(), contentType: nil, headers: ["header1": "value1", "header2": "value2"])),
            Track(Track.Request(url: URL(string: "https://rand.com/")!), .data(Data(), contentType: nil)),
        ]
        var request1 = URLRequest(url: URL(string: "http://random.com")!)
        request1.httpMethod = "POST"
        var request2 = URLRequest(url: URL(string: "http://random.com/random")!)
        request2.httpMethod = "DELETE"
        var request3 = URLRequest(url: URL(string: "http://random.com/random/another/one")!)
        request3.httpMethod = "PUT"
        let turntable = Turntable(vinyl: Vinyl(name: "order", tracks: tracks), matching: .trackOrder())
        let calls = HandlerCalls<HandlerCall>()
        for request in [request1, request2, request3] {
            turntable.dataTask(with: request, completionHandler: calls.handler).resume()
        }
        let seen = await calls.first(3)
        for (call, track) in zip(seen, tracks) {
            #expect(call.status == 200)
            // Header names compare as HTTP compares them: Linux Foundation's HTTPURLResponse
            // capitalises them (`Header1`), Apple's keeps the recorded spelling.
            #expect(
                Dictionary(uniqueKeysWithValues: call.headers.map { ($0.key.lowercased(), $0.value) })
                    == Dictionary(uniqueKeysWithValues: track.response!.headers.map { ($0.name.lowercased(), $0.value) }))
            #expect(call.url == track.request.url.absoluteString)
        }
    }

    // MARK: Delegate queue

    @Test func vinylDefaultQueue() async throws {
        let turntable = try Peers.turntable("vinyl/vinyl_single", matching: Self.vinylDefault)
        let calls = HandlerCalls<HandlerCall>()
        turntable.dataTask(with: URL(string: "http://api.test.com")!, completionHandler: calls.handler).resume()
        let call = await calls.first(1)[0]
        #expect(call.onMainThread == false)
        #expect(call.onMainQueue == false)
    }

    /// `Turntable(vinylName:delegateQueue: .main)`: `setDelegate(nil, queue: .main)`.
    @Test func vinylMainQueue() async throws {
        let turntable = try Peers.turntable("vinyl/vinyl_single", matching: Self.vinylDefault)
        turntable.setDelegate(nil, queue: .main)
        let calls = HandlerCalls<HandlerCall>()
        turntable.dataTask(with: URL(string: "http://api.test.com")!, completionHandler: calls.handler).resume()
        #expect(await calls.first(1)[0].onMainQueue)
    }

    @Test func vinylDelegate() throws {
        let turntable = try Peers.turntable("vinyl/vinyl_single", matching: Self.vinylDefault)
        turntable.setDelegate(nil, queue: .main)
        #expect(turntable.delegate == nil)
        #expect(turntable.delegateQueue === OperationQueue.main)
    }

    // MARK: Recording to a path

    /// Vinyl's recording tests: the Turntable that records is given another Turntable as its
    /// `urlSession` ("dog food"), and writes to a path of the test's choosing (Vinyl's
    /// `recordingPath`; nil was the test bundle's resources, a build product Gramophone does not
    /// write, so the path here is a temporary file).
    private func recordingPath(_ name: String) throws -> (folder: URL, file: URL) {
        let folder = try TestFiles.temporaryFolder()
        return (folder, folder.appendingPathComponent(name).appendingPathExtension("json"))
    }

    /// Vinyl's four recording tests: what is played, the mode, the dog food, the request, and
    /// whether the path is written after `stopRecording()` (`eject()`).
    struct RecordingCase: Sendable, CustomTestStringConvertible {
        var name: String
        var playing: String
        var mode: RecordMode
        var dogFood: String
        var url: String
        var writes: Bool
        var testDescription: String { name }
    }

    static let recordingCases = [
        RecordingCase(
            name: "missingVinyl, vinyl missing", playing: "vinyl/vinyl_recording", mode: .once, dogFood: "vinyl/vinyl_single", url: "http://api.test.com",
            writes: true),
        RecordingCase(
            name: "missingVinyl, vinyl present", playing: "vinyl/vinyl_single", mode: .once, dogFood: "vinyl/vinyl_single", url: "http://api.test.com",
            writes: false),
        RecordingCase(
            name: "missingTracks, missing track", playing: "vinyl/vinyl_single", mode: .newEpisodes, dogFood: "vinyl/vinyl_multiple",
            url: "http://api.test1.com", writes: true),
        RecordingCase(
            name: "missingTracks, existing track", playing: "vinyl/vinyl_single", mode: .newEpisodes, dogFood: "vinyl/vinyl_single",
            url: "http://api.test.com", writes: false),
    ]

    @Test(arguments: recordingCases) func recording(_ recordingCase: RecordingCase) async throws {
        let (folder, path) = try recordingPath("vinyl_recording")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dogFood = try Peers.turntable(recordingCase.dogFood, matching: Self.vinylDefault)
        let recording = Recording(mode: recordingCase.mode, session: dogFood, environment: Peers.localEnvironment).writing(to: path)
        let turntable = try Peers.turntable(recordingCase.playing, matching: Self.vinylDefault, recording: recording)
        let calls = HandlerCalls<HandlerCall>()
        turntable.dataTask(with: URL(string: recordingCase.url)!, completionHandler: calls.handler).resume()
        _ = await calls.first(1)
        try turntable.eject()
        #expect(FileManager.default.fileExists(atPath: path.path) == recordingCase.writes)
    }

    // MARK: Configuration

    /// Vinyl's `turntable.configuration`: `makeURLSessionConfiguration()`.
    @Test func defaultURLSessionConfiguration() throws {
        let turntable = try Peers.turntable("vinyl/vinyl_single")
        _ = turntable.makeURLSessionConfiguration()
    }

    @Test func recordingURLSessionConfiguration() throws {
        let expectedHeaderValue = "Vinyl"
        let configuration = URLSessionConfiguration.default
        configuration.httpAdditionalHeaders = ["X-UniqueHeader": expectedHeaderValue]
        let urlSession = URLSession(configuration: configuration)
        let turntable = try Peers.turntable(
            "vinyl/vinyl_single", recording: Recording(mode: .newEpisodes, session: urlSession, environment: Peers.localEnvironment))
        let headerValue = turntable.makeURLSessionConfiguration().httpAdditionalHeaders?["X-UniqueHeader"] as? String
        #expect(headerValue == expectedHeaderValue)
    }

    // MARK: Vinyl's helpers

    private func singleCall(_ turntable: Turntable) async throws {
        let urlString = "http://api.test.com"
        let calls = HandlerCalls<HandlerCall>()
        turntable.dataTask(with: URL(string: urlString)!, completionHandler: calls.handler).resume()
        let call = try #require(await calls.first(1).first)
        #expect(call.error == nil)
        #expect(call.url == urlString)
        #expect(call.status == 200)
        #expect(call.data == Data("hello".utf8))
    }

    private func multipleCall(_ turntable: Turntable) async throws {
        let url1 = "http://api.test1.com"
        let url2 = "http://api.test2.com"
        let calls = HandlerCalls<HandlerCall>()
        turntable.dataTask(with: URL(string: url1)!, completionHandler: calls.handler).resume()
        turntable.dataTask(with: URL(string: url2)!, completionHandler: calls.handler).resume()
        let seen = await calls.first(2)
        #expect(seen[0].url == url1)
        #expect(seen[1].url == url2)
    }
}
